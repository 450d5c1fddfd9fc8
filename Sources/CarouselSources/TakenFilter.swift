import CarouselMedia
import Foundation
import CarouselClock

/// `--taken FROM..TO` and `--on-this-day`: which pictures of folders and manifests stay in
/// the show by when they were taken (`PhotoDate`). A picture whose file says no date stays
/// out of either. Days are the wall days the pictures were taken on.
public struct TakenFilter: Sendable, Equatable {
    /// A day, `YYYY-MM-DD`; in `--taken` a year or a month stands for its first or last day.
    public struct Day: Sendable, Hashable, Comparable {
        public var year: Int, month: Int, day: Int
        public init(year: Int, month: Int, day: Int) { (self.year, self.month, self.day) = (year, month, day) }
        var ordinal: Int { (year * 13 + month) * 32 + day }
        public static func < (a: Day, b: Day) -> Bool { a.ordinal < b.ordinal }

        /// The local day now.
        public static func today() -> Day {
            var seconds = time_t(SystemClock.wall.rounded(.down)), parts = tm()
            localtime_r(&seconds, &parts)
            return Day(year: Int(parts.tm_year) + 1900, month: Int(parts.tm_mon) + 1, day: Int(parts.tm_mday))
        }

        /// Seconds from `now` (seconds since 1970) to the next local midnight.
        public static func secondsToMidnight(from now: Double) -> Double {
            var seconds = time_t(now.rounded(.down)), parts = tm()
            localtime_r(&seconds, &parts)
            let into = Double(parts.tm_hour) * 3600 + Double(parts.tm_min) * 60 + Double(parts.tm_sec) + (now - now.rounded(.down))
            return max(1, 86_400 - into)
        }
    }

    /// The first and last days kept, either open.
    public var from: Day?
    public var to: Day?
    /// Only pictures taken on today's month and day in an earlier year.
    public var onThisDay = false

    public init(from: Day? = nil, to: Day? = nil, onThisDay: Bool = false) {
        (self.from, self.to, self.onThisDay) = (from, to, onThisDay)
    }

    public struct ParseError: Error, CustomStringConvertible { public var description: String }

    /// `--taken`'s value: `FROM..TO`, each `YYYY`, `YYYY-MM` or `YYYY-MM-DD`, either left out
    /// for an open end (`2019..`, `..2015-06`, `2024-07-01..2024-07-31`); or one of them
    /// alone for that year, month or day (`2019`, `2024-07`).
    public init(parsingRange text: String) throws(ParseError) {
        var parts = text.components(separatedBy: "..")
        if parts.count == 1, !text.isEmpty { parts = [text, text] }
        guard parts.count == 2, !(parts[0].isEmpty && parts[1].isEmpty) else {
            throw ParseError(description: "expected FROM..TO, each YYYY, YYYY-MM or YYYY-MM-DD (one of them may be left out), or one of them alone")
        }
        func day(_ s: String, last: Bool) throws(ParseError) -> Day? {
            guard !s.isEmpty else { return nil }
            let n = s.split(separator: "-", omittingEmptySubsequences: false).map { Int($0) }
            guard (1...3).contains(n.count), n.allSatisfy({ $0 != nil }), let year = n[0], (1800...9999).contains(year),
                  n.count < 2 || (1...12).contains(n[1]!), n.count < 3 || (1...Self.days(inMonth: n[1]!, of: year)).contains(n[2]!) else {
                throw ParseError(description: "'\(s)' is not a day (YYYY, YYYY-MM or YYYY-MM-DD)")
            }
            let month = n.count >= 2 ? n[1]! : (last ? 12 : 1)
            return Day(year: year, month: month, day: n.count == 3 ? n[2]! : (last ? Self.days(inMonth: month, of: year) : 1))
        }
        let from = try day(parts[0], last: false), to = try day(parts[1], last: true)
        if let from, let to, to < from { throw ParseError(description: "it ends before it begins") }
        self.init(from: from, to: to)
    }

    static func days(inMonth month: Int, of year: Int) -> Int {
        switch month {
        case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Whether a picture taken at `date` stays, `today` being the local day now.
    public func admits(_ date: PhotoDate?, today: Day) -> Bool {
        guard let date else { return false }
        let taken = Day(year: date.year, month: date.month, day: date.day)
        if let from, taken < from { return false }
        if let to, to < taken { return false }
        if onThisDay {
            guard taken.year < today.year else { return false }
            // The 29th of February's pictures come back on the 28th in the years without one.
            let leapDayToday = today.month == 2 && today.day == 28 && Self.days(inMonth: 2, of: today.year) == 28
            guard taken.month == today.month, taken.day == today.day || (leapDayToday && taken.day == 29) else { return false }
        }
        return true
    }
}
