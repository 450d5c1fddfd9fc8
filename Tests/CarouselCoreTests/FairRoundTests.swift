import CarouselCore
import Testing

/// `--order fair`'s round (issue 60, point 2), pure: every item once before any repeats;
/// resumed from its kept text at any point; items arriving join ahead, items leaving leave;
/// a broken or hostile kept round is refused with one line.
@Suite struct FairRoundTests {
    static func items(_ n: Int) -> [String] { (0..<n).map { "/photos/\($0).jpg" } }

    /// Walks `round` as autoplay does (rests on each in turn), `steps` times; what it rested on.
    static func walk(_ round: inout FairRound, _ steps: Int, rng: inout SeededRandom) -> [String] {
        var shown: [String] = []
        for _ in 0..<steps {
            if round.isComplete { round.newRound(keeping: [], using: &rng) }
            let index = round.next
            shown.append(round.order[index])
            round.shown(at: index)
        }
        return shown
    }

    @Test func everyItemOnceBeforeAnyRepeatsRoundAfterRound() {
        var rng = SeededRandom(seed: 7)
        let items = Self.items(500)
        var round = FairRound(items: items, using: &rng)
        let shown = Self.walk(&round, 1_500, rng: &rng)
        for r in 0..<3 {
            let pass = shown[(r * 500)..<((r + 1) * 500)]
            #expect(Set(pass) == Set(items) && pass.count == 500, "round \(r + 1): each once")
        }
        #expect(Array(shown[0..<500]) != Array(shown[500..<1000]), "a new order each round")
        #expect(round.round == 3)
    }

