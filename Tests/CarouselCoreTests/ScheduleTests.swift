import Testing
@testable import CarouselCore

@Suite struct ScheduleTests {
    func at(_ day: Int, _ h: Int, _ m: Int) -> Int { Schedule.weekMinute(weekday: day, hour: h, minute: m) }
    let mon = 0, fri = 4, sat = 5, sun = 6

    @Test func weekdaysAndSaturday() throws {
        let s = try Schedule(parsing: "Mon-Fri 08:00-18:00, Sat 10:00-16:00")
        #expect(!s.isOpen(at: at(mon, 7, 59)))
        #expect(s.isOpen(at: at(mon, 8, 0)), "opens on the minute")
        #expect(s.isOpen(at: at(fri, 17, 59)))
        #expect(!s.isOpen(at: at(fri, 18, 0)), "closes on the minute")
        #expect(!s.isOpen(at: at(sat, 9, 59)) && s.isOpen(at: at(sat, 10, 0)) && !s.isOpen(at: at(sat, 16, 0)))
        #expect(!s.isOpen(at: at(sun, 12, 0)))
    }

    @Test func minutesUntilTheNextChange() throws {
        let s = try Schedule(parsing: "Mon-Fri 08:00-18:00, Sat 10:00-16:00")
        #expect(s.minutesUntilChange(from: at(mon, 7, 0)) == 60)
        #expect(s.minutesUntilChange(from: at(mon, 8, 0)) == 600)
        #expect(s.minutesUntilChange(from: at(fri, 18, 0)) == 16 * 60, "Friday evening to Saturday 10:00")
        #expect(s.minutesUntilChange(from: at(sat, 16, 0)) == (8 + 24) * 60 + 8 * 60, "Saturday 16:00 to Monday 08:00")
        #expect(try Schedule(parsing: "Daily 00:00-24:00").minutesUntilChange(from: 0) == nil, "always open")
    }

    @Test func spansPastMidnightAndAcrossTheWeekEnd() throws {
        let s = try Schedule(parsing: "Sun 22:00-02:00, Fri-Mon 12:00-13:00")
        #expect(s.isOpen(at: at(sun, 23, 30)))
        #expect(s.isOpen(at: at(mon, 1, 59)), "Sunday's evening runs into Monday")
        #expect(!s.isOpen(at: at(mon, 2, 0)))
        for d in [fri, sat, sun, mon] { #expect(s.isOpen(at: at(d, 12, 30))) }
        #expect(!s.isOpen(at: at(2, 12, 30)), "not Wednesday")
        #expect(s.isOpen(at: at(mon, 1, 0) + Schedule.minutesPerWeek), "the week repeats")
    }

    @Test func namesAreForgiving() throws {
        let s = try Schedule(parsing: "monday-FRIDAY 09:30-17:00,daily 20:00-21:00")
        #expect(s.isOpen(at: at(2, 9, 30)) && s.isOpen(at: at(sun, 20, 0)))
    }

    @Test(arguments: [
        ("", "no opening hours"),
        ("Mon-Fry 08:00-18:00", "unknown day \"fry\""),
        ("Mon-Fri", "expected days and hours"),
        ("Mon-Fri 8-18", "expected hours like 08:00-18:00"),
        ("Mon 25:00-26:00", "expected hours like"),
        ("Mon-Wed-Fri 08:00-09:00", "two ends"),
    ])
    func mistakesSayWhatIsWrong(text: String, message: String) {
        #expect(throws: Schedule.ParseError.self) { try Schedule(parsing: text) }
        do { _ = try Schedule(parsing: text) } catch { #expect(error.description.contains(message), "\(error.description)") }
    }
}
