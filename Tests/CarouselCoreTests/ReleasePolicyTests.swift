import Testing
@testable import CarouselCore

@Suite struct ReleasePolicyTests {
    let stride = 640.0

    /// Starting at rest on item 4; finger travel and velocity in px (negative = leftwards = next).
    @Test(arguments: [
        (-100.0, -1000.0, ReleaseDecision.swipe, 5),
        (100, 1000, .swipe, 3),
        (-319.9, -300, .swipe, 5),        // just under half a stride, exactly the flick velocity
        (-320, -1000, .fling, 5),         // exactly half a stride: a fling, not a swipe
        (-100, -299.9, .realign, 4),      // too slow
        (-100, 1000, .realign, 4),        // quick, but against the drag
        (-400, -100, .realign, 5),        // slow and past the middle: nearest item
        (-300, -100, .realign, 4),
        (0, 0, .realign, 4),
    ])
    func decision(travel: Double, velocity: Double, decision: ReleaseDecision, target: Int) {
        let p = ReleasePolicy()
        let position = 4 - travel / stride
        let result = p.decide(position: position, startPosition: 4, travel: travel,
                              velocity: velocity, stride: stride)
        #expect(result.0 == decision)
        #expect(result.target == target)
    }

    @Test func flingFollowsMomentum() {
        var p = ReleasePolicy()
        // 0.6 stride dragged, released at 3000 px/s: coasts 3000 × 0.499 = 1497 px ≈ 2.34 items.
        let r = p.decide(position: 4.6, startPosition: 4, travel: -384, velocity: -3000, stride: stride)
        #expect(r.0 == .fling && r.target == 7)
        p.maxFlingItems = 1
        #expect(p.decide(position: 4.6, startPosition: 4, travel: -384, velocity: -3000, stride: stride).target == 5)
        p.maxFlingItems = 2
        #expect(p.decide(position: 4.6, startPosition: 4, travel: -384, velocity: -3000, stride: stride).target == 6)
    }

    @Test func flingIsNeverShortOfTheNextItem() {
        // Little momentum: the projection alone (4.3 + 0.02) would round back to item 4.
        var p = ReleasePolicy()
        p.momentumSeconds = 0.05
        let r = p.decide(position: 4.3, startPosition: 3.8, travel: -320, velocity: -301, stride: stride)
        #expect(r.0 == .fling && r.target == 5)
    }

    @Test func flingBackwards() {
        let r = ReleasePolicy().decide(position: 3.3, startPosition: 4, travel: 448,
                                       velocity: 2000, stride: stride)
        // 3.3 - 2000 × 0.499 / 640 = 1.74 → 2
        #expect(r.0 == .fling && r.target == 2)
    }
}
