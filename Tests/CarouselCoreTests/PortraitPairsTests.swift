import CarouselCore
import Testing

/// `--pair-portraits`: which pictures go together, and where each goes in the picture made
/// of the two.
@Suite struct PortraitPairsTests {
    typealias P = PortraitPairs.Picture
    static let portrait = 1.5, landscape = 2.0 / 3

    static func day(_ d: Int, _ h: Int = 12) -> Double { P.seconds(year: 2024, month: 5, day: d, hour: h) }

    @Test func portraitsPairInOrderAndEverythingElseKeepsItsPlace() {
        let show = [P(aspect: Self.portrait), P(aspect: Self.landscape), P(aspect: Self.portrait), P(aspect: nil),
                    P(aspect: Self.portrait), P(aspect: 1), P(aspect: Self.portrait)]
        #expect(PortraitPairs.items(show, screen: .landscape) == [[0, 2], [1], [3], [4, 6], [5]])
    }

    @Test func aPartnerTakenTheSameDayComesFirstThenTheNearestInTime() {
        let show = [P(aspect: Self.portrait, taken: Self.day(1, 10)), P(aspect: Self.portrait, taken: Self.day(2)),
                    P(aspect: Self.portrait, taken: Self.day(1, 18)), P(aspect: Self.portrait, taken: Self.day(9)),
                    P(aspect: Self.portrait, taken: Self.day(3))]
        // 0 takes 2 (same day) over 1 (next in order); 1 then takes 4 (a day away) over 3 (a week).
        #expect(PortraitPairs.items(show, screen: .landscape) == [[0, 2], [1, 4], [3]])
        // The same day even when another day's picture is nearer: 01:00 takes 22:00 of its
        // day over 23:00 of the day before.
        let night = [P(aspect: Self.portrait, taken: Self.day(2, 1)), P(aspect: Self.portrait, taken: Self.day(1, 23)),
                     P(aspect: Self.portrait, taken: Self.day(2, 22))]
        #expect(PortraitPairs.items(night, screen: .landscape) == [[0, 2], [1]])
        // Undated: the next in order.
        let undated = [P(aspect: Self.portrait), P(aspect: Self.portrait, taken: Self.day(1)), P(aspect: Self.portrait, taken: Self.day(1))]
        #expect(PortraitPairs.items(undated, screen: .landscape) == [[0, 1], [2]])
    }

    @Test func aPortraitScreenStacksLandscapes() {
        let show = [P(aspect: Self.landscape), P(aspect: Self.portrait), P(aspect: Self.landscape)]
        #expect(PortraitPairs.items(show, screen: .portrait) == [[0, 2], [1]])
        #expect(PortraitPairs.Screen(Size(width: 1080, height: 1920)) == .portrait)
        #expect(PortraitPairs.Screen(Size(width: 1000, height: 1000)) == .landscape)
    }

    @Test func aPartnerIsLookedForOnlySoFarAhead() {
        var show = [P(aspect: Self.portrait)] + Array(repeating: P(aspect: Self.landscape), count: PortraitPairs.reach)
        show.append(P(aspect: Self.portrait))
        let items = PortraitPairs.items(show, screen: .landscape)
        #expect(items.first == [0] && items.last == [PortraitPairs.reach + 1], "too far: each on its own")
        #expect(items.count == show.count)
        // Every picture is in exactly one item, whatever the show.
        let many = (0..<500).map { i in P(aspect: [Self.portrait, Self.landscape, nil][i * 7 % 3], taken: i % 5 == 0 ? nil : Self.day(i % 9)) }
        let all = PortraitPairs.items(many, screen: .landscape).flatMap { $0 }
        #expect(all.sorted() == Array(0..<500))
    }

    @Test func twoPortraitsSideBySideEachInItsHalf() throws {
        // 2:3 and 3:4 portraits in a 1000x600 box: halves of 488 (gap 12), both as high as the box.
        let g = try #require(PairGeometry(box: Size(width: 1000, height: 600), aspects: [1.5, 4.0 / 3]))
        #expect(!g.stacked)
        #expect(g.places == [Rect(x: 0, y: 0, width: 400, height: 600), Rect(x: 412, y: 0, width: 450, height: 600)])
        #expect(g.size == Size(width: 862, height: 600))
        // A part across the gap: the right edge of the first and the left of the second.
        let pieces = g.pieces(of: Rect(x: 300.0 / 862, y: 0.5, width: 200.0 / 862, height: 0.25))
        #expect(pieces.count == 2)
        #expect(pieces[0].picture == 0 && abs(pieces[0].own.minX - 0.75) < 1e-9 && abs(pieces[0].own.size.width - 0.25) < 1e-9)
        #expect(abs(pieces[0].own.minY - 0.5) < 1e-9 && abs(pieces[0].at.size.width - 0.5) < 1e-9)
        #expect(pieces[1].picture == 1 && abs(pieces[1].own.minX) < 1e-9 && abs(pieces[1].own.size.width - 88.0 / 450) < 1e-9)
        #expect(abs(pieces[1].at.minX - 112.0 / 200) < 1e-9)
        // Inside one picture only: that one.
        #expect(g.pieces(of: Rect(x: 0.6, y: 0, width: 0.1, height: 0.1)).map(\.picture) == [1])
    }

    @Test func twoLandscapesOneAboveTheOther() throws {
        let g = try #require(PairGeometry(box: Size(width: 600, height: 1000), aspects: [0.5, 0.75]))
        #expect(g.stacked)
        #expect(g.places[0] == Rect(x: 0, y: 0, width: 600, height: 300))
        #expect(g.places[1].minY == 312 && g.places[1].size.height == 450)
        #expect(PairGeometry(box: Size(width: 600, height: 1000), aspects: [0.5]) == nil)
        #expect(abs(PortraitPairs.aspect(ofPair: [1.5, 1.5])! - 0.75) < 1e-9)
        #expect(abs(PortraitPairs.aspect(ofPair: [0.5, 0.5])! - 1) < 1e-9)
    }

    @Test func aPairsCaptionsSideBySideSaidOnceWhereTheyAgree() {
        #expect(CaptionTemplate.side(by: [["A", "14 July 2024"], ["B", "14 July 2024"]]) == ["A · B", "14 July 2024"])
        #expect(CaptionTemplate.side(by: [["A"], ["", "Lisbon"]]) == ["A", "Lisbon"])
        #expect(CaptionTemplate.side(by: [["A", "x"]]) == ["A", "x"])
    }

    @Test func wallClockSecondsCountDaysAsTheCalendarDoes() {
        #expect(P.seconds(year: 1970, month: 1, day: 1) == 0)
        #expect(P.seconds(year: 2000, month: 3, day: 1) == 951_868_800)
        #expect(P.seconds(year: 2024, month: 2, day: 29, hour: 23, minute: 59, second: 59) == 1_709_251_199)
    }
}
