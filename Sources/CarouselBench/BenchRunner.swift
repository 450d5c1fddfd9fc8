import CarouselApp
import CarouselCore
import CarouselSDL
import Foundation
import CarouselClock

/// Plays a `BenchMix` on a subject in real time, as the window would: frames only while
/// something moves or changes, paced at 60 a second (vsync off, so a slow frame shows),
/// each timed from input to a finished frame. Between frames it sleeps in SDL's event wait.
struct BenchRunner {
    struct Result: Sendable {
        /// Seconds of work per drawn frame, input handling to completed drawing.
        var frameTimes: [Double] = []
        /// Frames drawn while the strip moved, and those with a placeholder in view, by phase.
        var framesInMotion: [BenchMix.Phase: Int] = [:]
        var placeholderFrames: [BenchMix.Phase: Int] = [:]
        /// Items shown without their image, summed over the frames in motion, by phase: a
        /// frame with three blank tiles counts three.
        var blankItems: [BenchMix.Phase: Int] = [:]
        /// Frames over 16.7 ms, by phase: which part of the mix was slow.
        var slowFrames: [BenchMix.Phase: Int] = [:]
        /// `frameTimes` by phase.
        var frameTimesByPhase: [BenchMix.Phase: [Double]] = [:]
        /// Seconds from the subject's start until every visible image was in place.
        var imagesInPlace: Double?
        /// CPU used over the final rest, as a share of one core, counted from when the last
        /// image was decoded: at rest means nothing moves and nothing loads.
        var restCPU: Double = 0
        /// Seconds the decoders were still busy after the strip stopped.
        var loadingAfterStop: Double = 0
    }

    let renderer: SDLRenderer
    /// Draws into the screen (or a target) of the physical size: rotation, offscreen.
    let present: (BenchSubject) throws -> Void
    /// Called each pass with the phase (the clips' figures are sampled there).
    var observe: (BenchMix.Phase) -> Void = { _ in }
    static let frameInterval = 1.0 / 60

    /// Plays `mix` on `subject`, whose engine time is `LoopClock.system.now()`; `startedAt` is
    /// when the subject began starting up (for the time until the images are in place).
    func run(_ mix: BenchMix, on subject: BenchSubject, startedAt: Double) throws -> Result {
        var result = Result()
        let start = LoopClock.system.now()
        var next = 0
        var needsDraw = true
        var nextFrame = start
        var rest: (cpu: Double, wall: Double)?
        let restPhase = mix.phases.first { $0.phase == .rest }?.start ?? mix.duration
        while true {
            let now = LoopClock.system.now()
            let offset = now - start
            // The rest lasts `restLength` from when the decoders fell idle (at most 30 s on).
            if let rest, now - rest.wall >= mix.restLength { break }
            if offset >= restPhase + mix.restLength + 30 { break }
            let phase = mix.phase(at: offset)
            if phase == .rest && rest == nil && !subject.isLoading && !subject.activity.moving {
                rest = (ProcessStats.cpuSeconds, now)
                result.loadingAfterStop = max(0, offset - restPhase)
            }
            while next < mix.events.count && mix.events[next].offset <= offset {
                if let input = mix.events[next].input(start: start) { try subject.handle(input) }
                else { try subject.apply(.back(time: start + mix.events[next].offset)) }
                next += 1
                needsDraw = true
            }
            // As the run loop: the time first, then what came (a clip's frame due now shows now).
            try subject.advance(to: now)
            if try subject.pump() { needsDraw = true }
            observe(phase)
            let moving = !subject.activity.resting
            if (moving || needsDraw) && LoopClock.system.now() < nextFrame - 0.0005 {
                // Woken before the frame is due (a decode finished; its upload is done): the
                // frame keeps its turn, as vsync would keep it; wake-ups do not add frames.
                _ = EventQueue.wait(until: LoopClock.system.now() + (nextFrame - LoopClock.system.now()))
                continue
            }
            if moving || needsDraw {
                try present(subject)
                renderer.present()
                renderer.finish()
                let done = LoopClock.system.now()
                result.frameTimes.append(done - now)
                result.frameTimesByPhase[phase, default: []].append(done - now)
                if done - now > Self.frameInterval { result.slowFrames[phase, default: 0] += 1 }
                needsDraw = false
                let blank = subject.itemsWithoutImage
                let placeholder = blank > 0
                if !placeholder && subject.itemsShowingPreview == 0 && result.imagesInPlace == nil { result.imagesInPlace = done - startedAt }
                if moving {
                    result.framesInMotion[phase, default: 0] += 1
                    if placeholder { result.placeholderFrames[phase, default: 0] += 1 }
                    result.blankItems[phase, default: 0] += blank
                }
                nextFrame = max(nextFrame + Self.frameInterval, done)
                let pause = nextFrame - LoopClock.system.now()
                if pause > 0 { _ = EventQueue.wait(until: LoopClock.system.now() + pause) }
            } else {
                // At rest: sleep until the next input is due, or a decoded image wakes us.
                var due = next < mix.events.count ? mix.events[next].offset
                    : rest.map { $0.wall - start + mix.restLength } ?? offset + 0.05
                // Or until the view moves by itself (autoplay), as the window would.
                if let planned = subject.activity.nextStep { due = min(due, planned - start) }
                let pause = due - (LoopClock.system.now() - start)
                if pause > 0 { _ = EventQueue.wait(until: LoopClock.system.now() + pause) }
            }
        }
        if let rest { result.restCPU = (ProcessStats.cpuSeconds - rest.cpu) / (LoopClock.system.now() - rest.wall) }
        return result
    }
}
