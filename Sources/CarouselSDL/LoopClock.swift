import CLinux

/// The program's one clock: seconds on CLOCK_MONOTONIC since the program first read it.
/// The run loop reads it once a pass and hands that time to everything the pass does (the
/// engine, frame records, the control API, MQTT); the input devices' event times are on
/// CLOCK_MONOTONIC already, and SDL's own event times (its ticks) are brought onto it by
/// `EventQueue`. Counted from the program's start, not from boot, so the engine's times
/// stay small numbers as they always were. Tests hand the loop a clock of their own.
public struct LoopClock: Sendable {
    private let read: @Sendable () -> Double

    public init(_ read: @escaping @Sendable () -> Double) { self.read = read }

    /// The time now, seconds.
    public func now() -> Double { read() }

    /// CLOCK_MONOTONIC, counted from the first reading in this process.
    public static let system = LoopClock { kc_monotonic_seconds() - origin }

    /// The program's start on CLOCK_MONOTONIC (read when first needed).
    static let origin = kc_monotonic_seconds()

    /// A time read on CLOCK_MONOTONIC (an input device's event) on `system`'s scale.
    static func fromMonotonic(_ t: Double) -> Double { t - origin }
}