    @Test func aKeptRoundResumesAtAnyPointWithNoRepeat() throws {
        var rng = SeededRandom(seed: 11)
        let items = Self.items(60)
        for stop in [0, 1, 29, 59, 60] {
            var round = FairRound(items: items, using: &rng)
            let before = Self.walk(&round, stop, rng: &rng)
            var resumed = try FairRound(parsing: round.text)
            #expect(resumed == round, "read back as it was kept")
            let after = Self.walk(&resumed, 60 - stop, rng: &rng)
            if stop < 60 { #expect(Set(before + after) == Set(items) && (before + after).count == 60, "stopped after \(stop): the rest, none again") }
        }
    }

    @Test func arrivalsJoinAheadAndDeparturesLeave() {
        var rng = SeededRandom(seed: 3)
        var items = Self.items(100)
        var round = FairRound(items: items, using: &rng)
        let shown = Self.walk(&round, 40, rng: &rng)
        // Ten new, five shown ones and five still ahead gone.
        let new = (100..<110).map { "/photos/\($0).jpg" }
        let gone = Set(shown.prefix(5) + round.order[60..<65])
        items = items.filter { !gone.contains($0) } + new
        round.reconcile(with: items, using: &rng)
        #expect(round.next == 35, "the five shown that left no longer count")
        #expect(Set(round.order) == Set(items) && round.order.count == items.count)
        #expect(round.order.prefix(35).allSatisfy { shown.contains($0) }, "what was shown stays behind")
        #expect(Set(round.order.dropFirst(35)).isSuperset(of: new), "the new ones are ahead, in this round")
        let rest = Self.walk(&round, round.order.count - round.next, rng: &rng)
        #expect(Set(shown + rest).isSuperset(of: Set(items)) && Set(rest).isDisjoint(with: Set(shown)), "no repeat before the round ends")
    }

    /// Many arrivals at once (a USB stick of new pictures into a kept round) are spread over
    /// the part still ahead, not bunched at one end, and the ones ahead keep their order.
    @Test func manyArrivalsSpreadOverWhatIsAhead() {
        var rng = SeededRandom(seed: 9)
        var round = FairRound(items: Self.items(20_000), using: &rng)
        _ = Self.walk(&round, 10_000, rng: &rng)
        let ahead = Array(round.order[10_000...])
        let new = (0..<10_000).map { "/stick/\($0).jpg" }
        round.reconcile(with: Self.items(20_000) + new, using: &rng)
        let after = Array(round.order[10_000...])
        #expect(round.next == 10_000 && after.count == 20_000)
        #expect(after.filter { !$0.hasPrefix("/stick/") } == ahead, "the ones ahead keep their order")
        let places = after.indices.filter { after[$0].hasPrefix("/stick/") }.map { Double($0) / Double(after.count - 1) }
        let mean = places.reduce(0, +) / Double(places.count)
        #expect(abs(mean - 0.5) < 0.01, "spread evenly: mean place \(mean)")
        #expect(places.filter { $0 < 0.1 }.count > 800 && places.filter { $0 > 0.9 }.count > 800, "at both ends too")
        #expect(places.count == 10_000 && Set(after.filter { $0.hasPrefix("/stick/") }) == Set(new), "each once")
    }

    @Test func aBrokenOrHostileKeptRoundIsRefusedInOneLine() throws {
        var rng = SeededRandom(seed: 5)
        var round = FairRound(items: Self.items(50), using: &rng)
        _ = Self.walk(&round, 20, rng: &rng)
        let text = round.text
        // Cut short anywhere: read as a shorter round (then `next` must still fit), or refused.
        for cut in stride(from: 0, to: text.utf8.count, by: 7) {
            let part = String(decoding: text.utf8.prefix(cut), as: UTF8.self)
            if let read = try? FairRound(parsing: part) { #expect(read.next <= read.order.count) }
        }
        let hostile = [
            "", "hello\n", FairRoundTests.header + "\nround 0\nnext 0\n", FairRoundTests.header + "\nround 1\nnext 3\na\nb\n",
            FairRoundTests.header + "\nround 1\nnext 0\na\na\n", FairRoundTests.header + "\nround 1\nnext 0\na\u{1}b\n",
            FairRoundTests.header + "\nround 1\nnext -1\na\n", FairRoundTests.header + "\nround 99999999999999999999\nnext 0\n",
            FairRoundTests.header + "\nround 1\nnext 0\n" + String(repeating: "x", count: 5_000) + "\n",
            FairRoundTests.header + "\nround 1\nnext 0\n\n",
        ]
        for text in hostile {
            do {
                _ = try FairRound(parsing: text)
                Issue.record("read: \(text.prefix(80))")
            } catch {
                #expect(!error.reason.isEmpty && !error.reason.contains("\n"))
            }
        }
    }

    /// A kept round's first line, as the program writes it.
    static var header: String {
        var rng = SeededRandom(seed: 1)
        return String(FairRound(items: [], using: &rng).text.split(separator: "\n")[0])
    }
}

/// `--prefer recent:W,season:W` (issue 60, point 2): the rule, and a round of 10,000 drawn
/// by it: every item once, the preferred ones' mean place earlier by what the rule says.
@Suite struct FairPreferenceTests {
    static let today = (year: 2026, month: 12, day: 7)

    @Test func recentAndThisSeasonWeighMoreNothingElseDoes() throws {
        let prefer = try FairPreference(parsing: "recent:2,season:4")
        #expect(prefer.weight(taken: (2026, 3, 1), today: Self.today) == 2, "this year")
        #expect(prefer.weight(taken: (2025, 12, 20), today: Self.today) == 4, "within the year and this season: the larger")
        #expect(prefer.weight(taken: (2019, 12, 1), today: Self.today) == 4, "six days from today's date, seven years ago")
        #expect(prefer.weight(taken: (2019, 11, 10), today: Self.today) == 1, "four weeks off")
        #expect(prefer.weight(taken: (2020, 1, 2), today: (2027, 12, 30)) == 4, "across the new year")
        #expect(prefer.weight(taken: nil, today: Self.today) == 1 && prefer.weight(taken: (2019, 13, 1), today: Self.today) == 1)
        #expect(prefer.weight(taken: (2027, 1, 1), today: Self.today) == 1, "a date to come is not recent")
        for bad in ["recent", "recent:0", "recent:11", "season:x", "recent:2,recent:3", "autumn:2", "", "recent:2,"] {
            #expect(throws: FairPreference.Refusal.self, "\(bad)") { try FairPreference(parsing: bad) }
        }
    }

    /// 10,000 items, 1,000 of weight 3: each once; a preferred one comes before an other
    /// three times in four, so its mean place is (1,000 - 1) / 2 + 9,000 / 4 = 2,749.5 and
    /// the others' (9,000 - 1) / 2 + 1,000 x 3 / 4 = 5,249.5 (1 % of 10,000 either way).
    @Test func aWeightedRoundOfTenThousandShowsEachOnceThePreferredEarlierByTheRule() {
        var rng = SeededRandom(seed: 42)
        let items = (0..<10_000).map { "item-\($0)" }
        let preferred = Set(items.prefix(1_000))
        let weight = { (id: String) in preferred.contains(id) ? 3.0 : 1.0 }
        var means: [(Double, Double)] = []
        var round = FairRound(items: items, weight: weight, using: &rng)
        for _ in 0..<3 {
            #expect(Set(round.order) == Set(items) && round.order.count == items.count, "every item once")
            var sum = (0.0, 0.0)
            for (place, id) in round.order.enumerated() {
                if preferred.contains(id) { sum.0 += Double(place) } else { sum.1 += Double(place) }
            }
            means.append((sum.0 / 1_000, sum.1 / 9_000))
            round.newRound(keeping: [], weight: weight, using: &rng)
        }
        for (a, b) in means {
            #expect(abs(a - 2_749.5) < 100 && abs(b - 5_249.5) < 100, "means \(a), \(b)")
        }
    }
}
