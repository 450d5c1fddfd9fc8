import CLinux
import CSDL2
import Testing
@testable import CarouselCore
@testable import CarouselDevices
@testable import CarouselSDL
import CarouselClock

/// What the devices' reader (CarouselDevices) hands over, as the window's input: in the
/// engine's pixels, on the loop's one clock.
@Suite struct DeviceInputTranslationTests {
    @Test func deviceInputBecomesTheEnginesPixels() {
        var t = SDLInputTranslator()
        let g = InputGeometry(window: Size(width: 1280, height: 800), drawable: Size(width: 1280, height: 800), origin: Point(x: 0, y: 0))
        let down = t.translate(.pointer(.down, x: 0.75, y: 0.5, time: 10), geometry: g, time: { $0 - 9 })
        #expect(down == [.pointer(PointerEvent(.down, .mouse, x: 960, y: 400, time: 1))])
        let f = t.translate(.finger(9, .down, x: 0.5, y: 0.25, time: 10), geometry: g, time: { $0 })
        #expect(f == [.pointer(PointerEvent(.down, .finger(9), x: 640, y: 200, time: 10))])
        // A touch of 5 ms that never moved is noise.
        let up = t.translate(.finger(9, .up, x: 0.5, y: 0.25, time: 10.005), geometry: g, time: { $0 })
        #expect(up == [.pointer(PointerEvent(.cancel, .finger(9), x: 640, y: 200, time: 10.005))])
        #expect(t.translate(.activity, geometry: g, time: { $0 }).isEmpty)
    }

    /// The devices' event times (CLOCK_MONOTONIC), SDL's (its own millisecond ticks) and
    /// the loop's are one clock (issue 40: frames were recorded on SDL's and the control
    /// API asked on the kernel's, so /status had no frame figures). Over 20 ms, so that
    /// SDL's millisecond turns many times, its times never go back and stay within a
    /// millisecond of the loop's: SDL 2.26 counts its ticks as whole seconds plus the
    /// nanoseconds' difference divided by a million, which rounds towards zero, so for the
    /// part of each second where the clock's nanoseconds are below those of SDL's start a
    /// tick turns a millisecond early (seen under ThreadSanitizer: a quarter of the samples
    /// 0.98 ms ahead, SDL having started 0.25 s into a second), and the start, found from
    /// one turn, may be a millisecond early too.
    @MainActor @Test func deviceSDLAndLoopTimesAreOneClock() {
        let device = LoopClock.fromMonotonic(kc_monotonic_seconds()), loop = LoopClock.system.now()
        #expect(loop - device >= 0 && loop - device < 0.01, "device \(device), loop \(loop)")
        let start = LoopClock.system.now()
        var previous = -Double.infinity, samples = 0, off: [Double] = []
        while LoopClock.system.now() - start < 0.02 {
            let before = LoopClock.system.now()
            let ticks = UInt32(truncatingIfNeeded: SDL_GetTicks64())
            let sdl = EventQueue.fromSDL(ticks), after = LoopClock.system.now()
            // A busy machine may put the thread aside between the readings: such a sample
            // says nothing about the clocks.
            guard after - before < 0.0005 else { continue }
            // SDL's millisecond began at most 1 ms before `before`, and not after `after`,
            // give or take SDL's own rounding (a millisecond, see above).
            if sdl > after + 0.0011 || sdl < before - 0.0021 { off.append(after - sdl) }
            #expect(sdl >= previous - 0.0001, "an SDL time went back: \(previous) then \(sdl)")
            previous = sdl
            samples += 1
        }
        #expect(off.count < 3, "\(off.count) of \(samples) SDL times off the loop's clock: \(off.prefix(5))")
    }

    /// A TV remote's keys (CarouselDevices' `CECKey`) mean what the keyboard's keys mean.
    @Test func theKeysMeanWhatTheKeyboardsKeysMean() {
        #expect(CECKey.left.key == .left && CECKey.right.key == .right && CECKey.up.key == .up && CECKey.down.key == .down)
        #expect(CECKey.select.key == .enter && CECKey.exit.key == .backspace && CECKey.rootMenu.key == .backspace)
        #expect(CECKey.forward.key == .right && CECKey.backward.key == .left && CECKey.pausePlayFunction.key == .playPause)
        #expect(CECKey.play.key == nil && CECKey.pause.key == nil, "Play and Pause set a state; the loop does")
    }
}
