import Testing
@testable import CarouselCore

@Suite struct VelocityTrackerTests {
    /// Samples of a pointer moving at `v` px/s, every `dt` seconds, for `count` samples.
    func track(v: Double, dt: Double = 0.008, count: Int = 13, jitterAt: Int? = nil,
               jitter: Double = 0) -> VelocityTracker {
        var tracker = VelocityTracker()
        for i in 0..<count {
            let t = Double(i) * dt
            tracker.add(time: t, position: 100 + v * t + (i == jitterAt ? jitter : 0))
        }
        return tracker
    }

    @Test(arguments: [-2500.0, -400, 0, 300, 1800])
    func constantVelocityIsExact(v: Double) {
        #expect(abs(track(v: v).velocity - v) < 1e-6)
    }

    @Test(arguments: [3, 6, 9, 12])
    func oneJitterySampleMovesTheEstimateLittle(index: Int) {
        // A 6 px glitch at 8 ms spacing would read as ±750 px/s from two samples alone.
        let v = track(v: 1000, jitterAt: index, jitter: 6).velocity
        #expect(abs(v - 1000) < 250, "sample \(index): \(v) px/s")
        let naive = 6 / 0.008
        #expect(abs(v - 1000) < naive / 2)
    }

    @Test func aRestBeforeLiftingMeansZero() {
        let tracker = track(v: 1500)
        // The last sample is at 96 ms; lifting 60 ms later means the finger had stopped.
        #expect(tracker.velocity(at: 0.096 + 0.060) == 0)
        #expect(abs(tracker.velocity(at: 0.096 + 0.020) - 1500) < 1e-6, "a lift right after moving keeps it")
    }

    @Test func aRestInsideTheSamplesMeansZero() {
        var tracker = track(v: 1500)
        // A 50 ms pause, then one small move: the samples before the pause no longer count.
        tracker.add(time: 0.146, position: 100 + 1500 * 0.096 + 1)
        #expect(tracker.velocity == 0)
    }

    /// A trace recorded under Xvfb from xdotool: SDL delivered two moves with one timestamp
    /// and the lift 21 ms after the last move, at the same place.
    @Test func recordedXdotoolTraceIsLeftwards() {
        var tracker = VelocityTracker()
        for (t, x) in [(1.983, 800.0), (2.022, 780), (2.022, 760), (2.029, 740), (2.053, 720), (2.075, 700)] {
            tracker.add(time: t, position: x)
        }
        let v = tracker.velocity(at: 2.096)
        #expect(v < -300, "a quick leftward drag: \(v) px/s")
    }

    /// A slow machine read a whole leftward drag in one go: moves with one timestamp after
    /// a few earlier samples. They are one observation, where the pointer got to: fitted
    /// as separate samples they read as a fast fling the wrong way (+112,000 px/s under
    /// software emulation, found by kiosk/vm-test).
    @Test func aBurstWithOneTimestampIsOneSample() {
        var tracker = VelocityTracker()
        for (t, x) in [(1.000, 900.0), (1.010, 890), (1.020, 880)] { tracker.add(time: t, position: x) }
        for i in 1...58 { tracker.add(time: 1.030, position: 880 - Double(i) * 10) }
        #expect(tracker.velocity(at: 1.030) < 0, "leftwards: \(tracker.velocity(at: 1.030)) px/s")
        // The same as if only the burst's last position had come.
        var single = VelocityTracker()
        for (t, x) in [(1.000, 900.0), (1.010, 890), (1.020, 880), (1.030, 300)] { single.add(time: t, position: x) }
        #expect(tracker.velocity(at: 1.030) == single.velocity(at: 1.030))
    }

    @Test func samplesOlderThanTheHorizonDoNotCount() {
        var tracker = VelocityTracker()
        var x = 0.0, t = 0.0
        for _ in 0..<10 { t += 0.008; x += 0.008 * 3000; tracker.add(time: t, position: x) }  // fast
        for _ in 0..<15 { t += 0.008; x += 0.008 * 200; tracker.add(time: t, position: x) }   // then slow for 120 ms
        #expect(abs(tracker.velocity - 200) < 1e-6)
    }

    @Test func tooFewSamplesGiveNoEstimate() {
        var tracker = VelocityTracker()
        tracker.add(time: 0, position: 0)
        tracker.add(time: 0.01, position: 20)
        #expect(tracker.velocity == 0, "never from the last two samples alone")
    }

    @Test func keepsAtMostTwentySamples() {
        // 40 samples at 2 ms: the fit only sees the newest 20 (38 ms), which move at 500 px/s.
        var tracker = VelocityTracker()
        for i in 0..<40 {
            let t = Double(i) * 0.002
            tracker.add(time: t, position: i < 20 ? 0 : 500 * (t - 0.038))
        }
        #expect(abs(tracker.velocity - 500) < 1e-6)
    }
}
