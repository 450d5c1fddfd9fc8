import Testing
@testable import CarouselCore

@Suite struct SlotPoolTests {
    @Test(arguments: [
        // viewport width, item width, gap, slots = ceil(w / (item + gap)) + 2
        (1920.0, 1920.0, 0.0, 3),   // paged: seed 002's "three views are enough"
        (1280, 600, 40, 4),         // ceil(2) + 2
        (1000, 600, 20, 4),         // ceil(1.61) + 2
        (1000, 100, 0, 12),         // ceil(10) + 2
        (800, 1000, 0, 3),          // viewport narrower than the box
        (1920, 300, 20, 8),         // ceil(6) + 2
        (1921, 300, 20, 9),         // one pixel more needs one slot more
    ])
    func slotFormula(width: Double, item: Double, gap: Double, slots: Int) {
        let l = StripLayout(viewport: Size(width: width, height: 720),
                            itemSize: Size(width: item, height: 500), gap: gap)
        #expect(l.slotCount == slots)
    }

    @Test func aSlotKeepsItsItemWhileItStaysCovered() {
        var pool = SlotPool(slotCount: 4)
        let first = pool.cover(3...5, within: 0...99, itemCount: 100)
        #expect(first.count == 4)
        #expect(pool.window == 3...6)
        // Still inside the window: nothing changes.
        #expect(pool.cover(4...6, within: 0...99, itemCount: 100).isEmpty)
        // One step right: exactly one slot is recycled, from the left end to the right end.
        let slotOf3 = pool.slot(forVirtualIndex: 3)
        let moved = pool.cover(5...7, within: 0...99, itemCount: 100)
        #expect(moved == [SlotAssignment(slot: slotOf3!, virtualIndex: 7, item: 7)])
    }

    @Test func windowStaysInsideBounds() {
        var pool = SlotPool(slotCount: 4)
        _ = pool.cover(0...1, within: 0...99, itemCount: 100)
        #expect(pool.window == 0...3)
        _ = pool.cover(98...99, within: 0...99, itemCount: 100)
        #expect(pool.window == 96...99)
    }

    @Test func fewerItemsThanSlotsUseOnlyWhatExists() {
        var pool = SlotPool(slotCount: 4)
        let changes = pool.cover(0...1, within: 0...1, itemCount: 2)
        #expect(changes.map(\.item) == [0, 1])
        #expect(pool.slots.compactMap { $0 }.count == 2)
    }

    @Test func wrappedIndicesMapToItemsModuloCount() {
        var pool = SlotPool(slotCount: 3)
        let changes = pool.cover(-1...1, within: nil, itemCount: 2)
        #expect(changes.map(\.item) == [1, 0, 1])
        #expect(changes.map(\.virtualIndex) == [-1, 0, 1])
    }

    @Test func pagedCarouselNeverHoldsMoreThanThreeSlots() {
        var s = CarouselSettings()
        s.layout = .paged
        var c = Carousel(itemCount: 50, viewport: Size(width: 1920, height: 1080), settings: s)
        #expect(c.slotCount == 3)
        var t = 0.0
        var reloads = 0
        _ = c.takeSlotChanges()
        for _ in 0..<10 {
            c.handle(.step(.next, time: t))
            t = c.settleFully(after: t)
            reloads += c.takeSlotChanges().count
        }
        #expect(c.currentIndex == 10)
        // At item 0 the window already covers 0...2, so going to 1 reloads nothing;
        // each later item passed recycles exactly one slot.
        #expect(reloads == 9)
        #expect(Set(c.visibleItems.map(\.slot)).isSubset(of: [0, 1, 2]))
    }
}

/// The one pool any layout's slots come from, by the indices it wants.
@Suite struct GeneralSlotPoolTests {
    @Test func aGrowingPoolKeepsWhatStaysReusesWhatLeftAndGrowsOnlyForMoreAtOnce() {
        var pool = SlotPool.growing
        #expect(pool.cover([3, 7, 9]) { $0 }.map(\.slot) == [0, 1, 2])
        // 7 stays in slot 1; 3 and 9 leave, 10 and 11 take their slots.
        let next = pool.cover([7, 10, 11]) { $0 }
        #expect(next.map { [$0.slot, $0.virtualIndex] } == [[0, 10], [2, 11]])
        #expect(pool.slot(forVirtualIndex: 7) == 1 && pool.slotCount == 3)
        #expect(pool.cover([1, 2, 7, 10]) { $0 }.count == 2 && pool.slotCount == 4, "four at once: one more slot")
        #expect(pool.cover([5]) { $0 }.count == 1 && pool.slotCount == 4, "never shrinks: the textures stay")
    }

    @Test func aFixedPoolNeverGrows() {
        var pool = SlotPool(slotCount: 2)
        let changes = pool.cover([4, 5, 6]) { $0 % 3 }
        #expect(pool.slotCount == 2 && changes.map(\.item) == [1, 2], "what does not fit waits")
    }
}
