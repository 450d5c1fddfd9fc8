/// `--order fair`: every item once before any repeats. A round is the items in a shuffled
/// order; the show walks it, and when every item has been shown a new round is drawn. Items
/// that arrive join the round at a random place still ahead (they are shown in it, not
/// skipped to the next); items that leave leave it. The round and how far the show has come
/// are kept as text (`text`, `init(parsing:)`), so a restart, a reload or a power cut goes
/// on with the same round. Pure: the caller brings the random numbers and keeps the file.
public struct FairRound: Equatable, Sendable {
    /// The round's items (their identities, each once), in the order they are shown.
    public private(set) var order: [String]
    /// How many of `order` the show has come past: `order[next]` is the next to show.
    public private(set) var next: Int
    /// Rounds drawn so far (1 for the first).
    public private(set) var round: Int

    /// The most items a kept round may hold, and the longest identity: beyond, it is not one.
    public static let maxItems = 200_000
    public static let maxIdentity = 4_096

    /// A first round of `items` (each once, in a random order; drawn by `weight` when given,
    /// `FairPreference`).
    public init(items: [String], weight: ((String) -> Double)? = nil, using rng: inout some RandomNumberGenerator) {
        order = weight.map { FairPreference.draw(Self.once(items), weight: $0, using: &rng) } ?? Self.once(items).shuffled(using: &rng)
        next = 0
        round = 1
    }

    init(order: [String], next: Int, round: Int) {
        self.order = order
        self.next = next
        self.round = round
    }

    /// Whether every item of the round has been shown.
    public var isComplete: Bool { next >= order.count }

    /// The items as they are now: those gone leave the round (if shown, they no longer count
    /// as shown); those new join at a random place among the ones still ahead, or at its end.
    public mutating func reconcile(with items: [String], using rng: inout some RandomNumberGenerator) {
        let now = Set(items)
        var kept: [String] = []
        var shown = 0
        for (i, id) in order.enumerated() where now.contains(id) {
            kept.append(id)
            if i < next { shown += 1 }
        }
        next = shown
        let known = Set(kept)
        let arriving = Self.once(items).filter { !known.contains($0) }.shuffled(using: &rng)
        guard !arriving.isEmpty else {
            order = kept
            return
        }
        // Each arriving item at a random place among those still ahead: the new ones in a
        // random order, interleaved with the ones ahead (kept in theirs) uniformly, as one
        // random insertion after another would, but in one pass (a USB stick of 50,000 new
        // pictures into a kept round of 50,000 was 50,000 insertions of 16 bytes × 50,000).
        var merged = Array(kept[..<shown])
        merged.reserveCapacity(kept.count + arriving.count)
        var (ahead, new) = (shown, 0)
        while ahead < kept.count || new < arriving.count {
            let (leftAhead, leftNew) = (kept.count - ahead, arriving.count - new)
            if leftNew > 0, leftAhead == 0 || Int.random(in: 0..<(leftAhead + leftNew), using: &rng) < leftNew {
                merged.append(arriving[new])
                new += 1
            } else {
                merged.append(kept[ahead])
                ahead += 1
            }
        }
        order = merged
    }

    /// The show rested on `order[index]`: the ones before it count as shown (a visitor going
    /// back lowers it; autoplay only ever moves it on by one).
    public mutating func shown(at index: Int) {
        guard order.indices.contains(index) else { return }
        next = index + 1
    }

    /// A new round: the same items shuffled again (drawn by `weight` when given), those at
    /// `keeping` (on screen) where they are; none counts as shown yet.
    public mutating func newRound(keeping: Set<Int>, weight: ((String) -> Double)? = nil, using rng: inout some RandomNumberGenerator) {
        let free = order.indices.filter { !keeping.contains($0) }
        let items = free.map { order[$0] }
        let shuffled = weight.map { FairPreference.draw(items, weight: $0, using: &rng) } ?? items.shuffled(using: &rng)
        for (i, id) in zip(free, shuffled) { order[i] = id }
        next = 0
        round += 1
    }

    /// The first line of a kept round.
    static let header = "# kiosk-carousel fair round 1 (written by the program; a broken one starts a new round)"

    /// The round as it is kept: the header, `round N`, `next N`, then one identity a line.
    public var text: String {
        ([Self.header, "round \(round)", "next \(next)"] + order).joined(separator: "\n") + "\n"
    }

    /// A kept round read back; one line saying what is wrong when it is not one (another
    /// file, cut short, edited, hostile): the caller starts a new round then.
    public init(parsing text: String) throws(Refusal) {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        if lines.last == "" { lines.removeLast() }
        guard lines.first.map(String.init) == Self.header else { throw Refusal("its first line is not a kept round's") }
        guard lines.count >= 3, let round = Self.number(lines[1], "round"), round >= 1 else { throw Refusal("line 2 is not 'round N'") }
        guard let next = Self.number(lines[2], "next") else { throw Refusal("line 3 is not 'next N'") }
        let items = lines.dropFirst(3)
        guard items.count <= Self.maxItems else { throw Refusal("it lists more than \(Self.maxItems) items") }
        var order: [String] = []
        var seen: Set<Substring> = []
        for (n, line) in zip(4..., items) {
            guard !line.isEmpty, line.utf8.count <= Self.maxIdentity,
                  !line.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
                throw Refusal("line \(n) is not an item (empty, too long or a control character)")
            }
            guard seen.insert(line).inserted else { throw Refusal("line \(n) lists an item twice") }
            order.append(String(line))
        }
        guard next <= order.count else { throw Refusal("'next \(next)' is past its \(order.count) items") }
        self.init(order: order, next: next, round: round)
    }

    /// Why a kept round cannot be read, in one line.
    public struct Refusal: Error, Equatable, Sendable {
        public var reason: String
        init(_ reason: String) { self.reason = reason }
    }

    /// `name N` with N a whole number up to a billion.
    private static func number(_ line: Substring, _ name: String) -> Int? {
        guard line.hasPrefix(name + " "), let n = Int(line.dropFirst(name.count + 1)), (0...1_000_000_000).contains(n) else { return nil }
        return n
    }

    /// `items` each once, first place kept.
    private static func once(_ items: [String]) -> [String] {
        var seen: Set<String> = []
        return items.filter { seen.insert($0).inserted }
    }
}
