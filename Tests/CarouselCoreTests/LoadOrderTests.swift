import CarouselCore
import Testing

@Suite struct LoadOrderTests {
    let settings = testSettings()

    @Test func centreFirstThenOutwardsWithPrefetchBeyondThePool() throws {
        let c = Carousel(itemCount: 20, viewport: Size(width: 1280, height: 720), settings: settings, startIndex: 10)
        let covered = try #require(c.coveredRange)
        let order = c.loadOrder(prefetch: 2)
        #expect(order.first == 10)
        #expect(Set(order) == Set((covered.lowerBound - 2)...(covered.upperBound + 2)))
        #expect(Set(order.prefix(3)) == [9, 10, 11])
    }

    @Test(arguments: [(Step.next, 12, 8), (Step.previous, 8, 12)])
    func aheadOfTheMotionComesBeforeBehind(_ c: (Step, Int, Int)) {
        var carousel = Carousel(itemCount: 20, viewport: Size(width: 1280, height: 720), settings: settings, startIndex: 10)
        carousel.handle(.step(c.0, time: 0))
        carousel.advance(to: 0.01)  // just set off: both items are two away
        let order = carousel.loadOrder(prefetch: 2)
        #expect(order.firstIndex(of: c.1)! < order.firstIndex(of: c.2)!, "\(order)")
    }

    @Test func staysInsideTheItemsWithoutWrapAndWrapsWithIt() {
        let c = Carousel(itemCount: 20, viewport: Size(width: 1280, height: 720), settings: settings, startIndex: 0)
        let order = c.loadOrder(prefetch: 3)
        #expect(order.allSatisfy { (0..<20).contains($0) })
        #expect(order.first == 0)
        var wrapping = settings
        wrapping.wrap = true
        let w = Carousel(itemCount: 20, viewport: Size(width: 1280, height: 720), settings: wrapping, startIndex: 0)
        #expect(w.loadOrder(prefetch: 3).contains(19))
        let few = Carousel(itemCount: 3, viewport: Size(width: 1280, height: 720), settings: wrapping)
        #expect(few.loadOrder(prefetch: 3).sorted() == [0, 1, 2], "each item once")
    }
}
