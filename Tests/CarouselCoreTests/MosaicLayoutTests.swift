import Testing
@testable import CarouselCore

/// The wall's placement formula, its stability, and the queries the mosaic makes of it.
@Suite struct MosaicLayoutTests {
    func wall(_ width: Double, _ height: Double, columns: (Int, Int) = (3, 5), gap: Double = 10,
              _ aspects: [Double?]) -> MosaicLayout {
        var m = MosaicLayout(viewport: Size(width: width, height: height), columns: columns, gap: gap)
        for a in aspects { m.append(aspect: a) }
        return m
    }

    @Test func columnsAndTheirEdgesFollowTheFormula() {
        // Landscape 1920 wide, 5 columns, gap 10: cw = ⌊(1920 − 60) / 5⌋ = 372, no leftover.
        let l = wall(1920, 1080, [])
        #expect(l.columns == 5 && l.columnWidth == 372 && l.left == 0)
        // Portrait 1080 wide, 3 columns: cw = ⌊(1080 − 40) / 3⌋ = 346, leftover 2, 1 each side.
        let p = wall(1080, 1920, [])
        #expect(p.columns == 3 && p.columnWidth == 346 && p.left == 1)
        // 1000 wide, 3 columns, gap 7: cw = ⌊(1000 − 28) / 3⌋ = 324, leftover 0.
        // 1002 wide: cw 324 again, leftover 2, 1 on the left.
        #expect(wall(1000, 1200, gap: 7, []).columnWidth == 324)
        #expect(wall(1002, 1200, gap: 7, []).left == 1 && wall(1001, 1200, gap: 7, []).left == 0)
    }

    @Test(arguments: [
        // (aspects h/w, expected (column, y, height) per item), 3 columns of 100 px, gap 10.
        ([1.0, 1.0, 1.0, 0.5], [(0, 10.0, 100.0), (1, 10, 100), (2, 10, 100), (0, 120, 50)]),
        // Ties go left; the shortest column takes the next tile.
        ([2.0, 1.0, 1.0, 1.0, 1.0], [(0, 10, 200), (1, 10, 100), (2, 10, 100), (1, 120, 100), (2, 120, 100)]),
        // A panorama is clamped to 1/3 (33.3 → 33), a tall strip to 3.
        ([0.1, 10.0, 1.0 / 3], [(0, 10, 33), (1, 10, 300), (2, 10, 33)]),
        // Unknown sizes are square tiles.
        ([nil, 0.5], [(0, 10, 100), (1, 10, 50)]),
    ] as [([Double?], [(Int, Double, Double)])])
    func tilesArePlacedInOrderIntoTheShortestColumn(aspects: [Double?], expected: [(Int, Double, Double)]) {
        let m = wall(340, 1000, columns: (3, 3), aspects)
        #expect(m.columnWidth == 100)
        for (i, e) in expected.enumerated() {
            #expect(m.columnOf[i] == e.0, "item \(i)'s column")
            #expect(m.frames[i].minY == e.1 && m.frames[i].size.height == e.2, "item \(i): \(m.frames[i])")
            #expect(m.frames[i].minX == 10 + Double(e.0) * 110)
        }
    }

    @Test func noItemsOneItemAndOneColumn() {
        let empty = wall(1920, 1080, [])
        #expect(empty.count == 0 && empty.visibleItems(at: 0).isEmpty && empty.visibleRange(at: 0) == nil)
        #expect(empty.scrollRange == 0...0 && empty.item(at: Point(x: 100, y: 100)) == nil)
        let one = wall(1920, 1080, [1.5])
        #expect(one.visibleItems(at: 0) == [0] && one.frames[0].minY == 10)
        let single = wall(500, 1000, columns: (1, 1), [1, 1, 1])
        #expect(single.columnWidth == 480 && single.frames.map(\.minY) == [10, 500, 990])
        #expect(single.contentHeight == 1480 && single.scrollRange == 0...480)
    }

    @Test func aSizeArrivingLateNeverMovesAnEarlierTile() {
        var r = SeededRandom(seed: 3)
        let aspects = (0..<500).map { _ in Double(r.next() % 300 + 20) / 100 }
        var growing = MosaicLayout(viewport: Size(width: 1920, height: 1080))
        var seen: [Rect] = []
        for a in aspects {
            growing.append(aspect: a)
            #expect(Array(growing.frames.prefix(seen.count)) == seen)
            seen = growing.frames
        }
        // And the same sizes give the same wall every time.
        #expect(wall(1920, 1080, aspects).frames == growing.frames)
    }

    @Test func theVisibleQueryMatchesAScanOfEveryTile() {
        var r = SeededRandom(seed: 11)
        for trial in 0..<40 {
            let width = Double(300 + r.next() % 1700), height = Double(300 + r.next() % 1700)
            let aspects: [Double?] = (0..<Int(r.next() % 3000)).map { _ in r.next() % 17 == 0 ? nil : Double(r.next() % 500 + 10) / 100 }
            let m = wall(width, height, gap: Double(r.next() % 30), aspects)
            for _ in 0..<20 {
                let top = Double(r.next() % UInt64(max(1, m.contentHeight))) - 200
                let want = m.frames.indices.filter { m.frames[$0].maxY > top && m.frames[$0].minY < top + height }
                #expect(m.visibleItems(at: top) == want, "trial \(trial) at \(top)")
            }
        }
    }

    @Test func tapsFindTheirTileAndGuttersFindNone() {
        let m = wall(340, 1000, columns: (3, 3), [1, 1, 1, 0.5])
        #expect(m.item(at: Point(x: 10, y: 10)) == 0)
        #expect(m.item(at: Point(x: 109.9, y: 109.9)) == 0)
        #expect(m.item(at: Point(x: 110, y: 50)) == nil, "the gutter between columns 0 and 1")
        #expect(m.item(at: Point(x: 5, y: 50)) == nil, "the margin")
        #expect(m.item(at: Point(x: 335, y: 50)) == nil, "past the last column")
        #expect(m.item(at: Point(x: 50, y: 115)) == nil, "between two tiles of a column")
        #expect(m.item(at: Point(x: 50, y: 130)) == 3)
        #expect(m.item(at: Point(x: 150, y: 500)) == nil, "below the column's last tile")
        // On screen, scrolled by 100: the point (50, 30) is wall y 130.
        #expect(m.virtualIndex(at: Point(x: 50, y: 30), position: 100) == 3)
        #expect(m.frame(ofVirtualIndex: 3, at: 100).minY == 20)
    }

    @Test func aRotationKeepsTheTopTileWhereItWas() {
        var r = SeededRandom(seed: 5)
        let aspects = (0..<2000).map { _ in Double(r.next() % 300 + 30) / 100 }
        let landscape = wall(1920, 1080, aspects)
        let position = 20_000.0
        let top = landscape.visibleItems(at: position).min { landscape.frames[$0].minY < landscape.frames[$1].minY }!
        let portrait = wall(1080, 1920, aspects)
        #expect(portrait.columns == 3)
        let kept = portrait.position(keeping: top, from: landscape, at: position)
        let was = landscape.frames[top], now = portrait.frames[top]
        #expect(abs((kept - now.minY) / now.size.height - (position - was.minY) / was.size.height) < 1e-9,
                "the same share of the tile is above the screen's top edge")
        #expect(portrait.visibleItems(at: kept).contains(top))
        // Near the end the position is clamped to the wall.
        let last = landscape.count - 1
        #expect(portrait.position(keeping: last, from: landscape, at: landscape.frames[last].minY) <= portrait.scrollRange.upperBound)
    }
}
