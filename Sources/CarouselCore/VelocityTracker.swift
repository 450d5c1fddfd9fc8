/// Estimates a pointer's velocity along one axis from its recent samples with a
/// least-squares fit, as Flutter's and Android's velocity trackers do: robust to one
/// jittery sample, and never taken from the last two samples alone.
public struct VelocityTracker: Sendable {
    /// Samples kept (Flutter keeps 20).
    public static let capacity = 20
    /// Samples older than this before the newest are ignored, in seconds (Flutter: 100 ms).
    public static let horizon = 0.100
    /// A pause longer than this between samples means the pointer stopped (Flutter: 40 ms).
    public static let stopGap = 0.040
    /// Fewer samples than this in the horizon give no estimate (velocity 0).
    public static let minimumSamples = 3

    private var times: [Double] = []
    private var positions: [Double] = []

    public init() {}

    public mutating func reset() {
        times.removeAll(keepingCapacity: true)
        positions.removeAll(keepingCapacity: true)
    }

    /// Samples at one time are one observation, where the pointer had got to by then: a
    /// loop that read a burst of moves at once (a slow frame, a slow machine) stamps them
    /// all alike, and fitted as they were they gave any speed at all (112,000 px/s for a
    /// slow drag under software emulation; found by kiosk/vm-test).
    public mutating func add(time: Double, position: Double) {
        if let newest = times.last, time <= newest {
            positions[positions.count - 1] = position
            return
        }
        if times.count == Self.capacity {
            times.removeFirst()
            positions.removeFirst()
        }
        times.append(time)
        positions.append(position)
    }

    /// Velocity in units per second when the pointer lifts at `time`: 0 when it rested
    /// there longer than `stopGap` since the last sample. The lift's own position is not a
    /// sample (Flutter and Android do the same): it repeats the last move's position a few
    /// ms later, and a fit through it bends the end of the curve back.
    public func velocity(at time: Double) -> Double {
        guard let newest = times.last, time - newest <= Self.stopGap else { return 0 }
        return velocity
    }

    /// Velocity in units per second at the newest sample; 0 when the pointer stopped
    /// (a gap over `stopGap`) or when too few recent samples exist.
    public var velocity: Double {
        guard let newest = times.last else { return 0 }
        var ts: [Double] = []
        var xs: [Double] = []
        var previous = newest
        for i in times.indices.reversed() {
            let age = newest - times[i]
            if age > Self.horizon || previous - times[i] > Self.stopGap { break }
            ts.append(times[i] - newest)
            xs.append(positions[i])
            previous = times[i]
        }
        guard ts.count >= Self.minimumSamples else { return 0 }
        return LeastSquares.slopeAtZero(ts: ts, xs: xs)
    }
}

/// The quadratic least-squares fit x(t) = a + b t + c t² behind `VelocityTracker`.
enum LeastSquares {
    /// b, the fitted slope at t = 0; falls back to a straight-line fit when the
    /// quadratic system is singular (samples at too few distinct times).
    static func slopeAtZero(ts: [Double], xs: [Double]) -> Double {
        var s = [Double](repeating: 0, count: 5)  // Σ t^k, k = 0...4
        var r = [Double](repeating: 0, count: 3)  // Σ x t^k, k = 0...2
        for (t, x) in zip(ts, xs) {
            var p = 1.0
            for k in 0..<5 {
                s[k] += p
                if k < 3 { r[k] += x * p }
                p *= t
            }
        }
        let m = [[s[0], s[1], s[2]], [s[1], s[2], s[3]], [s[2], s[3], s[4]]]
        if let q = solve3(m, r) { return q[1] }
        let det = s[0] * s[2] - s[1] * s[1]
        guard abs(det) > 1e-18 else { return 0 }
        return (s[0] * r[1] - s[1] * r[0]) / det
    }

    /// Solves a 3×3 linear system by Cramer's rule; nil when it is (nearly) singular.
    static func solve3(_ m: [[Double]], _ r: [Double]) -> [Double]? {
        func det(_ a: [[Double]]) -> Double {
            a[0][0] * (a[1][1] * a[2][2] - a[1][2] * a[2][1])
                - a[0][1] * (a[1][0] * a[2][2] - a[1][2] * a[2][0])
                + a[0][2] * (a[1][0] * a[2][1] - a[1][1] * a[2][0])
        }
        let d = det(m)
        let scale = m[0][0] * m[1][1] * m[2][2]
        guard abs(d) > 1e-12 * max(abs(scale), 1e-30) else { return nil }
        return (0..<3).map { col in
            var mc = m
            for row in 0..<3 { mc[row][col] = r[row] }
            return det(mc) / d
        }
    }
}
