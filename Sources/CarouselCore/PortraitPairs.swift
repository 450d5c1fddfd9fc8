/// `--pair-portraits`: which pictures of a show go together as one item. On a landscape
/// screen a portrait picture leaves two black bars; shown beside another portrait it fills
/// the screen (on a portrait screen, two landscape pictures one above the other).
///
/// Pure: the pictures' shapes and dates in, the show's items out. Walking the show in
/// order, a picture that pairs takes as its partner one of the next `candidates` pictures
/// that pair and are still free (looking at most `reach` items ahead): one taken the same
/// day first (the nearest in time), else the nearest in time, else the next in order. The
/// partner moves up beside it; every other picture keeps its place in the show's order.
public enum PortraitPairs {
    /// How many free pictures that pair are weighed as a partner.
    public static let candidates = 8
    /// How far ahead a partner is looked for, in items.
    public static let reach = 48

    /// The screen's shape, which decides what pairs.
    public enum Screen: Sendable, Equatable {
        case landscape, portrait

        /// A square screen counts as landscape.
        public init(_ viewport: Size) {
            self = viewport.height > viewport.width ? .portrait : .landscape
        }

        /// Whether a picture of `aspect` (height / width, upright) goes with a partner here.
        public func pairs(_ aspect: Double) -> Bool {
            guard aspect.isFinite, aspect > 0 else { return false }
            return self == .landscape ? aspect > 1 : aspect < 1
        }
    }

    /// What pairing knows of one picture of the show.
    public struct Picture: Sendable, Equatable {
        /// Height / width, upright; nil: unknown (a clip, an unreadable header, a web picture
        /// not listed with its size): it stays on its own.
        public var aspect: Double?
        /// When it was taken, as seconds of its own wall clock (`Picture.seconds`); nil: unknown.
        public var taken: Double?

        public init(aspect: Double?, taken: Double? = nil) {
            self.aspect = aspect
            self.taken = taken
        }

        /// Seconds from 1970-01-01 00:00 of a wall-clock time (no zone: a day is the day
        /// where it was taken).
        public static func seconds(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0) -> Double {
            // Days from the civil date (H. Hinnant's algorithm).
            let y = month <= 2 ? year - 1 : year
            let era = (y >= 0 ? y : y - 399) / 400
            let yearOfEra = y - era * 400
            let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
            let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
            let days = era * 146_097 + dayOfEra - 719_468
            return Double(days * 86_400 + hour * 3_600 + minute * 60 + second)
        }
    }

    /// The show's items, in order: each one picture's index or two (the second its partner).
    public static func items(_ pictures: [Picture], screen: Screen) -> [[Int]] {
        var taken = [Bool](repeating: false, count: pictures.count)
        var items: [[Int]] = []
        items.reserveCapacity(pictures.count)
        func pairs(_ i: Int) -> Bool { pictures[i].aspect.map(screen.pairs) ?? false }
        for i in pictures.indices where !taken[i] {
            taken[i] = true
            guard pairs(i) else {
                items.append([i])
                continue
            }
            var free: [Int] = []
            var j = i + 1
            while j < pictures.count, j <= i + reach, free.count < candidates {
                if !taken[j], pairs(j) { free.append(j) }
                j += 1
            }
            guard let partner = choose(for: i, among: free, in: pictures) else {
                items.append([i])
                continue
            }
            taken[partner] = true
            items.append([i, partner])
        }
        return items
    }

    /// Same day first (the nearest in time), else the nearest in time, else the first.
    private static func choose(for i: Int, among free: [Int], in pictures: [Picture]) -> Int? {
        guard let first = free.first else { return nil }
        guard let t = pictures[i].taken else { return first }
        let dated = free.compactMap { j in pictures[j].taken.map { (j, abs($0 - t), day(of: $0) == day(of: t)) } }
        // `min` keeps the first of equals: the earlier in the show.
        if let sameDay = dated.filter(\.2).min(by: { $0.1 < $1.1 }) { return sameDay.0 }
        return dated.min(by: { $0.1 < $1.1 })?.0 ?? first
    }

    private static func day(of seconds: Double) -> Int { Int((seconds / 86_400).rounded(.down)) }

    /// Height / width of a pair's pictures shown at one height (side by side) or one width
    /// (one above the other), the gap between them left out: a wall's tile for the pair.
    public static func aspect(ofPair aspects: [Double]) -> Double? {
        guard aspects.count == 2, aspects.allSatisfy({ $0.isFinite && $0 > 0 }) else { return nil }
        let stacked = aspects.allSatisfy { $0 < 1 }
        return stacked ? aspects[0] + aspects[1] : 1 / (1 / aspects[0] + 1 / aspects[1])
    }
}
