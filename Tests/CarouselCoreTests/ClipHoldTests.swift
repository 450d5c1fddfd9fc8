import Testing
@testable import CarouselCore

/// A clip holding the show under autoplay: no step while it plays, a step as soon as it
/// lets go, and a person's input while it played keeps the usual pause after input.
@Suite struct ClipHoldTests {
    func carousel() -> Carousel {
        var s = testSettings(wrap: false)
        s.attract.autoplayInterval = 3
        s.attract.idleResume = 10
        var c = Carousel(itemCount: 5, viewport: viewport, settings: s, startIndex: 0)
        _ = c.takeEvents()
        return c
    }

    @Test func noStepWhileTheClipHoldsTheShowAndOneAsSoonAsItLetsGo() {
        var c = carousel()
        c.handle(.holding(true, time: 1))
        #expect(c.nextScheduledTime == nil, "nothing planned while held")
        c.advance(to: 20)
        #expect(c.takeEvents().attractions.isEmpty, "no step during a 19 s clip")
        c.handle(.holding(false, time: 20))
        #expect(c.nextScheduledTime == 20)
        c.advance(to: 20.5)
        #expect(c.takeEvents().attractions.map(\.ms) == [20_000], "the step comes at once")
    }

    @Test func aPersonsInputDuringTheClipKeepsThePauseAfterInput() {
        var c = carousel()
        c.handle(.holding(true, time: 1))
        c.handle(.step(.next, time: 2))  // a person moves on...
        c.handle(.holding(true, time: 2.4))  // ...to another clip, which holds the show
        c.handle(.holding(false, time: 5))
        // Input at 2: resume 10 s later, then one interval: 15.
        #expect(c.nextScheduledTime == 15)
    }

    @Test func aRemotePauseOutlastsTheClip() {
        var c = carousel()
        c.handle(.autoplay(false, time: 0.5))
        c.handle(.holding(true, time: 1))
        c.handle(.holding(false, time: 4))
        #expect(c.nextScheduledTime == nil, "paused by the remote: the clip's end does not resume it")
        c.handle(.autoplay(true, time: 6))
        #expect(c.nextScheduledTime == 9)
    }
}
