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
/// translated; a still finger's lift read late behind a frame dated back (`LiftDating`).
/// Main thread.
struct SDLLoopEvents: LoopEvents {
    private var translator = SDLInputTranslator { Log.info($0) }
    private var dating = LiftDating()
    let clock: LoopClock

    /// A wait that returned within this (seconds) found its event already queued.
    static let atOnce = 0.002

    init(clock: LoopClock) { self.clock = clock }

    mutating func wait(until deadline: Double?, geometry: InputGeometry) -> [WindowInput]? {
        let start = clock.now()
        let event = deadline.map { EventQueue.wait(until: $0, on: clock) } ?? EventQueue.wait()
        return read(event, queued: clock.now() - start < Self.atOnce, geometry: geometry)
    }

    mutating func poll(geometry: InputGeometry) -> [WindowInput]? {
        read(EventQueue.poll(), queued: true, geometry: geometry)
    }

    private mutating func read(_ event: SDLEvent?, queued: Bool, geometry: InputGeometry) -> [WindowInput]? {
        guard let event else {
            dating.readEnded(at: clock.now())
            return nil
        }
        let inputs = translator.translate(event, geometry: geometry)
        return event.timedByDevice ? inputs : dating.dated(inputs, queued: queued)
    }
}
