/// Opening hours, such as `Mon-Fri 08:00-18:00, Sat 10:00-16:00`: outside them the screen
/// is black and the program sleeps. Works on a week of minutes, so the wall clock (and its
/// time zone) stays outside: whoever asks says which minute of the week it is.
public struct Schedule: Hashable, Sendable {
    /// Minute of the week: 0 is Monday 00:00, 10079 is Sunday 23:59.
    public typealias WeekMinute = Int
    public static let minutesPerWeek = 7 * 24 * 60

    /// Open spans in week minutes, start inclusive, end exclusive; an end past the week's
    /// end (Sunday 22:00-02:00) wraps into Monday.
    public private(set) var spans: [Range<Int>] = []

    public static let dayNames = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]

    public struct ParseError: Error, CustomStringConvertible, Equatable {
        public var description: String
    }

    /// Parses comma-separated entries `DAYS HH:MM-HH:MM`, DAYS being a day (`Sat`), a
    /// range (`Mon-Fri`, `Fri-Mon`) or `Daily`. An end at or before the start runs past
    /// midnight (`Fri 20:00-02:00`); `24:00` is the end of the day.
    public init(parsing text: String) throws(ParseError) {
        let entries = text.split(separator: ",").map { String($0) }
        guard !entries.isEmpty else { throw ParseError(description: "no opening hours given (e.g. \"Mon-Fri 08:00-18:00\")") }
        for entry in entries {
            let words = entry.split(separator: " ").map(String.init)
            guard words.count == 2 else {
                throw ParseError(description: "\"\(Self.trim(entry))\": expected days and hours, like \"Mon-Fri 08:00-18:00\"")
            }
            let days = try Self.days(words[0], entry: entry)
            let hours = words[1].split(separator: "-", omittingEmptySubsequences: false).map(String.init)
            guard hours.count == 2, let from = Self.minute(hours[0]), let to = Self.minute(hours[1]) else {
                throw ParseError(description: "\"\(Self.trim(entry))\": expected hours like 08:00-18:00, not \"\(words[1])\"")
            }
            guard from < 24 * 60 else { throw ParseError(description: "\"\(Self.trim(entry))\": an opening time must be before 24:00") }
            let length = to > from ? to - from : to + 24 * 60 - from
            for d in days {
                let start = d * 24 * 60 + from
                spans.append(start..<(start + length))
            }
        }
    }

    /// Whether the screen is on at week minute `m`.
    public func isOpen(at m: WeekMinute) -> Bool {
        let m = ((m % Self.minutesPerWeek) + Self.minutesPerWeek) % Self.minutesPerWeek
        return spans.contains { $0.contains(m) || $0.contains(m + Self.minutesPerWeek) }
    }

    /// Minutes from `m` until the state changes (open to closed or back); nil if it never
    /// does (open around the clock).
    public func minutesUntilChange(from m: WeekMinute) -> Int? {
        let now = isOpen(at: m)
        for step in 1...Self.minutesPerWeek where isOpen(at: m + step) != now { return step }
        return nil
    }

    /// The week minute of a weekday (0 = Monday) and a time of day.
    public static func weekMinute(weekday: Int, hour: Int, minute: Int) -> WeekMinute {
        weekday * 24 * 60 + hour * 60 + minute
    }

    private static func days(_ word: String, entry: String) throws(ParseError) -> [Int] {
        let lower = word.lowercased()
        if lower == "daily" || lower == "every-day" { return Array(0..<7) }
        let ends = lower.split(separator: "-", omittingEmptySubsequences: false).map(String.init)
        var indices: [Int] = []
        for name in ends {
            guard let i = dayNames.indices.first(where: { dayNames[$0] == name || fullNames[$0] == name }) else {
                throw ParseError(description: "\"\(trim(entry))\": unknown day \"\(name)\" (expected Mon, Tue, Wed, Thu, Fri, Sat, Sun or Daily)")
            }
            indices.append(i)
        }
        guard indices.count <= 2 else { throw ParseError(description: "\"\(trim(entry))\": a day range has two ends, like Mon-Fri") }
        guard indices.count == 2 else { return indices }
        // Mon-Fri, or across the weekend: Fri-Mon.
        var d = indices[0], result = [d]
        while d != indices[1] { d = (d + 1) % 7; result.append(d) }
        return result
    }

    private static let fullNames = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]

    /// `08:00` → 480; `24:00` → 1440; nil for anything else.
    private static func minute(_ text: String) -> Int? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count <= 2, parts[1].count == 2,
              let h = Int(parts[0]), let m = Int(parts[1]), (0...24).contains(h), (0..<60).contains(m),
              h < 24 || m == 0 else { return nil }
        return h * 60 + m
    }

    private static func trim(_ s: String) -> String {
        String(s.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}
