import Testing
@testable import CarouselCore

@Suite struct LayoutTests {
    let layout = StripLayout(viewport: Size(width: 1280, height: 720),
                             itemSize: Size(width: 600, height: 500), gap: 40)

    @Test func itemAtRestIsCentredBothWays() {
        for i in [0, 4, 17] {
            let f = layout.frame(ofVirtualIndex: i, at: Double(i))
            #expect(f == Rect(x: 340, y: 110, width: 600, height: 500))
            #expect(f.midX == 640 && f.midY == 360)
        }
    }

    @Test func neighboursSitOneStrideAway() {
        let centre = layout.frame(ofVirtualIndex: 4, at: 4)
        #expect(layout.frame(ofVirtualIndex: 5, at: 4).minX == centre.minX + 640)
        #expect(layout.frame(ofVirtualIndex: 3, at: 4).minX == centre.minX - 640)
        // Halfway between 4 and 5, the gap between them is centred.
        #expect(layout.frame(ofVirtualIndex: 4, at: 4.5).maxX + 20 == 640)
    }

    @Test(arguments: [
        (4.0, 3...5),   // neighbours show 300 px on each side
        (4.5, 4...5),   // item 3 has left the screen, 6 has not arrived
        (0.0, -1...1),
    ])
    func visibleRange(position: Double, expected: ClosedRange<Int>) {
        #expect(layout.visibleRange(at: position) == expected)
    }

    @Test func visibleMeansOverlapping() {
        let r = layout.visibleRange(at: 4.5)!
        for v in (r.lowerBound - 2)...(r.upperBound + 2) {
            let overlaps = layout.frame(ofVirtualIndex: v, at: 4.5)
                .intersects(Rect(x: 0, y: 0, width: 1280, height: 720))
            #expect(overlaps == r.contains(v), "virtual index \(v)")
        }
    }

    @Test func presetsResolveAgainstTheViewport() {
        let v = Size(width: 1920, height: 1080)
        let paged = LayoutSpec.paged.resolved(for: v)
        #expect(paged.item == v && paged.gap == 0)
        let centered = LayoutSpec.centered.resolved(for: v)
        #expect(centered.item.width < v.width && centered.gap > 0)
        // Both neighbours partly visible at rest.
        let lc = StripLayout(viewport: v, spec: .centered)
        #expect(lc.visibleRange(at: 3) == 2...4)
        let lp = StripLayout(viewport: v, spec: .preview)
        #expect(lp.visibleRange(at: 3) == 2...4)
        let slim = (v.width - lp.itemSize.width) / 2 - lp.gap
        #expect(slim > 0 && slim < v.width * 0.1, "preview strips are slim: \(slim) px")
        #expect(LayoutSpec.preset(named: "paged") == .paged)
        #expect(LayoutSpec.preset(named: "grid") == nil)
    }

    @Test(arguments: [
        ("640", Length.pixels(640)), ("640px", .pixels(640)), ("55%", .percent(55)), ("0", .pixels(0)),
        ("12.5%", .percent(12.5)),
    ])
    func lengthParses(text: String, expected: Length) {
        #expect(Length(parsing: text) == expected)
        #expect(Length(parsing: expected.description) == expected)
    }

    @Test(arguments: ["", "-5", "abc", "5%%", "%", "nan", "inf"])
    func lengthRejects(text: String) {
        #expect(Length(parsing: text) == nil)
    }

    @Test func lengthsResolve() {
        #expect(Length.percent(50).resolved(against: 1280) == 640)
        #expect(Length.pixels(37).resolved(against: 1280) == 37)
    }

    @Test(arguments: [
        // image, box, fitted
        (Size(width: 4000, height: 3000), Size(width: 600, height: 500), Size(width: 600, height: 450)),
        (Size(width: 3000, height: 4000), Size(width: 600, height: 500), Size(width: 375, height: 500)),
        (Size(width: 100, height: 100), Size(width: 600, height: 500), Size(width: 500, height: 500)),
        (Size(width: 8000, height: 1000), Size(width: 600, height: 500), Size(width: 600, height: 75)),
    ])
    func aspectFit(image: Size, box: Size, fitted: Size) {
        #expect(AspectFit.size(of: image, in: box) == fitted)
        let r = AspectFit.rect(of: image, in: Rect(x: 10, y: 20, width: box.width, height: box.height))
        #expect(abs(r.midX - (10 + box.width / 2)) <= 0.5)
        #expect(abs(r.midY - (20 + box.height / 2)) <= 0.5)
    }

    @Test func aspectFitOfNothingIsEmpty() {
        #expect(AspectFit.size(of: Size(width: 0, height: 10), in: Size(width: 5, height: 5)).isEmpty)
    }

    @Test func tapFindsTheItemUnderThePoint() {
        #expect(layout.virtualIndex(at: Point(x: 640, y: 360), position: 4) == 4)
        #expect(layout.virtualIndex(at: Point(x: 100, y: 360), position: 4) == 3)
        #expect(layout.virtualIndex(at: Point(x: 1200, y: 360), position: 4) == 5)
        #expect(layout.virtualIndex(at: Point(x: 320, y: 360), position: 4) == nil, "in the gap")
        #expect(layout.virtualIndex(at: Point(x: 640, y: 50), position: 4) == nil, "above the box")
    }
}

/// The strip as a collection view's layout: its content-coordinate queries agree with the
/// exact arithmetic the carousel uses on screen.
@Suite struct StripAsCollectionLayoutTests {
    @Test(arguments: [(1280.0, 600.0, 40.0), (1920, 1920, 0), (640, 300, 20), (333, 500, 7)])
    func contentQueriesAgreeWithTheScreenOnes(width: Double, item: Double, gap: Double) {
        let l = StripLayout(viewport: Size(width: width, height: 720), itemSize: Size(width: item, height: 400), gap: gap)
        var r = SeededRandom(seed: 5)
        for _ in 0..<500 {
            let p = Double(r.next() % 4000) / 100 - 20
            let o = l.contentOffset(at: p)
            let screen = Rect(x: o.x, y: o.y, width: width, height: 720)
            #expect(l.items(in: screen) == l.visibleRange(at: p).map { Array($0) } ?? [], "at \(p)")
            for v in l.items(in: screen) {
                let f = l.frame(of: v), s = l.frame(ofVirtualIndex: v, at: p)
                #expect(abs(f.minX - o.x - s.minX) < 1e-6 && f.minY == s.minY)
            }
            let x = Double(r.next() % UInt64(width)), y = Double(r.next() % 720)
            #expect(l.item(at: Point(x: x + o.x, y: y + o.y)) == l.virtualIndex(at: Point(x: x, y: y), position: p), "\(x),\(y) at \(p)")
        }
    }
}
