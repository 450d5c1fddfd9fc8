import Testing
@testable import CarouselCore

/// The grid's placement formula and the queries every tiled view makes of a layout,
/// checked against the frames themselves.
@Suite struct GridLayoutTests {
    func grid(_ width: Double, _ height: Double, columns: (Int, Int) = (3, 5), gap: Double = 10, count: Int) -> GridLayout {
        var g = GridLayout(viewport: Size(width: width, height: height), columns: columns, gap: gap)
        for i in 0..<count { g.append(aspect: i % 3 == 0 ? 0.5 : i % 3 == 1 ? 2 : nil) }
        return g
    }

    @Test func squaresInRowsFollowTheFormula() {
        // 1920 wide, 5 columns, gap 10: s = ⌊(1920 − 60) / 5⌋ = 372; item 7 in row 1, column 2.
        let l = grid(1920, 1080, count: 12)
        #expect(l.columns == 5 && l.columnWidth == 372 && l.left == 0)
        #expect(l.frames[7] == Rect(x: 10 + 2 * 382, y: 10 + 382, width: 372, height: 372))
        #expect(l.frames.allSatisfy { $0.size.width == 372 && $0.size.height == 372 }, "every shape is a square")
        // Portrait 1080 wide, 3 columns: s = 346, 2 px left over, 1 on the left.
        let p = grid(1080, 1920, count: 4)
        #expect(p.columns == 3 && p.columnWidth == 346 && p.left == 1 && p.frames[3].minX == 11 && p.frames[3].minY == 366)
        // 3 rows (12 items in 5 columns): 10 + 3 × 382; whole down to the second row's end.
        #expect(l.contentHeight == 1156 && l.scrollRange == 0...76 && l.wholeDownTo == 10 + 2 * 382)
        #expect(grid(1920, 1080, count: 0).scrollRange == 0...0 && grid(1920, 1080, count: 0).visibleRange(at: 0) == nil)
    }

    /// Items in a rectangle and the item at a point agree with the frames, anywhere,
    /// including gutters, margins, above the first row and below the last.
    @Test(arguments: [(640.0, 360.0, 0.0), (1920, 1080, 10), (1080, 1920, 24), (333, 999, 3)])
    func queriesAgreeWithTheFrames(width: Double, height: Double, gap: Double) {
        var r = SeededRandom(seed: UInt64(width))
        for count in [0, 1, 4, 5, 6, 23, 100] {
            let g = grid(width, height, gap: gap, count: count)
            for _ in 0..<200 {
                let top = Double(r.next() % 6000) - 500, h = Double(r.next() % 1500)
                let expected = g.frames.indices.filter { g.frames[$0].maxY > top && g.frames[$0].minY < top + h }
                #expect(g.items(from: top, to: top + h) == expected, "\(count) items, \(top)…\(top + h)")
                let p = Point(x: Double(r.next() % UInt64(width + 40)) - 20, y: Double(r.next() % 6000) - 100)
                #expect(g.item(at: p) == g.frames.firstIndex { $0.contains(p) }, "\(count) items at \(p)")
            }
        }
    }

    /// The grid is a tile layout like the mosaic's: the same engine scrolls it, a tap names
    /// the tile under it, and only the tiles on screen hold slots.
    @Test func theMosaicEngineDrivesTheGrid() {
        var settings = WallSettings()
        settings.kind = .grid
        var m = Wall(itemCount: 60, viewport: Size(width: 640, height: 360), settings: settings)
        m.sizesKnown(Array(repeating: 1.5, count: 60))
        // 5 columns of 116 px: 12 rows, 10 + 12 × 126 = 1522 high.
        #expect(m.layout.contentHeight == 1522 && m.slotCount == 15, "3 rows of 5 on screen: \(m.slotCount)")
        func touch(_ phase: PointerEvent.Phase, _ x: Double, _ y: Double, _ t: Double) {
            m.handle(.pointer(PointerEvent(phase, .finger(1), x: x, y: y, time: t)))
        }
        touch(.down, 300, 300, 0)
        for k in 1...5 { touch(.move, 300, 300 - Double(k) * 40, Double(k) * 0.02) }
        touch(.up, 300, 100, 0.1)
        m.advance(to: 5)
        #expect(m.position > 200 && !m.isAnimating, "a fling glides on and stops: \(m.position)")
        _ = m.takeEvents()
        let p = m.position
        touch(.down, 70, 70, 6)
        touch(.up, 70, 70, 6.05)
        let row = Int(((70 + p - 10) / 126).rounded(.down))
        #expect(m.takeEvents().map(\.kind) == [.tap(index: row * 5)])
        #expect(m.visibleItems.count == m.layout.visibleItems(at: m.position).count && m.slotCount <= 20)
    }
}
