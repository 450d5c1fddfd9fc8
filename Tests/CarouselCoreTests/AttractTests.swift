import Testing
@testable import CarouselCore

extension [ViewEvent] {
    /// Attract actions with their times, in ms to keep comparisons exact.
    var attractions: [(ms: Int, action: AttractAction, from: Int, to: Int)] {
        compactMap {
            if case .attract(let a, let f, let t) = $0.kind { (Int(($0.time * 1000).rounded()), a, f, t) } else { nil }
        }
    }
}

@Suite struct AttractTests {
    func carousel(items: Int = 5, autoplay: Double? = 3, resume: Double = 10, home: Double? = nil,
                  wrap: Bool = false, start: Int = 0) -> Carousel {
        var s = testSettings(wrap: wrap)
        s.attract.autoplayInterval = autoplay
        s.attract.idleResume = resume
        s.attract.idleHome = home
        var c = Carousel(itemCount: items, viewport: viewport, settings: s, startIndex: start)
        _ = c.takeEvents()
        return c
    }

    @Test func autoplayStepsEveryIntervalFromTheStart() {
        var c = carousel()
        #expect(c.nextScheduledTime == 3)
        c.advance(to: 2.9)
        #expect(c.takeEvents().isEmpty && c.position == 0)
        c.advance(to: 9.2)  // the third step (0.3 s) is still moving
        let events = c.takeEvents()
        #expect(events.attractions.map(\.ms) == [3000, 6000, 9000])
        #expect(events.attractions.map(\.to) == [1, 2, 3])
        #expect(events.settledIndices == [1, 2])
        #expect(c.isAnimating)
    }

    @Test func whenItActsDoesNotDependOnHowOftenTimeAdvances() {
        var coarse = carousel(), fine = carousel()
        coarse.advance(to: 20)
        var t = 0.0
        while t < 20 { t += 1.0 / 60; fine.advance(to: min(t, 20)) }
        #expect(coarse.takeEvents() == fine.takeEvents())
        #expect(coarse.position == fine.position)
    }

    @Test func aStepMovesLikeASwipeToTheNextItem() {
        var c = carousel()
        c.advance(to: 3)
        #expect(c.isAnimating && c.nextScheduledTime == nil)
        c.advance(to: 3 + SettleAnimation.minimumDuration + 0.1)
        #expect(c.position == 1 && !c.isAnimating)
        #expect(c.takeEvents().settledIndices == [1])
    }

    @Test func atTheLastItemItSlidesBackToTheFirst() {
        var c = carousel(items: 3)
        c.advance(to: 6.5)
        #expect(c.currentIndex == 2)
        _ = c.takeEvents()
        c.advance(to: 9.1)
        #expect(c.takeEvents().attractions.map(\.action) == [.rewind])
        #expect(c.isAnimating, "the slide back is seen: it takes returnDuration")
        c.advance(to: 9 + AttractSettings().returnDuration)
        #expect(c.position == 0 && !c.isAnimating)
    }

    @Test func withWrapItCarriesOnPastTheLastItem() {
        var c = carousel(items: 3, wrap: true)
        c.advance(to: 10)
        let a = c.takeEvents().attractions
        #expect(a.map(\.action) == [.next, .next, .next])
        #expect(a.map(\.to) == [1, 2, 0])
        #expect(c.position == 3, "virtual index 3 is item 0, reached going forward")
    }

    @Test func aTouchPausesItAndItResumesOneIntervalAfterTheIdleTime() {
        var c = carousel(autoplay: 3, resume: 10)
        c.tap(x: 640, at: 4)  // centred item 1 (stepped at 3)
        #expect(c.nextScheduledTime == nil || c.nextScheduledTime! > 4)
        c.advance(to: 4.5)
        _ = c.takeEvents()
        #expect(c.nextScheduledTime == 4.05 + 10 + 3)
        c.advance(to: 17)
        #expect(c.takeEvents().attractions.isEmpty, "paused for 10 s, then a whole interval: no instant jump")
        c.advance(to: 21)
        #expect(c.takeEvents().attractions.map(\.ms) == [17050, 20050])
    }

    @Test func noStepWhileAFingerIsDown() {
        var c = carousel(autoplay: 2, resume: 1)
        c.handle(.pointer(PointerEvent(.down, .finger(1), x: 640, y: 360, time: 1)))
        c.advance(to: 30)
        #expect(c.takeEvents().attractions.isEmpty)
        #expect(c.nextScheduledTime == nil)
        c.handle(.pointer(PointerEvent(.up, .finger(1), x: 640, y: 360, time: 30)))
        c.advance(to: 32.9)
        #expect(c.takeEvents().attractions.isEmpty, "the lift is input too: 1 s idle + 2 s interval")
        c.advance(to: 33.1)
        #expect(c.takeEvents().attractions.count == 1)
    }

    @Test func keysAndTheWheelAlsoPauseIt() {
        var c = carousel(autoplay: 3, resume: 10)
        c.handle(.step(.next, time: 2))
        c.handle(.scroll(1, time: 8))
        c.advance(to: 20.9)
        #expect(c.takeEvents().attractions.isEmpty)
        c.advance(to: 21.1)
        #expect(c.takeEvents().attractions.map(\.from) == [2])
    }

    @Test func idleHomeBringsTheFirstItemBackOnce() {
        var c = carousel(items: 8, autoplay: nil, home: 20, start: 0)
        c.handle(.step(.last, time: 1))
        c.advance(to: 20.9)
        #expect(c.takeEvents().attractions.isEmpty)
        c.advance(to: 21.0)
        #expect(c.takeEvents().attractions.map { [$0.ms, $0.from, $0.to] } == [[21000, 7, 0]])
        c.advance(to: 100)
        #expect(c.position == 0)
        #expect(c.takeEvents().attractions.isEmpty, "once per idle period")
        #expect(c.nextScheduledTime == nil)
    }

    @Test func idleHomeAtTheFirstItemDoesNothing() {
        var c = carousel(items: 8, autoplay: nil, home: 5)
        c.advance(to: 60)
        #expect(c.takeEvents().isEmpty)
    }

    @Test func idleHomeDoesNotResumeAPausedAutoplayEarly() {
        var c = carousel(items: 8, autoplay: 3, resume: 30, home: 10)
        c.handle(.step(.last, time: 1))
        c.advance(to: 33.9)
        #expect(c.takeEvents().attractions.map(\.action) == [.home])
        c.advance(to: 34.1)
        #expect(c.takeEvents().attractions.map { [$0.ms, $0.from, $0.to] } == [[34000, 0, 1]])
    }

    @Test func aSingleItemNeverMoves() {
        var c = carousel(items: 1, autoplay: 1, home: 1)
        c.advance(to: 10)
        #expect(c.takeEvents().isEmpty && c.nextScheduledTime == nil)
    }
}

@Suite struct AttractRestartTests {
    @Test func afterTheScreenWasOffNothingIsCaughtUp() {
        var s = testSettings()
        s.attract.autoplayInterval = 3
        var c = Carousel(itemCount: 5, viewport: viewport, settings: s)
        _ = c.takeEvents()
        // Off for an hour: 1200 steps were due; none is made, the next is an interval on.
        c.restartAttract(at: 3600)
        #expect(c.takeEvents().isEmpty && c.position == 0)
        #expect(c.nextScheduledTime == 3603)
    }
}
