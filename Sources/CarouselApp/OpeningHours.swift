import CarouselCore
import Foundation
import CarouselClock

/// `--schedule` against the wall clock, in the machine's time zone: whether it is open,
/// and when that changes next (`ScreenPlan` adds touches and commands).
struct OpeningHours {
    let schedule: Schedule
    /// The wall clock; tests give their own.
    let wallClock: () -> Date

    init(schedule: Schedule, wallClock: @escaping () -> Date = { SystemClock.date }) {
        self.schedule = schedule
        self.wallClock = wallClock
    }

    /// Whether it is open at monotonic time `now`, and the monotonic time of the next
    /// change (nil: none coming).
    func state(now: Double) -> (on: Bool, nextChange: Double?) {
        let (minute, secondsIntoMinute) = Self.weekMinute(wallClock())
        let next = schedule.minutesUntilChange(from: minute).map { now + Double($0 * 60) - secondsIntoMinute }
        return (schedule.isOpen(at: minute), next)
    }

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
