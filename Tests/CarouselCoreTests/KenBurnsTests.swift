import Testing
@testable import CarouselCore

@Suite struct KenBurnsTests {
    @Test func itGoesFromTheWholePictureToOneTwelfthInTowardsAPointOfItsOwn() {
        let start = KenBurns.crop(progress: 0, item: 3)
        #expect(start == Rect(x: 0, y: 0, width: 1, height: 1))
        let end = KenBurns.crop(progress: 1, item: 3)
        #expect(abs(end.size.width - 1 / 1.12) < 1e-12 && abs(end.size.height - 1 / 1.12) < 1e-12)
        #expect(end.minX >= 0 && end.maxX <= 1 && end.minY >= 0 && end.maxY <= 1)
        // The same picture moves the same way every time; another picture another way.
        #expect(KenBurns.crop(progress: 0.7, item: 3) == KenBurns.crop(progress: 0.7, item: 3))
        let others = (0..<8).map { KenBurns.crop(progress: 1, item: $0).origin }
        #expect(Set(others.map { "\($0.x),\($0.y)" }).count == 8)
        // Eased: slow at both ends.
        let early = 1 - KenBurns.crop(progress: 0.05, item: 3).size.width
        let middle = KenBurns.crop(progress: 0.45, item: 3).size.width - KenBurns.crop(progress: 0.55, item: 3).size.width
        #expect(early < middle)
    }

    func carousel() -> Carousel {
        var s = testSettings()
        s.kenBurns = true
        s.attract.autoplayInterval = 5
        s.attract.idleResume = 10
        var c = Carousel(itemCount: 5, viewport: viewport, settings: s)
        _ = c.takeEvents()
        return c
    }

    @Test func theCentredPictureMovesThroughTheDwellAndTheNextStartsAfresh() {
        var c = carousel()
        c.advance(to: 2.5)
        #expect(c.kenBurnsMoving)
        let centred = c.visibleItems.first { $0.virtualIndex == 0 }!
        #expect(centred.crop == KenBurns.crop(progress: 0.5, item: 0))
        #expect(c.visibleItems.filter { $0.crop != nil }.count == 1)
        c.advance(to: 5.2)                                   // sliding on: the last frame held
        #expect(c.visibleItems.first { $0.virtualIndex == 0 }!.crop == KenBurns.crop(progress: 1, item: 0))
        c.advance(to: 6)                                     // rested on item 1 at 5.45
        #expect(c.position == 1)
        let next = c.visibleItems.first { $0.virtualIndex == 1 }!
        #expect(next.crop!.size.width < 1 && next.crop!.size.width > 0.99)
    }

    @Test func aTouchStopsIt() {
        var c = carousel()
        c.advance(to: 2)
        c.finger(.down, 1, 640, 360, at: 2)
        #expect(c.kenBurns == nil && !c.kenBurnsMoving)
        #expect(c.visibleItems.allSatisfy { $0.crop == nil })
        c.finger(.up, 1, 640, 360, at: 2.1)
        c.advance(to: 4)
        #expect(c.kenBurns == nil)
    }

    @Test func offWithoutAutoplayOrTheOption() {
        var s = testSettings()
        s.attract.autoplayInterval = 5
        var c = Carousel(itemCount: 5, viewport: viewport, settings: s)
        c.advance(to: 2)
        #expect(c.kenBurns == nil)
        s.kenBurns = true
        s.attract.autoplayInterval = nil
        c = Carousel(itemCount: 5, viewport: viewport, settings: s)
        c.advance(to: 2)
        #expect(c.kenBurns == nil)
    }
}
