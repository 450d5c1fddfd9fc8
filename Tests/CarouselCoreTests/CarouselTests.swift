import Testing
@testable import CarouselCore

@Suite struct CarouselTests {
    @Test func startsCentredWithAPoolEvent() {
        var c = Carousel(itemCount: 10, viewport: viewport, settings: testSettings(), startIndex: 3)
        #expect(c.currentIndex == 3 && c.position == 3)
        #expect(c.takeEvents().pools == [PoolInfo(slots: 4, itemSize: Size(width: 600, height: 500),
                                                  gap: 40, viewport: viewport)])
        #expect(c.visibleItems.map(\.item) == [2, 3, 4])
        #expect(c.visibleItems[1].frame == Rect(x: 340, y: 110, width: 600, height: 500))
        #expect(c.takeSlotChanges().count == 4)
        #expect(!c.isAnimating)
    }

    @Test func dragMovesTheStripUnderThePointer() {
        var c = Carousel(itemCount: 10, viewport: viewport, settings: testSettings())
        c.handle(.pointer(PointerEvent(.down, .mouse, x: 800, y: 360, time: 0)))
        c.handle(.pointer(PointerEvent(.move, .mouse, x: 640, y: 360, time: 0.1)))
        #expect(c.position == 0.25)
        #expect(c.visibleItems.first { $0.item == 0 }!.frame.midX == 640 - 160)
    }

    @Test func shortQuickDragSwipesToTheNext() {
        var c = Carousel(itemCount: 10, viewport: viewport, settings: testSettings())
        _ = c.takeEvents()
        let t = c.drag(from: 800, to: 650, duration: 0.1, at: 0)
        let release = c.takeEvents().releases
        #expect(release.count == 1)
        #expect(release.first?.decision == .swipe)
        #expect(release.first?.from == 0 && release.first?.to == 1)
        #expect(release.first!.velocity < -1000 && release.first!.travel == -150)
        #expect(c.isAnimating)
        _ = c.settleFully(after: t)
        #expect(c.takeEvents().settledIndices == [1])
        #expect(c.position == 1 && !c.isAnimating)
    }

    @Test func aDragThatStopsBeforeLiftingRealigns() {
        var c = Carousel(itemCount: 10, viewport: viewport, settings: testSettings(), startIndex: 5)
        _ = c.takeEvents()
        let t = c.drag(from: 800, to: 650, duration: 0.1, hold: 0.2, at: 0)
        #expect(c.takeEvents().releases.map(\.decision) == [.realign])
        _ = c.settleFully(after: t)
        #expect(c.takeEvents().settledIndices == [5], "settled even though the index did not change")
    }

    @Test func longQuickDragFlings() {
        var c = Carousel(itemCount: 30, viewport: viewport, settings: testSettings(), startIndex: 5)
        _ = c.takeEvents()
        let t = c.drag(from: 1100, to: 300, duration: 0.15, at: 0)
        let r = c.takeEvents().releases.first!
        #expect(r.decision == .fling)
        #expect(r.to > 7, "momentum carries past the item under the finger: \(r.to)")
        _ = c.settleFully(after: t)
        #expect(c.currentIndex == r.to)
    }

    @Test func flingCapOfOneNeverSkipsAnItem() {
        var s = testSettings()
        s.release.maxFlingItems = 1
        var c = Carousel(itemCount: 30, viewport: viewport, settings: s, startIndex: 5)
        let t = c.drag(from: 1100, to: 300, duration: 0.15, at: 0)
        _ = c.settleFully(after: t)
        // 800 px dragged = 1.25 items: the nearest item ahead of 6.25 is 7.
        #expect(c.currentIndex == 7)
    }

    @Test func rubberBandAtTheStartResistsAndSpringsBack() {
        var c = Carousel(itemCount: 5, viewport: viewport, settings: testSettings())
        _ = c.takeEvents()
        c.handle(.pointer(PointerEvent(.down, .mouse, x: 300, y: 360, time: 0)))
        c.handle(.pointer(PointerEvent(.move, .mouse, x: 500, y: 360, time: 0.2)))
        let at200 = -c.position * 640
        c.handle(.pointer(PointerEvent(.move, .mouse, x: 700, y: 360, time: 0.4)))
        let at400 = -c.position * 640
        #expect(at200 > 0 && at200 < 200 * 0.6, "follows at most 55% past the end: \(at200)")
        #expect(at400 - at200 < at200, "resistance grows: \(at400 - at200) < \(at200)")
        c.handle(.pointer(PointerEvent(.up, .mouse, x: 700, y: 360, time: 0.9)))
        _ = c.settleFully(after: 0.9)
        #expect(c.position == 0)
        #expect(c.takeEvents().settledIndices == [0])
    }

    @Test func rubberBandAtTheEnd() {
        var c = Carousel(itemCount: 5, viewport: viewport, settings: testSettings(), startIndex: 4)
        let t = c.drag(from: 900, to: 300, duration: 0.3, hold: 0.1, at: 0)
        #expect(c.position > 4 && c.position < 4 + 600.0 / 640)
        _ = c.settleFully(after: t)
        #expect(c.currentIndex == 4 && c.position == 4)
    }

    @Test func wrapIsEndlessAndKeepsThePool() {
        var c = Carousel(itemCount: 5, viewport: viewport, settings: testSettings(wrap: true))
        #expect(c.visibleItems.map(\.item) == [4, 0, 1])
        var t = 0.0
        c.handle(.step(.previous, time: t)); t = c.settleFully(after: t)
        #expect(c.currentIndex == 4)
        for _ in 0..<7 { c.handle(.step(.next, time: t)); t = c.settleFully(after: t) }
        #expect(c.currentIndex == 1)
        #expect(c.visibleItems.map(\.item) == [0, 1, 2])
        #expect(Set(c.visibleItems.map(\.slot)).count == 3 && c.slotCount == 4)
    }

    @Test func twoItemsWithWrap() {
        var c = Carousel(itemCount: 2, viewport: viewport, settings: testSettings(wrap: true))
        #expect(c.visibleItems.map(\.item) == [1, 0, 1])
        #expect(Set(c.visibleItems.map(\.slot)).count == 3)
        let t = c.drag(from: 900, to: 700, duration: 0.1, at: 0)
        _ = c.settleFully(after: t)
        #expect(c.currentIndex == 1)
        #expect(c.visibleItems.map(\.item) == [0, 1, 0])
    }

    /// Screens of a group step at one instant; a loop that woke a little late hands the step
    /// over with that instant, and the strip moves as if begun then, so it comes to rest when
    /// every other screen's does (and a clip there starts at the same instant). From rest
    /// only, and at most `stepCatchUp` late: a screen that slept longer moves from now.
    @Test func aStepForAnInstantJustPassedRestsWhenItWouldHave() {
        func restTime(stepAt step: Double, handledAt now: Double) -> Double? {
            var c = Carousel(itemCount: 5, viewport: viewport, settings: testSettings())
            c.advance(to: 1)
            _ = c.takeEvents()
            c.advance(to: now)
            c.handle(.step(.next, time: step))
            _ = c.settleFully(after: now)
            return c.takeEvents().first { if case .settled = $0.kind { true } else { false } }?.time
        }
        guard let onTime = restTime(stepAt: 2, handledAt: 2), let late = restTime(stepAt: 2, handledAt: 2.07),
              let asleep = restTime(stepAt: 2, handledAt: 3) else {
            Issue.record("a step must come to rest")
            return
        }
        #expect(abs(late - onTime) < 1e-9, "70 ms late, it rests with the others: \(late) against \(onTime)")
        #expect(abs(asleep - (onTime + 1)) < 1e-9, "a second late, it moves from now: \(asleep)")
    }

    @Test func quickStepsRetargetTheRunningAnimation() {
        var c = Carousel(itemCount: 10, viewport: viewport, settings: testSettings())
        _ = c.takeEvents()
        c.handle(.step(.next, time: 0))
        c.handle(.step(.next, time: 0.05))
        let p = c.position
        c.handle(.step(.next, time: 0.1))
        #expect(c.position == p + 0 || c.position >= p, "no jump on retarget")
        _ = c.settleFully(after: 0.1)
        #expect(c.currentIndex == 3)
        #expect(c.takeEvents().settledIndices == [3], "one rest at the end, not one per step")
    }

    @Test func retargetKeepsVelocity() {
        var c = Carousel(itemCount: 10, viewport: viewport, settings: testSettings())
        c.handle(.step(.next, time: 0))
        c.advance(to: 0.1)
        let p0 = c.position
        c.handle(.step(.next, time: 0.1))
        c.advance(to: 0.1 + 1.0 / 240)
        #expect(c.position > p0, "keeps moving forward right after the retarget")
    }

    @Test func homeEndAndPages() {
        var c = Carousel(itemCount: 12, viewport: viewport, settings: testSettings(), startIndex: 4)
        var t = 0.0
        c.handle(.step(.last, time: t)); t = c.settleFully(after: t)
        #expect(c.currentIndex == 11)
        c.handle(.step(.next, time: t)); t = c.settleFully(after: t)
        #expect(c.currentIndex == 11, "no wrap: stays on the last")
        c.handle(.step(.first, time: t)); t = c.settleFully(after: t)
        #expect(c.currentIndex == 0)
        #expect(c.pageSize == 5, "two whole items show, but a page is at least 5")
        c.handle(.step(.nextPage, time: t)); t = c.settleFully(after: t)
        #expect(c.currentIndex == 5)
        c.handle(.step(.previousPage, time: t)); t = c.settleFully(after: t)
        #expect(c.currentIndex == 0)
    }

    @Test func wheelNotchesAccumulate() {
        var c = Carousel(itemCount: 10, viewport: viewport, settings: testSettings())
        c.handle(.scroll(0.4, time: 0))
        c.handle(.scroll(0.4, time: 0.05))
        #expect(!c.isAnimating)
        c.handle(.scroll(0.4, time: 0.1))
        #expect(c.isAnimating)
        _ = c.settleFully(after: 0.1)
        #expect(c.currentIndex == 1)
        // A leftover fraction is dropped after a pause.
        c.handle(.scroll(0.8, time: 3))
        c.handle(.scroll(0.3, time: 4))
        #expect(!c.isAnimating)
        c.handle(.scroll(-3, time: 5))
        _ = c.settleFully(after: 5)
        #expect(c.currentIndex == 0)
    }

    @Test func tapOnANeighbourBringsItToTheCentre() {
        var c = Carousel(itemCount: 10, viewport: viewport, settings: testSettings(), startIndex: 4)
        _ = c.takeEvents()
        c.tap(x: 1200, at: 0)
        var e = c.takeEvents()
        #expect(e.taps == [5] && e.activations.isEmpty)
        _ = c.settleFully(after: 0.05)
        #expect(c.currentIndex == 5)
        c.tap(x: 640, at: 5)
        e = c.takeEvents()
        #expect(e.settledIndices == [5])
        #expect(e.taps == [5] && e.activations == [5])
        #expect(!c.isAnimating)
    }

    @Test func tapInTheGapDoesNothing() {
        var c = Carousel(itemCount: 10, viewport: viewport, settings: testSettings(), startIndex: 4)
        _ = c.takeEvents()
        c.tap(x: 320, at: 0)
        #expect(c.takeEvents().isEmpty && !c.isAnimating)
    }

    @Test func pressCatchesAMovingStrip() {
        var c = Carousel(itemCount: 10, viewport: viewport, settings: testSettings())
        c.handle(.step(.by(3), time: 0))
        c.advance(to: 0.1)
        let caught = c.position
        c.handle(.pointer(PointerEvent(.down, .mouse, x: 640, y: 360, time: 0.1)))
        c.advance(to: 0.3)
        #expect(c.position == caught && !c.isAnimating)
        c.handle(.pointer(PointerEvent(.up, .mouse, x: 640, y: 360, time: 0.4)))
        _ = c.settleFully(after: 0.4)
        #expect(c.currentIndex == Int(caught.rounded()), "a long press realigns")
        #expect(c.takeEvents().activations.isEmpty)
    }

    @Test func resizeKeepsTheIndexAndRebuildsThePool() {
        var c = Carousel(itemCount: 20, viewport: viewport, settings: CarouselSettings(), startIndex: 7)
        _ = c.takeEvents()
        _ = c.takeSlotChanges()
        c.handle(.resize(Size(width: 720, height: 1280), time: 1))
        #expect(c.currentIndex == 7 && c.position == 7)
        let pools = c.takeEvents().pools
        #expect(pools.count == 1 && pools[0].viewport == Size(width: 720, height: 1280))
        #expect(c.takeSlotChanges().count == c.slotCount)
        #expect(c.visibleItems.first { $0.item == 7 }!.frame.midX == 360)
    }

    @Test func resizeDuringADragDoesNotJump() {
        var c = Carousel(itemCount: 20, viewport: viewport, settings: testSettings(), startIndex: 7)
        c.handle(.pointer(PointerEvent(.down, .mouse, x: 800, y: 360, time: 0)))
        c.handle(.pointer(PointerEvent(.move, .mouse, x: 640, y: 360, time: 0.1)))
        let p = c.position
        c.handle(.resize(Size(width: 1920, height: 1080), time: 0.15))
        #expect(c.position == p)
        c.handle(.pointer(PointerEvent(.move, .mouse, x: 620, y: 360, time: 0.2)))
        #expect(abs(c.position - (p + 20.0 / 640)) < 1e-9)
        c.handle(.pointer(PointerEvent(.up, .mouse, x: 620, y: 360, time: 0.6)))
        _ = c.settleFully(after: 0.6)
        #expect(c.currentIndex == 7)
    }

    @Test func resizeDuringAnimationStillArrives() {
        var c = Carousel(itemCount: 20, viewport: viewport, settings: testSettings())
        c.handle(.step(.by(2), time: 0))
        c.advance(to: 0.1)
        c.handle(.resize(Size(width: 800, height: 600), time: 0.1))
        _ = c.settleFully(after: 0.1)
        #expect(c.currentIndex == 2)
    }

    @Test func noItemsNothingToDraw() {
        var c = Carousel(itemCount: 0, viewport: viewport)
        #expect(c.visibleItems.isEmpty && c.currentIndex == nil)
        c.handle(.step(.next, time: 0))
        c.tap(x: 640, at: 0.1)
        _ = c.drag(from: 800, to: 200, duration: 0.1, at: 1)
        c.handle(.scroll(5, time: 2))
        c.handle(.resize(Size(width: 10, height: 10), time: 3))
        #expect(c.visibleItems.isEmpty && !c.isAnimating)
        #expect(c.takeEvents().allSatisfy { if case .pool = $0.kind { true } else { false } })
    }

    @Test func oneItem() {
        var c = Carousel(itemCount: 1, viewport: viewport, settings: testSettings())
        #expect(c.visibleItems.map(\.item) == [0])
        let t = c.drag(from: 900, to: 500, duration: 0.1, at: 0)
        _ = c.settleFully(after: t)
        #expect(c.currentIndex == 0 && c.position == 0)
    }

    @Test func viewportNarrowerThanTheBox() {
        var s = CarouselSettings()
        s.layout = LayoutSpec(itemWidth: .pixels(1000), itemHeight: .pixels(400), gap: .pixels(0))
        var c = Carousel(itemCount: 5, viewport: Size(width: 600, height: 400), settings: s, startIndex: 2)
        #expect(c.slotCount == 3 && c.visibleItems.map(\.item) == [2])
        let t = c.drag(from: 500, to: 300, duration: 0.1, at: 0)
        _ = c.settleFully(after: t)
        #expect(c.currentIndex == 3)
    }

    @Test func gapZeroPagedStillSwipes() {
        var s = CarouselSettings()
        s.layout = .paged
        var c = Carousel(itemCount: 5, viewport: Size(width: 1920, height: 1080), settings: s)
        #expect(c.visibleItems.count == 1)
        let t = c.drag(from: 1500, to: 1300, duration: 0.1, at: 0)
        _ = c.settleFully(after: t)
        #expect(c.currentIndex == 1)
    }

    @Test func verticalDragDoesNotMoveTheStrip() {
        var c = Carousel(itemCount: 5, viewport: viewport, settings: testSettings(), startIndex: 2)
        _ = c.takeEvents()
        c.handle(.pointer(PointerEvent(.down, .finger(3), x: 640, y: 200, time: 0)))
        c.handle(.pointer(PointerEvent(.move, .finger(3), x: 642, y: 260, time: 0.05)))
        c.handle(.pointer(PointerEvent(.move, .finger(3), x: 400, y: 300, time: 0.1)))
        #expect(c.position == 2)
        c.handle(.pointer(PointerEvent(.up, .finger(3), x: 400, y: 300, time: 0.15)))
        #expect(c.takeEvents().isEmpty && !c.isAnimating)
    }
}

