import RealModule

/// `--prefer recent:W,season:W`: which pictures a fair round (`FairRound`) brings earlier,
/// never showing any more often. The rule: a picture taken within the year before today
/// weighs `recent`, one taken within three weeks of today's date in an earlier year weighs
/// `season`, one that is both the larger, every other (and an undated one) 1. A round is drawn
/// by weight (Efraimidis and Spirakis: each picture's key is log(U) / weight for U uniform in
/// (0, 1), the round is the keys from largest down), so a picture of weight w comes before
/// one of weight 1 with probability w / (w + 1): of weight 3, three times in four. Every
/// picture is still in every round once. Pure.
public struct FairPreference: Equatable, Sendable {
    public var recent: Double
    public var season: Double

    /// The weights allowed: 1 (no preference) to 10.
    public static let weights: ClosedRange<Double> = 1...10
    /// Days either side of today's date, in earlier years, that are this season.
    public static let seasonDays = 21

    public init(recent: Double = 1, season: Double = 1) {
        self.recent = recent
        self.season = season
    }

    /// `recent:W,season:W` (either, or both); nil with what is wrong, in a phrase.
    public init(parsing text: String) throws(Refusal) {
        self.init()
        var given: Set<Substring> = []
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            let pair = part.split(separator: ":", omittingEmptySubsequences: false)
            guard pair.count == 2, let w = Double(pair[1]), Self.weights.contains(w) else {
                throw Refusal("'\(part)' is not KIND:W with W from 1 to 10")
            }
            guard given.insert(pair[0]).inserted else { throw Refusal("'\(pair[0])' is given twice") }
            switch pair[0] {
            case "recent": recent = w
            case "season": season = w
            default: throw Refusal("'\(pair[0])' is not recent or season")
            }
        }
    }

    public struct Refusal: Error, Equatable, Sendable {
        public var reason: String
        init(_ reason: String) { self.reason = reason }
    }

    /// A day, counted from 1970-01-01 (proleptic Gregorian), for `year`, `month`, `day`.
    public static func dayNumber(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The weight of a picture taken on `taken` (year, month, day; nil: not known), today being `today`.
    public func weight(taken: (year: Int, month: Int, day: Int)?, today: (year: Int, month: Int, day: Int)) -> Double {
        guard let taken, (1...12).contains(taken.month), (1...31).contains(taken.day) else { return 1 }
        let now = Self.dayNumber(year: today.year, month: today.month, day: today.day)
        let then = Self.dayNumber(year: taken.year, month: taken.month, day: taken.day)
        var w = 1.0
        if (0...365).contains(now - then) { w = max(w, recent) }
        if taken.year < today.year {
            // Today's date in the year it was taken, and the years either side (late December
            // is near early January).
            let near = (-1...1).map { abs(then - Self.dayNumber(year: taken.year + $0, month: today.month, day: min(today.day, 28))) }
            if near.contains(where: { $0 <= Self.seasonDays }) { w = max(w, season) }
        }
        return w
    }

    /// `items` in a round drawn by `weight` (the larger first, on average; see above).
    public static func draw(_ items: [String], weight: (String) -> Double, using rng: inout some RandomNumberGenerator) -> [String] {
        items.map { id -> (String, Double) in
            let u = Double.random(in: Double.leastNonzeroMagnitude..<1, using: &rng)
            return (id, Double.log(u) / max(1e-9, weight(id)))
        }.sorted { $0.1 > $1.1 }.map(\.0)
    }
}
