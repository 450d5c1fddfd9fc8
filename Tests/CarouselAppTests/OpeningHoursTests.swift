import CarouselCore
import Foundation
import Testing
@testable import CarouselApp

@Suite struct OpeningHoursTests {
    /// A local wall-clock time on the Monday of a fixed week.
    static func monday(_ hour: Int, _ minute: Int, _ second: Int) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .current
        return calendar.date(from: DateComponents(year: 2026, month: 11, day: 23, hour: hour, minute: minute, second: second))!
    }

    @Test func theWallClockSaysWhereInTheWeekItIs() {
        #expect(OpeningHours.weekMinute(Self.monday(0, 0, 0)).0 == 0, "2026-11-23 is a Monday")
        let (m, s) = OpeningHours.weekMinute(Self.monday(7, 59, 30))
        #expect(m == 7 * 60 + 59 && s == 30)
    }

    @Test func closedUntilOpeningThenATouchKeepsItOnAWhile() throws {
        var clock = Self.monday(7, 59, 30)
        var hours = OpeningHours(schedule: try Schedule(parsing: "Mon-Fri 08:00-18:00"), wakeDuration: 20,
                                 wallClock: { clock })
        var s = hours.state(now: 100)
        #expect(!s.on && s.nextChange == 130, "opens in 30 s")
        hours.touched(at: 101)
        s = hours.state(now: 102)
        #expect(s.on && s.byTouch && s.nextChange == 121, "the touch's 20 s end before the opening")
        clock = Self.monday(8, 0, 0)
        s = hours.state(now: 130)
        #expect(s.on && !s.byTouch && s.nextChange == 130 + 10 * 3600)
        clock = Self.monday(18, 0, 0)
        #expect(!hours.state(now: 40000).on)
    }
}
