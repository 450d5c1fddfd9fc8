/// The program's one clock of the show: seconds, counted from the program's start. The run
/// loop reads it once a pass and hands that time to everything the pass does (the engine,
/// frame records, the control API, MQTT); the input devices' event times and SDL's are
/// brought onto it. The engine never reads it: time comes in as a value. `LoopClock.system`
/// (CarouselClock, the one place the host's clocks are read) is CLOCK_MONOTONIC since the
/// program first read it; a test hands the loop a clock of its own.
public struct LoopClock: Sendable {
    private let read: @Sendable () -> Double

    public init(_ read: @escaping @Sendable () -> Double) { self.read = read }

    /// The time now, seconds.
    public func now() -> Double { read() }
}