@Suite struct ReplaceItemsTests {
    @Test func aNewListKeepsTheGivenItemCentredAndRebuildsThePool() {
        var c = Carousel(itemCount: 10, viewport: viewport, settings: testSettings(), startIndex: 4)
        _ = c.takeEvents(); _ = c.takeSlotChanges()
        c.handle(.step(.next, time: 1))
        #expect(c.isAnimating)
        c.replaceItems(count: 12, centredOn: 7, time: 1.1)
        #expect(!c.isAnimating && c.position == 7 && c.currentIndex == 7)
        #expect(c.takeEvents().pools.count == 1)
        #expect(Set(c.takeSlotChanges().map(\.item)) == [6, 7, 8, 9], "every slot filled again")
        c.advance(to: 5)
        #expect(c.takeEvents().settledIndices.isEmpty, "a replaced list is not a settle")
    }

    @Test func emptyAndBackAgain() {
        var c = Carousel(itemCount: 3, viewport: viewport, settings: testSettings(), startIndex: 2)
        c.replaceItems(count: 0, centredOn: 2, time: 1)
        #expect(c.currentIndex == nil && c.visibleItems.isEmpty)
        c.replaceItems(count: 5, centredOn: 9, time: 2)
        #expect(c.currentIndex == 4, "clamped into the new list")
        #expect(c.visibleItems.map(\.item) == [3, 4])
    }
}
