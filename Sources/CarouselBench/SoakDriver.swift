import CarouselApp
import CarouselCore
import CarouselSDL
import Foundation

/// The program's side of `carousel bench --soak`: plays the input and window steps of the
/// seeded mix into SDL's queue at their times, as a person at the screen would, and once a
/// second writes a line the supervising bench reads (frames drawn and their times, decodes
/// done and failed, whether the strip was moving). Those lines are also the heartbeat: a
/// main loop that stops writing them is hung. Started by the hidden `carousel soak-drive SEED`.
final class SoakDriver: LoopObserver {
    private var mix: SoakMix
    private let start: Double
    private var nextReport: Double
    private var frameTimes: [Double] = []
    private var moving = false
    private var counted: (feed: ObjectIdentifier?, decoded: Int, failed: Int) = (nil, 0, 0)
    private let write: (String) -> Void
    static let reportInterval = 1.0
    /// For the soak's own tests: `hang@SECONDS` stops the main loop for good, `crash@SECONDS`
    /// ends the program with SIGSEGV, so that its watchdog and crash report can be seen.
    private let fault: (kind: Substring, at: Double)? = {
        guard let spec = ProcessInfo.processInfo.environment["CAROUSEL_SOAK_FAULT"] else { return nil }
        let parts = spec.split(separator: "@")
        guard parts.count == 2, let at = Double(parts[1]) else { return nil }
        return (parts[0], at)
    }()

    /// `width` and `height`: the window's size, where the mix starts from.
    init(seed: UInt64, width: Int, height: Int, now: Double, write: @escaping (String) -> Void) {
        mix = SoakMix(seed: seed, width: width, height: height)
        start = now
        nextReport = now + Self.reportInterval
        self.write = write
    }

    /// When the loop must wake next for this driver.
    var nextDue: Double? { min(start + mix.peek().offset, nextReport) }

    /// Queues the steps due by `now`; resizes the window itself (main thread).
    func willSleep(now: Double, window: SDLWindow) {
        if let fault, now - start >= fault.at {
            if fault.kind == "crash" { kill(getpid(), SIGSEGV) }
            while fault.kind == "hang" { sleep(60) }
        }
        for timed in mix.steps(before: now - start + 1e-9) where timed.step.isInput {
            switch timed.step {
            case .pointer(let phase, let x, let y, let finger):
                let p: SyntheticInput.Phase
                switch phase {
                case .down: p = .down
                case .move: p = .move
                case .up, .cancel: p = .up
                }
                SyntheticInput.pointer(p, x: x, y: y, finger: finger, size: window.size)
            case .wheel(let notches): SyntheticInput.wheel(notches)
            case .key(let name): SyntheticInput.key(named: name)
            case .resize(let width, let height): window.setSize(width: width, height: height)
            case .reload, .files: break
            }
        }
    }

    /// A frame took `seconds` from waking to presented; `animating`: the strip was moving.
    func frameDrawn(seconds: Double, animating: Bool) {
        frameTimes.append(seconds)
        if animating { moving = true }
    }

    /// Writes the report line when one is due.
    func passEnded(now: Double, scene: any Scene) {
        guard now >= nextReport else { return }
        let feed = scene.pipeline.feed
        if counted.feed != ObjectIdentifier(feed) { counted = (ObjectIdentifier(feed), 0, 0) }
        let decoded = feed.decoded - counted.decoded, failed = feed.failed - counted.failed
        counted = (counted.feed, feed.decoded, feed.failed)
        let ms = frameTimes.map { String(format: "%.2f", $0 * 1000) }.joined(separator: ",")
        let animating = moving || scene.activity.moving
        write("{\"soak\":\"report\",\"t\":\(String(format: "%.3f", now - start)),\"frames_ms\":[\(ms)],"
              + "\"moving\":\(animating),\"decoded\":\(decoded),\"failed\":\(failed)}\n")
        frameTimes.removeAll(keepingCapacity: true)
        moving = false
        nextReport = max(nextReport + Self.reportInterval, now)
    }
}
