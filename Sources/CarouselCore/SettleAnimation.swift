/// An ease-out from where the strip is to a target item, continuing from the current
/// velocity without a jump and never overshooting the target.
///
/// The curve is a cubic Hermite segment: position and velocity match at the start, the
/// velocity is zero at the end. Clamping the start velocity to [0, 3·distance/duration]
/// towards the target keeps the segment monotone (Fritsch–Carlson), hence no overshoot.
public struct SettleAnimation: Hashable, Sendable {
    public let start: Double
    public let target: Double
    /// Items per second at the start, after clamping.
    public let startVelocity: Double
    public let startTime: Double
    public let duration: Double

    /// Shortest settle, seconds: quick enough to feel direct, long enough to be seen.
    public static let minimumDuration = 0.250
    /// Longest settle, seconds, reached at `distanceForLongest` items and beyond.
    public static let maximumDuration = 0.450
    public static let distanceForLongest = 2.0

    /// - Parameter fixedDuration: seconds, instead of the one that grows with the distance.
    public init(from start: Double, to target: Double, velocity: Double, time: Double, fixedDuration: Double? = nil) {
        self.start = start
        self.target = target
        self.startTime = time
        let distance = target - start
        let span = min(abs(distance), Self.distanceForLongest) / Self.distanceForLongest
        self.duration = fixedDuration.map { max($0, 0.001) }
            ?? Self.minimumDuration + (Self.maximumDuration - Self.minimumDuration) * span
        // Velocity towards the target only, at most 3·distance/duration.
        let limit = 3 * abs(distance) / duration
        let towards = distance >= 0 ? velocity : -velocity
        let clamped = min(max(towards, 0), limit)
        self.startVelocity = distance >= 0 ? clamped : -clamped
    }

    public func isDone(at time: Double) -> Bool { time >= startTime + duration }

    public func position(at time: Double) -> Double {
        let u = progress(time)
        let h00 = 2 * u * u * u - 3 * u * u + 1
        let h10 = u * u * u - 2 * u * u + u
        let h01 = -2 * u * u * u + 3 * u * u
        return h00 * start + h10 * duration * startVelocity + h01 * target
    }

    /// Items per second.
    public func velocity(at time: Double) -> Double {
        let u = progress(time)
        let d00 = 6 * u * u - 6 * u
        let d10 = 3 * u * u - 4 * u + 1
        let d01 = -6 * u * u + 6 * u
        return (d00 * start + d01 * target) / duration + d10 * startVelocity
    }

    private func progress(_ time: Double) -> Double {
        min(max((time - startTime) / duration, 0), 1)
    }
}
