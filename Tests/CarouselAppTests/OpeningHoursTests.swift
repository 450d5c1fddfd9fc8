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
        nonisolated(unsafe) var clock = Self.monday(7, 59, 30)
        var plan = ScreenPlan(hours: OpeningHours(schedule: try Schedule(parsing: "Mon-Fri 08:00-18:00"), wallClock: { clock }),
                              wakeDuration: 20)
        var s = plan.state(now: 100)
        #expect(!s.on && s.nextChange == 130, "opens in 30 s")
        plan.touched(at: 101)
        s = plan.state(now: 102)
        #expect(s.on && s.reason == "touch" && s.nextChange == 121, "the touch's 20 s end before the opening")
        clock = Self.monday(8, 0, 0)
        s = plan.state(now: 130)
        #expect(s.on && s.reason == "hours" && s.nextChange == 130 + 10 * 3600)
        clock = Self.monday(18, 0, 0)
        #expect(!plan.state(now: 40000).on)
    }

    @Test func aCommandHoldsUntilTheHoursNextChangeAndATouchWakesAScreenCommandedOff() throws {
        nonisolated(unsafe) var clock = Self.monday(9, 0, 0)
        var plan = ScreenPlan(hours: OpeningHours(schedule: try Schedule(parsing: "Mon-Fri 08:00-18:00"), wallClock: { clock }),
                              wakeDuration: 20)
        plan.command(on: false, now: 0)
        #expect(plan.state(now: 1) == .init(on: false, reason: "command", nextChange: 1 + 9 * 3600))
        plan.touched(at: 10)
        #expect(plan.state(now: 11) == .init(on: true, reason: "touch", nextChange: 30))
        #expect(plan.state(now: 31).on == false)
        clock = Self.monday(18, 0, 0)
        #expect(plan.state(now: 9 * 3600) == .init(on: false, reason: "hours", nextChange: 9 * 3600 + 14 * 3600),
                "closing time takes over from the command")
        plan.command(on: true, now: 9 * 3600 + 1)
        #expect(plan.state(now: 9 * 3600 + 2).on && plan.state(now: 9 * 3600 + 2).reason == "command")
    }

    /// The wall clock passes the opening between the pass that found the screen closed and
    /// the run loop asking when to wake: it wakes at once, not at tomorrow's closing (the
    /// screen stayed dark all day in one boot proof of three).
    @Test func aChangeThatCameDuringThePassWakesTheLoopAtOnce() throws {
        nonisolated(unsafe) var clock = Self.monday(15, 31, 59)
        let plan = ScreenPlan(hours: OpeningHours(schedule: try Schedule(parsing: "Daily 15:32-15:31"), wallClock: { clock }),
                              wakeDuration: 20)
        #expect(!plan.state(now: 100).on, "closed for the minute 15:31")
        #expect(plan.wake(now: 100, screenOn: false) == 101, "opens in a second")
        clock = Self.monday(15, 32, 0)
        #expect(plan.wake(now: 100.02, screenOn: false) == 100.02, "open now: the loop looks again at once")
        #expect(plan.wake(now: 100.02, screenOn: true) == 100.02 + 1439 * 60, "on and open: until tomorrow's closing")
        clock = Self.monday(15, 31, 0)
        #expect(plan.wake(now: 40, screenOn: true) == 40, "closed now, still on: at once")
    }

    @Test func withoutHoursOnlyACommandTurnsItOff() {
        var plan = ScreenPlan(hours: nil, wakeDuration: 20)
        #expect(plan.state(now: 5) == .init(on: true, reason: "start", nextChange: nil))
        plan.command(on: false, now: 5)
        #expect(plan.state(now: 1e6) == .init(on: false, reason: "command", nextChange: nil))
        plan.command(on: true, now: 1e6)
        #expect(plan.state(now: 1e6 + 1) == .init(on: true, reason: "command", nextChange: nil))
    }
}

extension OpeningHoursTests {
    @Test func withPresenceTheScreenIsOnWhileSomeoneIsThereAndDarkAfterTheTimeout() throws {
        nonisolated(unsafe) var clock = Self.monday(9, 0, 0)
        var plan = ScreenPlan(hours: OpeningHours(schedule: try Schedule(parsing: "Mon-Fri 08:00-18:00"), wallClock: { clock }),
                              wakeDuration: 20)
        plan.presenceTimeout = 60
        // The start counts as someone there.
        #expect(plan.state(now: 10) == .init(on: true, reason: "presence", nextChange: 60))
        #expect(plan.state(now: 60) == .init(on: false, reason: "nobody", nextChange: 60 + 9 * 3600))
        // A motion sensor's pulse: on for the timeout from then.
        plan.presence(true, at: 100)
        plan.presence(false, at: 100)
        #expect(plan.state(now: 101) == .init(on: true, reason: "presence", nextChange: 160))
        // An occupancy sensor: on while occupied, however long, then the timeout.
        plan.presence(true, at: 200)
        #expect(plan.state(now: 5_000) == .init(on: true, reason: "presence", nextChange: 5_000 + 9 * 3600), "until closing")
        plan.presence(false, at: 6_000)
        #expect(plan.state(now: 6_059).on && !plan.state(now: 6_060).on)
        // A touch counts as presence.
        plan.touched(at: 7_000)
        #expect(plan.state(now: 7_059).on && plan.state(now: 7_059).reason == "presence")
        // Outside the hours presence wakes nothing; a touch still does, for the wake duration.
        clock = Self.monday(19, 0, 0)
        plan.presence(true, at: 8_000)
        #expect(plan.state(now: 8_001).on == false && plan.state(now: 8_001).reason == "hours")
        plan.touched(at: 8_002)
        #expect(plan.state(now: 8_003) == .init(on: true, reason: "touch", nextChange: 8_022))
    }

    /// The TV switched off by its own remote (HDMI-CEC) darkens the screen as a command does,
    /// said as the TV's; a touch wakes it and the hours' next change ends it.
    @Test func theTVsOwnStandbyHoldsLikeACommandUntilTheHoursChange() {
        var plan = ScreenPlan(hours: nil, wakeDuration: 30)
        plan.command(on: false, now: 100, reason: "tv")
        #expect(plan.state(now: 101).on == false && plan.state(now: 101).reason == "tv")
        plan.touched(at: 200)
        #expect(plan.state(now: 201) == .init(on: true, reason: "touch", nextChange: 230))
        #expect(plan.state(now: 231).reason == "tv")
        plan.command(on: true, now: 300, reason: "tv")
        #expect(plan.state(now: 301).on && plan.state(now: 301).reason == "tv")
    }
}
