import NIOConcurrencyHelpers

/// Frames drawn and how long each took: the run loop adds one per frame (a lock and a few
/// stores), the API reads the count, a histogram and the last minute's 99th percentile.
public final class FrameStats: Sendable {
    /// The histogram's upper bounds, seconds (Prometheus `le`).
    public static let bounds: [Double] = [0.002, 0.004, 0.008, 0.0167, 0.025, 0.033, 0.05, 0.1, 0.25]
    /// At most this many frames are kept for the last minute's percentile (60 s at 60 Hz).
    static let recentLimit = 3600

    public struct Snapshot: Sendable {
        public var count = 0
        public var sum = 0.0
        /// Frames at or under each bound, cumulative; then +Inf is `count`.
        public var buckets = [Int](repeating: 0, count: FrameStats.bounds.count)
        /// (time, seconds) of the frames of the last minute, oldest first.
        public var recent: [(Double, Double)] = []
    }

    private struct State {
        var snapshot = Snapshot()
        var ring: [(Double, Double)] = []
        var next = 0
    }

    private let state = NIOLockedValueBox(State())

    public init() {}

    /// A frame drawn at `time` (monotonic seconds) in `seconds`.
    public func add(seconds: Double, at time: Double) {
        state.withLockedValue { s in
            s.snapshot.count += 1
            s.snapshot.sum += seconds
            for (i, b) in Self.bounds.enumerated() where seconds <= b { s.snapshot.buckets[i] += 1 }
            if s.ring.count < Self.recentLimit { s.ring.append((time, seconds)) } else { s.ring[s.next] = (time, seconds) }
            s.next = (s.next + 1) % Self.recentLimit
        }
    }

    public var count: Int { state.withLockedValue { $0.snapshot.count } }

    public func snapshot() -> Snapshot {
        state.withLockedValue { s in
            var out = s.snapshot
            out.recent = s.ring.count < Self.recentLimit ? s.ring : Array(s.ring[s.next...] + s.ring[..<s.next])
            return out
        }
    }

    /// The 99th percentile of the frame times of the minute before `now`, seconds; nil
    /// without frames in it (a screen at rest draws none).
    public func p99(lastMinuteBefore now: Double) -> Double? {
        let times = snapshot().recent.filter { $0.0 > now - 60 }.map(\.1).sorted()
        guard !times.isEmpty else { return nil }
        return times[min(times.count - 1, Int((Double(times.count) * 0.99).rounded(.up)) - 1)]
    }
}
