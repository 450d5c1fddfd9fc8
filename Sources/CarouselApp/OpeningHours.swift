import CarouselCore
import Foundation

/// `--schedule` against the wall clock, in the machine's time zone: whether the screen is
/// on, and when that may change next. A touch outside the hours keeps it on for
/// `wakeDuration` seconds after the last input.
struct OpeningHours {
    let schedule: Schedule
    /// Seconds a touch keeps the screen on outside the hours (`--idle-resume`).
    let wakeDuration: Double
    /// The wall clock; tests give their own.
    let wallClock: () -> Date
    /// Monotonic time until which a touch keeps the screen on.
    private(set) var wokenUntil: Double?

    init(schedule: Schedule, wakeDuration: Double, wallClock: @escaping () -> Date = { Date() }) {
        self.schedule = schedule
        self.wakeDuration = wakeDuration
        self.wallClock = wallClock
    }

    /// Whether the screen is on at monotonic time `now`, whether only because of a touch,
    /// and the monotonic time of the next possible change (nil: none coming).
    func state(now: Double) -> (on: Bool, byTouch: Bool, nextChange: Double?) {
        let (minute, secondsIntoMinute) = Self.weekMinute(wallClock())
        let open = schedule.isOpen(at: minute)
        let woken = wokenUntil.map { now < $0 } ?? false
        var next = schedule.minutesUntilChange(from: minute).map { now + Double($0 * 60) - secondsIntoMinute }
        if woken && !open, let until = wokenUntil { next = min(next ?? until, until) }
        return (open || woken, woken && !open, next)
    }

    /// Someone touched the screen at `now`.
    mutating func touched(at now: Double) { wokenUntil = now + wakeDuration }

    /// The week minute (0 = Monday 00:00) of `date` in the local time zone, and the seconds
    /// already gone in that minute.
    static func weekMinute(_ date: Date) -> (Schedule.WeekMinute, Double) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .current
        let c = calendar.dateComponents([.weekday, .hour, .minute, .second, .nanosecond], from: date)
        let weekday = ((c.weekday ?? 2) + 5) % 7  // Calendar: 1 is Sunday
        let seconds = Double(c.second ?? 0) + Double(c.nanosecond ?? 0) / 1e9
        return (Schedule.weekMinute(weekday: weekday, hour: c.hour ?? 0, minute: c.minute ?? 0), seconds)
    }
}
