import NIOConcurrencyHelpers

/// The event log as the control part hears it: every line goes on to the followers of
/// `GET /events`, and the events that count are counted (pictures failed by reason,
/// downloads failed).
public final class EventFeed: Sendable {
    /// Followers at most; one more is refused (429).
    public static let followerLimit = 8

    public struct Counts: Sendable {
        /// `load_failed` by the kind of reason (`ReasonKind`).
        public var failed: [String: Int] = [:]
        public var downloadsFailed = 0
        public var events = 0
    }

    private struct State {
        var counts = Counts()
        var followers: [Int: @Sendable (String) -> Void] = [:]
        var nextID = 0
    }

    private let state = NIOLockedValueBox(State())

    public init() {}

    /// One event: its type, its fields as strings and numbers, and its JSON line.
    public func record(type: String, fields: [(String, String)], line: String) {
        let followers = state.withLockedValue { s -> [@Sendable (String) -> Void] in
            s.counts.events += 1
            switch type {
            case "load_failed":
                let reason = fields.first { $0.0 == "reason" }?.1 ?? ""
                s.counts.failed[Self.kind(ofReason: reason), default: 0] += 1
            case "download_failed":
                s.counts.downloadsFailed += 1
            default: break
            }
            return Array(s.followers.values)
        }
        for f in followers { f(line) }
    }

    public var counts: Counts { state.withLockedValue { $0.counts } }

    /// Streams following now.
    var followerCount: Int { state.withLockedValue { $0.followers.count } }

    /// Adds a follower of every line from now on; nil when there are `followerLimit` already.
    public func follow(_ receive: @escaping @Sendable (String) -> Void) -> Int? {
        state.withLockedValue { s in
            guard s.followers.count < Self.followerLimit else { return nil }
            s.nextID += 1
            s.followers[s.nextID] = receive
            return s.nextID
        }
    }

    public func unfollow(_ id: Int) {
        _ = state.withLockedValue { $0.followers.removeValue(forKey: id) }
    }

    /// A failure's reason in a few kinds, for a metric's label (the reasons themselves are
    /// free text naming files).
    static func kind(ofReason r: String) -> String {
        let s = r.lowercased()
        if s.contains("deadline") || s.contains("took longer") || s.contains("timed out") { return "timeout" }
        if s.contains("memory") || s.contains("too large") || s.contains("larger than") { return "too_large" }
        if s.contains("crash") || s.contains("signal") || s.contains("helper") { return "helper_crashed" }
        if s.contains("not an image") || s.contains("unsupported") || s.contains("not supported") { return "unsupported" }
        if s.contains("cannot be read") || s.contains("no such file") || s.contains("permission") || s.contains("cannot be opened") { return "unreadable" }
        if s.contains("corrupt") || s.contains("truncated") || s.contains("invalid") || s.contains("damaged") { return "corrupt" }
        return "other"
    }
}
