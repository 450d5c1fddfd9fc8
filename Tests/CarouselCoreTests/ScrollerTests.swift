import Foundation
import Testing
@testable import CarouselCore

/// The scroller every view shares, with the mosaic's friction physics and the carousel's paging.
@Suite struct ScrollerTests {
    /// A wall 10,000 px long in a viewport 1,000 px high: one unit is one pixel.
    func wall(at position: Double = 5000) -> Scroller {
        Scroller(position: position, unit: 1, bounds: 0...9000, viewportLength: 1000)
    }

    /// Drags by `travel` px and lets go at `velocity` px/s at time 0.
    func fling(_ s: inout Scroller, travel: Double, velocity: Double,
               physics: some ScrollPhysics = FrictionScrolling()) -> ScrollLanding? {
        s.press()
        s.drag(travel: travel)
        return s.release(travel: travel, velocity: velocity, time: 0, physics: physics)
    }

    @Test func aFlingGlidesAsFarAsUIScrollViewsDecelerationCarriesIt() throws {
        for v in [-500.0, -2000, -6000, 3000] {
            var s = wall()
            let travel = v < 0 ? -20.0 : 20.0
            let flung = fling(&s, travel: travel, velocity: v)
            let landing = try #require(flung)
            let a = try #require(s.animation)
            #expect(!landing.isStill)
            // Coasting with the speed × 0.998 each ms goes v / (−1000 ln 0.998) ≈ v × 0.4995 s,
            // less the little left when the glide stops (under 12.5 px/s, so under 6.3 px).
            let ideal = -v / (-1000 * log(0.998))
            let start = 5000 - travel
            #expect(abs((a.target - start) - ideal) < 6.3, "v \(v): went \(a.target - start), ideal \(ideal)")
            // Slows down all the way and never turns back.
            var last = start, lastSpeed = Double.infinity
            for t in stride(from: 0.0, through: a.endTime + 0.1, by: 0.016) {
                let p = a.position(at: t), speed = abs(a.velocity(at: t))
                #expect((p - last) * -v >= 0, "moved against the fling at \(t)")
                #expect(speed <= lastSpeed)
                (last, lastSpeed) = (p, speed)
            }
            #expect(a.position(at: a.endTime) == a.target)
            #expect(s.finishIfDone(at: a.endTime) != nil && s.position == a.target && !s.isAnimating)
        }
    }

    @Test func aFlingTowardsAnEndStopsExactlyThereWithoutOvershooting() throws {
        var s = wall(at: 8800)
        _ = fling(&s, travel: -30, velocity: -5000)  // would coast about 2,500 px
        let a = try #require(s.animation)
        #expect(a.target == 9000)
        #expect(abs(a.velocity(at: 0) - 5000) < 1e-6, "it leaves at the finger's speed")
        for t in stride(from: 0.0, through: a.endTime, by: 0.004) {
            #expect(a.position(at: t) <= 9000)
        }
        var top = wall(at: 100)
        _ = fling(&top, travel: 30, velocity: 4000)
        #expect(top.animation?.target == 0)
    }

    @Test func aSlowReleaseStaysAndAReleaseInTheRubberBandReturnsToTheEnd() throws {
        var s = wall()
        let slow = fling(&s, travel: -30, velocity: -20)
        let still = try #require(slow)
        #expect(still.isStill && !s.isAnimating && s.position == 5030)

        var over = wall(at: 50)
        over.press()
        over.drag(travel: 400)  // 350 px past the top
        #expect(over.position < 0)
        _ = over.release(travel: 400, velocity: 0, time: 1, physics: FrictionScrolling())
        let back = try #require(over.animation)
        #expect(back.target == 0)
        #expect(abs(back.endTime - 1.3) < 1e-9)
    }

    @Test func pastAnEndTheContentFollowsTheFingerLessAndNeverBeyondOneViewport() {
        var s = wall(at: 0)
        s.press()
        var shown: [Double] = []
        for travel in stride(from: 0.0, through: 20_000, by: 250) {
            s.drag(travel: travel)
            shown.append(-s.position)
            #expect(-s.position == RubberBand.damped(travel, dimension: 1000))
            #expect(-s.position < 1000)
        }
        #expect(zip(shown, shown.dropFirst()).allSatisfy { $0 < $1 }, "further out still moves, less")
        // Within the bounds it follows one to one.
        var inside = wall()
        inside.press()
        inside.drag(travel: -123)
        #expect(inside.position == 5123)
    }

    @Test func pagingLandsOnTheItemTheReleaseRuleChooses() throws {
        // The carousel's units: one item per 400 px stride, items 0...9.
        var s = Scroller(position: 3, unit: 400, bounds: 0...9, viewportLength: 1280)
        s.press()
        s.drag(travel: -60)
        let released = s.release(travel: -60, velocity: -900, time: 0, physics: PageSnapping())
        let landing = try #require(released)
        #expect(landing.decision == .swipe)
        #expect(landing.animation.target == 4)
        var end = Scroller(position: 9, unit: 400, bounds: 0...9, viewportLength: 1280)
        end.press()
        end.drag(travel: -300)
        #expect(end.release(travel: -300, velocity: -4000, time: 0, physics: PageSnapping())?.animation.target == 9,
                "a fling past the last item lands on it")
    }

    @Test func aNewUnitWhileAFingerIsDownKeepsTheContentUnderIt() {
        var s = Scroller(position: 2, unit: 400, bounds: 0...9, viewportLength: 1280)
        s.press()
        s.drag(travel: -200)
        #expect(s.position == 2.5)
        s.setUnit(800, viewportLength: 2560)
        #expect(s.position == 2.5)
        s.drag(travel: -600)
        #expect(s.position == 3, "400 px more at 800 px a unit")
    }
}
