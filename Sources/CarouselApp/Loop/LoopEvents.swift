import CarouselCore
import CarouselSDL

/// Where the run loop's events come from, each as what it means in the window: SDL's queue
/// (and the input devices' reader) in the program, a script in tests.
protocol LoopEvents {
    /// Waits for the next event until `deadline` on the loop's clock (nil: for as long as it
    /// takes); nil when none came.
    mutating func wait(until deadline: Double?, geometry: InputGeometry) -> [WindowInput]?
    /// The next event already queued, without waiting; nil when none is.
    mutating func poll(geometry: InputGeometry) -> [WindowInput]?
}

/// The program's events: `EventQueue` (SDL's queue, or the devices' reader on KMS/DRM),
/// translated. Main thread.
struct SDLLoopEvents: LoopEvents {
    private var translator = SDLInputTranslator { Log.info($0) }
    let clock: LoopClock

    init(clock: LoopClock) { self.clock = clock }

    mutating func wait(until deadline: Double?, geometry: InputGeometry) -> [WindowInput]? {
        let event = deadline.map { EventQueue.wait(until: $0, on: clock) } ?? EventQueue.wait()
        return event.map { translator.translate($0, geometry: geometry) }
    }

    mutating func poll(geometry: InputGeometry) -> [WindowInput]? {
        EventQueue.poll().map { translator.translate($0, geometry: geometry) }
    }
}
