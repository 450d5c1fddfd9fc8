import Testing
@testable import CarouselCore

/// Random input sequences: whatever happens, every visible item has exactly one slot,
/// no two visible items share one, and a slot changes its item only when it must.
@Suite struct SlotPoolPropertyTests {
    @Test(arguments: [1, 2, 3, 7, 50] as [Int], [false, true])
    func slotsHoldUnderRandomInput(itemCount: Int, wrap: Bool) {
        for seed in 1...20 as ClosedRange<UInt64> {
            run(seed: seed &* 7919 &+ UInt64(itemCount), itemCount: itemCount, wrap: wrap)
        }
    }

    func run(seed: UInt64, itemCount: Int, wrap: Bool) {
        var rng = SeededRandom(seed: seed)
        var s = CarouselSettings()
        s.wrap = wrap
        s.layout = [LayoutSpec.centered, .paged, .preview,
                    LayoutSpec(itemWidth: .percent(20), itemHeight: .percent(50), gap: .pixels(0))]
            .randomElement(using: &rng)!
        var size = Size(width: 1280, height: 720)
        var c = Carousel(itemCount: itemCount, viewport: size, settings: s,
                         startIndex: Int.random(in: 0..<itemCount, using: &rng))
        var slotShows: [Int: Int] = [:]  // slot -> virtual index, as the renderer would track it
        var t = 0.0
        var pointerDown = false
        for step in 0..<300 {
            t += Double.random(in: 0...0.05, using: &rng)
            let x = Double.random(in: -100...(size.width + 100), using: &rng)
            let y = Double.random(in: 0...size.height, using: &rng)
            var rebuilt = false
            switch Int.random(in: 0..<10, using: &rng) {
            case 0, 1:
                c.handle(.pointer(PointerEvent(pointerDown ? .up : .down, .mouse, x: x, y: y, time: t)))
                pointerDown.toggle()
            case 2, 3, 4:
                c.handle(.pointer(PointerEvent(.move, .mouse, x: x, y: y, time: t)))
            case 5:
                c.handle(.step([.next, .previous, .first, .last, .by(5)].randomElement(using: &rng)!, time: t))
            case 6:
                c.handle(.scroll(Double.random(in: -2...2, using: &rng), time: t))
            case 7:
                size = Size(width: Double.random(in: 200...2000, using: &rng).rounded(),
                            height: Double.random(in: 200...1200, using: &rng).rounded())
                c.handle(.resize(size, time: t))
                rebuilt = true
            default:
                c.advance(to: t + Double.random(in: 0...0.5, using: &rng))
            }
            if rebuilt { slotShows = [:] }
            let required = requiredIndices(c)
            let changes = c.takeSlotChanges()
            if !rebuilt && required.isSubset(of: Set(slotShows.values)) {
                #expect(changes.isEmpty, "seed \(seed) step \(step): slots recycled with nothing new needed")
            }
            for change in changes {
                if let old = slotShows[change.slot] {
                    #expect(!required.contains(old),
                            "seed \(seed) step \(step): slot \(change.slot) gave up \(old), still needed")
                }
                slotShows[change.slot] = change.virtualIndex
            }
            let visible = c.visibleItems
            #expect(visible.count == visibleCount(c), "seed \(seed) step \(step): a visible item has no slot")
            #expect(Set(visible.map(\.slot)).count == visible.count, "seed \(seed) step \(step): shared slot")
            for v in visible {
                #expect(slotShows[v.slot] == v.virtualIndex, "seed \(seed) step \(step): renderer out of date")
                #expect(v.slot < c.slotCount)
            }
        }
    }

    /// Visible items plus the centred item's neighbours, within the items that exist.
    func requiredIndices(_ c: Carousel) -> Set<Int> {
        let centre = Int(c.position.rounded())
        var r = Set([centre - 1, centre, centre + 1])
        if let v = c.layout.visibleRange(at: c.position) { r.formUnion(v) }
        return c.settings.wrap ? r : r.filter { (0..<c.itemCount).contains($0) }
    }

    func visibleCount(_ c: Carousel) -> Int {
        guard let v = c.layout.visibleRange(at: c.position) else { return 0 }
        return c.settings.wrap ? v.count : v.filter { (0..<c.itemCount).contains($0) }.count
    }
}
