import Testing
@testable import CarouselCore

/// What a remote `goto`, `pause` and `play` do to the engines: inputs like a key's.
@Suite struct RemoteCommandTests {
    func carousel(items: Int = 8, autoplay: Double? = 3, wrap: Bool = false) -> Carousel {
        var s = testSettings(wrap: wrap)
        s.attract.autoplayInterval = autoplay
        s.attract.idleResume = 10
        var c = Carousel(itemCount: items, viewport: viewport, settings: s, startIndex: 0)
        _ = c.takeEvents()
        return c
    }

    @Test func gotoSlidesToTheItemAndClampsOutOfRange() {
        var c = carousel(autoplay: nil)
        c.handle(.step(.item(5), time: 1))
        #expect(c.isAnimating)
        _ = c.settleFully(after: 1)
        #expect(c.currentIndex == 5)
        c.handle(.step(.item(99), time: 5))
        _ = c.settleFully(after: 5)
        #expect(c.currentIndex == 7)
        c.handle(.step(.item(-3), time: 9))
        _ = c.settleFully(after: 9)
        #expect(c.currentIndex == 0)
    }

    @Test func gotoOnAWrappingStripTakesTheItemAsNumbered() {
        var c = carousel(autoplay: nil, wrap: true)
        c.handle(.step(.previous, time: 1))   // item 7, one lap back
        _ = c.settleFully(after: 1)
        #expect(c.currentIndex == 7)
        c.handle(.step(.item(2), time: 5))
        _ = c.settleFully(after: 5)
        #expect(c.currentIndex == 2)
    }

    @Test func pauseHoldsAutoplayUntilPlayAndInputDoesNotRestartIt() {
        var c = carousel()
        #expect(c.isPlaying && c.nextScheduledTime == 3)
        c.handle(.autoplay(false, time: 1))
        #expect(!c.isPlaying && c.nextScheduledTime == nil)
        c.handle(.step(.next, time: 2))        // a key: the idle timer would restart autoplay
        _ = c.settleFully(after: 2)
        c.advance(to: 60)
        #expect(c.currentIndex == 1)
        #expect(c.takeEvents().attractions.isEmpty)
        c.handle(.autoplay(true, time: 60))
        #expect(c.isPlaying && c.nextScheduledTime == 63)
        c.advance(to: 63.5)
        #expect(c.takeEvents().attractions.map(\.to) == [2])
    }

    @Test func pauseAndPlayAreNotAPersonsInput() {
        // Playing while playing keeps the schedule: no idle resume wait is added.
        var c = carousel()
        c.handle(.autoplay(true, time: 1))
        #expect(c.nextScheduledTime == 3)
    }

    @Test func withoutAutoplayThereIsNothingToPlay() {
        var c = carousel(autoplay: nil)
        #expect(!c.isPlaying)
        c.handle(.autoplay(true, time: 1))
        #expect(!c.isPlaying && c.nextScheduledTime == nil)
    }
}

@Suite struct WallGotoTests {
    @Test func gotoScrollsTheWallUntilTheTileIsWhollyOnScreen() {
        var m = Wall(itemCount: 1000, viewport: Size(width: 1920, height: 1080))
        m.sizesKnown(Array(repeating: 2.0 / 3, count: 1000))
        m.handle(.step(.item(500), time: 1))
        #expect(m.isAnimating)
        m.advance(to: 5)
        let f = m.layout.frames[500]
        #expect(f.minY >= m.position && f.maxY <= m.position + 1080)
        // Already on screen: nothing moves.
        let p = m.position
        m.handle(.step(.item(501), time: 6))
        #expect(!m.isAnimating && m.position == p)
    }
}
