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

    /// Where autoplay goes next, and when: what a clip there is made ready for.
    @Test func autoplaysNextItemAndItsTime() {
        var c = carousel()
        #expect(c.autoplayNext == 1 && c.autoplayDue(holdEnd: nil) == 3)
        c.handle(.holding(true, time: 1))
        #expect(c.autoplayNext == 1 && c.autoplayDue(holdEnd: nil) == nil, "held, for how long not known")
        #expect(c.autoplayDue(holdEnd: 7) == 7, "held: the step comes as the clip lets go")
        c.handle(.holding(false, time: 2))
        c.advance(to: 2.1)
        c.advance(to: 4)  // settled on 1
        #expect(c.currentIndex == 1 && c.autoplayNext == 2 && c.autoplayDue(holdEnd: nil) == 5)
        // A person's input while a clip holds the show: the step waits the usual pause after it.
        c.handle(.holding(true, time: 4.5))
        c.handle(.pointer(PointerEvent(.down, .mouse, x: 10, y: 10, time: 5)))
        c.handle(.pointer(PointerEvent(.up, .mouse, x: 10, y: 10, time: 5.05)))
        #expect(c.autoplayDue(holdEnd: 7) == 5.05 + 10 + 3)
        // At the end of a strip that does not wrap, the rewind goes to the first.
        var end = carousel()
        end.handle(.step(.item(4), time: 0.1))
        end.advance(to: 1)
        #expect(end.currentIndex == 4 && end.autoplayNext == 0)
        // A wrapping strip goes on past its end.
        var s = testSettings(wrap: true)
        s.attract.autoplayInterval = 3
        var w = Carousel(itemCount: 5, viewport: viewport, settings: s, startIndex: 4)
        #expect(w.autoplayNext == 0)
        w.handle(.autoplay(false, time: 1))
        #expect(w.autoplayNext == nil && w.autoplayDue(holdEnd: 9) == nil, "paused: nowhere to go")
        // Without autoplay, nothing.
        #expect(Carousel(itemCount: 5, viewport: viewport, settings: testSettings(wrap: false), startIndex: 0).autoplayNext == nil)
    }
}

/// When the next clip is made ready (gapless clip to clip), and whether memory allows it.
@Suite struct ClipPreparationTests {
    @Test func inTheLastSecondsOnly() {
        #expect(!ClipPreparation.isDue(remaining: nil), "a clip of unknown length is not")
        #expect(!ClipPreparation.isDue(remaining: ClipPreparation.lead + 0.1))
        #expect(ClipPreparation.isDue(remaining: ClipPreparation.lead))
        #expect(ClipPreparation.isDue(remaining: 0))
        #expect(!ClipPreparation.isDue(remaining: .infinity))
    }

    /// Measured figures: a 1 GB board (960 MB total), a 4K HEVC 10-bit clip's helper about
    /// 360 MB, a 1080p H.264 one about 120 MB.
    @Test func aSecondHelperOnlyWhereItFits() {
        let mb = 1 << 20
        // The board playing a 4K 10-bit clip: about 450 MB left; another such helper would
        // leave 90 MB.
        #expect(!ClipPreparation.memoryAllows(availableBytes: 450 * mb, totalBytes: 960 * mb, helperBytes: 360 * mb))
        // The board playing 1080p: two of those fit with 256 MB to spare.
        #expect(ClipPreparation.memoryAllows(availableBytes: 700 * mb, totalBytes: 960 * mb, helperBytes: 120 * mb))
        // A desktop of 16 GB keeps a quarter free, and has plenty beyond it.
        #expect(ClipPreparation.reserve(totalBytes: 16_384 * mb) == 4_096 * mb)
        #expect(ClipPreparation.memoryAllows(availableBytes: 12_000 * mb, totalBytes: 16_384 * mb, helperBytes: 450 * mb))
        #expect(!ClipPreparation.memoryAllows(availableBytes: 4_200 * mb, totalBytes: 16_384 * mb, helperBytes: 450 * mb))
    }
}
