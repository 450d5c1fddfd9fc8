import RealModule

/// Free scrolling (the mosaic): a released drag glides on and slows down the way
/// UIScrollView's normal deceleration does, its speed multiplied by `decayPerMillisecond`
/// each millisecond, so it coasts v × 0.499 s. A glide that would pass an end eases onto
/// that end instead (clamping, as Flutter's ClampingScrollPhysics does); a release past an
/// end, in the rubber band, returns to it.
public struct FrictionScrolling: ScrollPhysics, Hashable {
    /// UIScrollView.DecelerationRate.normal.
    public var decayPerMillisecond = 0.998
    /// A release slower than this (px/s) does not glide: the content stays.
    public var minimumVelocity = 50.0
    /// Seconds a return from past an end takes.
    public var returnDuration = 0.300

    public init() {}

    public func land(_ r: ScrollRelease) -> ScrollLanding {
        if let b = r.bounds, !b.contains(r.position) {
            let end = min(max(r.position, b.lowerBound), b.upperBound)
            return ScrollLanding(animation: SettleAnimation(from: r.position, to: end, velocity: 0, time: r.time,
                                                            fixedDuration: returnDuration))
        }
        let still = ScrollLanding(animation: SettleAnimation(from: r.position, to: r.position, velocity: 0, time: r.time),
                                  isStill: true)
        guard abs(r.velocity) >= minimumVelocity, r.unit > 0 else { return still }
        let glide = FrictionGlide(from: r.position, velocity: -r.velocity / r.unit, time: r.time,
                                  decayPerMillisecond: decayPerMillisecond, stopVelocity: minimumVelocity / 4 / r.unit)
        if let b = r.bounds, !b.contains(glide.target) {
            let end = glide.target < b.lowerBound ? b.lowerBound : b.upperBound
            // Ease onto the end, starting at the release speed: the Hermite ease keeps it
            // continuous and never overshoots.
            return ScrollLanding(animation: SettleAnimation(from: r.position, to: end, velocity: -r.velocity / r.unit,
                                                            time: r.time, fixedDuration: 3 * abs(end - r.position) / max(abs(r.velocity / r.unit), 1e-9)))
        }
        return ScrollLanding(animation: glide)
    }
}

/// A glide whose speed decays exponentially: v(t) = v₀ · k^(1000 t) for k per millisecond,
/// x(t) = x₀ + v₀ · (1 − k^(1000 t)) / λ with λ = −1000 ln k. It ends when the speed falls
/// under `stopVelocity`, at the position it would reach at that moment.
public struct FrictionGlide: ScrollAnimation, Hashable {
    public let start: Double
    public let startVelocity: Double
    public let startTime: Double
    public let endTime: Double
    public let target: Double
    /// The decay rate λ, per second.
    private let lambda: Double

    public init(from start: Double, velocity: Double, time: Double, decayPerMillisecond k: Double, stopVelocity: Double) {
        self.start = start
        self.startVelocity = velocity
        self.startTime = time
        let lambda = -1000 * Double.log(min(max(k, 1e-6), 0.999999))
        self.lambda = lambda
        let speed = abs(velocity), stop = max(stopVelocity, 1e-9)
        let duration = speed > stop ? Double.log(speed / stop) / lambda : 0
        self.endTime = time + duration
        self.target = start + velocity * (1 - Double.exp(-lambda * duration)) / lambda
    }

    public func position(at time: Double) -> Double {
        if time >= endTime { return target }
        let t = max(0, time - startTime)
        return start + startVelocity * (1 - Double.exp(-lambda * t)) / lambda
    }

    public func velocity(at time: Double) -> Double {
        if time >= endTime { return 0 }
        return startVelocity * Double.exp(-lambda * max(0, time - startTime))
    }
}
