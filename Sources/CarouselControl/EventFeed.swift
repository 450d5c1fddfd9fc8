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
        /// Clips: started, ended, failed; their frames shown, dropped and late (summed from
        /// `frames_dropped` as each clip stops).
        public var videos = Videos()
        /// The last clip event: `playing` (video_started), `ended`, `failed`, `stopped`
        /// (frames_dropped, the strip moved on); nil before any.
        public var videoState: String?
        /// The clip it was about (its index).
        public var videoIndex: Int?
    }

    public struct Videos: Sendable, Equatable, Encodable {
        public var started = 0, ended = 0, failed = 0
        public var frames_shown = 0, frames_dropped = 0, frames_late = 0
    }

    private struct State {
        var counts = Counts()
        var followers: [Int: @Sendable (String) -> Void] = [:]
        var nextID = 0
        /// Told when a clip event changed the counts (MQTT publishes the clip's state).
        var videoWatchers: [@Sendable () -> Void] = []
    }

    private let state = NIOLockedValueBox(State())

    public init() {}

    /// One event: its type, its fields as strings and numbers, and its JSON line.
    public func record(type: String, fields: [(String, String)], line: String) {
        var video = false
        let followers = state.withLockedValue { s -> [@Sendable (String) -> Void] in
            s.counts.events += 1
            switch type {
            case "load_failed":
                let reason = fields.first { $0.0 == "reason" }?.1 ?? ""
                s.counts.failed[Self.kind(ofReason: reason), default: 0] += 1
            case "download_failed":
                s.counts.downloadsFailed += 1
            case "video_started", "video_ended", "video_failed", "frames_dropped":
                func number(_ name: String) -> Int { fields.first { $0.0 == name }.flatMap { Int($0.1) } ?? 0 }
                switch type {
                case "video_started": s.counts.videos.started += 1; s.counts.videoState = "playing"
                case "video_ended": s.counts.videos.ended += 1; s.counts.videoState = "ended"
                case "video_failed": s.counts.videos.failed += 1; s.counts.videoState = "failed"
                default:
                    s.counts.videos.frames_shown += number("shown")
                    s.counts.videos.frames_dropped += number("dropped")
                    s.counts.videos.frames_late += number("late")
                    if s.counts.videoState == "playing" { s.counts.videoState = "stopped" }
                }
                s.counts.videoIndex = fields.first { $0.0 == "index" }.flatMap { Int($0.1) }
                video = true
            default: break
            }
            return Array(s.followers.values)
        }
        for f in followers { f(line) }
        if video { for w in state.withLockedValue({ $0.videoWatchers }) { w() } }
    }

    /// Calls `f` (on the recording thread: keep it short) after each clip event.
    public func watchVideo(_ f: @escaping @Sendable () -> Void) {
        state.withLockedValue { $0.videoWatchers.append(f) }
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
