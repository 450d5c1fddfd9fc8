import Testing
@testable import CarouselCore

@Suite struct TransitionTests {
    func carousel(_ transition: Transition, autoplay: Double? = nil) -> Carousel {
        var s = testSettings()
        s.transition = transition
        s.attract.autoplayInterval = autoplay
        var c = Carousel(itemCount: 5, viewport: viewport, settings: s)
        _ = c.takeEvents()
        return c
    }

    @Test func aFadeHoldsTheOutgoingPictureAndFadesTheIncomingInInPlace() {
        var c = carousel(.fade(0.6))
        c.handle(.step(.next, time: 1))
        c.advance(to: 1.3)
        #expect(c.position == 0)                                  // the strip does not slide
        let f = c.fadeIn!
        #expect(f.item.item == 1 && abs(f.opacity - 0.5) < 1e-9)
        // In the outgoing picture's place.
        #expect(f.item.frame == c.visibleItems.first { $0.virtualIndex == 0 }!.frame)
        #expect(c.isAnimating && c.takeEvents().settledIndices.isEmpty)
        c.advance(to: 1.61)
        #expect(c.position == 1 && c.fade == nil && !c.isAnimating)
        #expect(c.takeEvents().map(\.time) == [1.6])
    }

    @Test func autoplayFadesToo() {
        var c = carousel(.fade(0.6), autoplay: 3)
        c.advance(to: 3.3)
        #expect(c.position == 0 && c.fade?.to == 1)
        c.advance(to: 4)
        let events = c.takeEvents()
        #expect(events.attractions.map(\.to) == [1] && events.settledIndices == [1] && c.position == 1)
    }

    @Test func aStepFurtherThanANeighbourCutsAtOnce() {
        var c = carousel(.fade(0.6))
        c.handle(.step(.last, time: 1))
        #expect(c.position == 4 && !c.isAnimating)
        #expect(c.takeEvents().settledIndices == [4])
    }

    @Test func noneCutsEveryStep() {
        var c = carousel(.none)
        c.handle(.step(.next, time: 1))
        #expect(c.position == 1 && !c.isAnimating)
        #expect(c.takeEvents().settledIndices == [1])
    }

    @Test func dragsStillSlide() {
        var c = carousel(.fade(0.6))
        let t = c.drag(from: 700, to: 600, duration: 0.1, at: 1)
        c.advance(to: t + 0.1)
        #expect(c.fade == nil && c.position > 0 && c.position < 1)   // sliding, not fading
    }

    @Test func aFingerDuringAFadeKeepsTheOutgoingPicture() {
        var c = carousel(.fade(0.6))
        c.handle(.step(.next, time: 1))
        c.finger(.down, 1, 640, 360, at: 1.2)
        #expect(c.fade == nil && c.position == 0)
        c.finger(.up, 1, 640, 360, at: 1.4)
        c.advance(to: 3)
        #expect(c.position == 0)
    }

    @Test func aFadeCutShowsTheIncomingPictureAtOnce() {
        var c = carousel(.fade(0.6))
        c.handle(.step(.next, time: 1))
        c.cutFade(time: 1)
        #expect(c.position == 1 && c.fade == nil)
        #expect(c.takeEvents().settledIndices == [1])
    }
}
