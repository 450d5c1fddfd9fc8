import CarouselCore
import CLinux
import Foundation

/// The host's clocks, read here and nowhere else in Sources/ (`ClockReadsTests` greps for
/// any other reading): the monotonic clock that deadlines, pacing and the show run on, the
/// wall clock that days, schedules and a group's shared instants are told by, and the CPU
/// time a process has used. Every other target is handed what it needs from here: the run
/// loop its `LoopClock`, a part that keeps its own time a function or a reading.
public enum SystemClock {
    /// Seconds on CLOCK_MONOTONIC, since boot: deadlines a change of the wall clock cannot
    /// move, and the clock evdev stamps events with (`kc_evdev_monotonic`). The same in every
    /// process of the program, so a helper and the loop compare readings.
    public static var monotonic: Double { kc_monotonic_seconds() }

    /// Seconds on CLOCK_MONOTONIC_RAW (not slewed by NTP): the clock SDL's ticks count on.
    public static var monotonicRaw: Double { kc_monotonic_raw_seconds() }

    /// Seconds since 1970 on the host's wall clock (a group's screens go by `WallClock`).
    public static var wall: Double { Date().timeIntervalSince1970 }

    /// The wall clock as a `Date` (calendar days, strftime).
    public static var date: Date { Date() }

    /// The wall-clock `Date` `seconds` from now: for waits that take a `Date` (`NSCondition`).
    public static func deadline(after seconds: Double) -> Date { Date(timeIntervalSinceNow: seconds) }

    /// CPU time this process has used, user and system, in seconds.
    public static var processCPU: Double {
        var t = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }
}

extension LoopClock {
    /// CLOCK_MONOTONIC, counted from the first reading in this process.
    public static let system = LoopClock { SystemClock.monotonic - origin }

    /// The program's start on CLOCK_MONOTONIC (read when first needed).
    static let origin = SystemClock.monotonic

    /// A time read on CLOCK_MONOTONIC (an input device's event) on `system`'s scale.
    public static func fromMonotonic(_ t: Double) -> Double { t - origin }
}
