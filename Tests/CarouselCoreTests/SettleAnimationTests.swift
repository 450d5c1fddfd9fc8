import Testing
@testable import CarouselCore

@Suite struct SettleAnimationTests {
    @Test(arguments: [0.1, 0.5, 1.0, 2.0, 7.0])
    func durationGrowsWithDistanceWithinBounds(distance: Double) {
        let a = SettleAnimation(from: 0, to: distance, velocity: 0, time: 0)
        #expect(a.duration >= 0.25 && a.duration <= 0.45)
        let b = SettleAnimation(from: 0, to: distance + 0.3, velocity: 0, time: 0)
        #expect(b.duration >= a.duration)
    }

    @Test(arguments: [-5.0, 0, 1, 3, 12, 40])
    func startsWhereTheStripIsEndsOnTargetAndNeverOvershoots(velocity: Double) {
        let a = SettleAnimation(from: 4.3, to: 5, velocity: velocity, time: 10)
        #expect(a.position(at: 10) == 4.3)
        #expect(a.position(at: 10 + a.duration) == 5)
        #expect(a.isDone(at: 10 + a.duration) && !a.isDone(at: 10 + a.duration / 2))
        var previous = 4.3
        for i in 0...100 {
            let p = a.position(at: 10 + a.duration * Double(i) / 100)
            #expect(p <= 5 + 1e-12, "overshoot at step \(i)")
            #expect(p >= previous - 1e-12, "moves one way only")
            previous = p
        }
    }

    @Test func continuesTheReleaseVelocity() {
        // 3 items/s towards a target 0.7 items away is within the no-overshoot limit.
        let a = SettleAnimation(from: 4.3, to: 5, velocity: 3, time: 0)
        #expect(abs(a.velocity(at: 0) - 3) < 1e-9)
        #expect(abs(a.velocity(at: a.duration)) < 1e-9)
    }

    @Test func backwardsToo() {
        let a = SettleAnimation(from: 5.4, to: 3, velocity: -4, time: 0)
        #expect(abs(a.velocity(at: 0) + 4) < 1e-9)
        for i in 0...50 { #expect(a.position(at: a.duration * Double(i) / 50) >= 3 - 1e-12) }
    }
}
