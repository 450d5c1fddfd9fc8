import Foundation
import NIOConcurrencyHelpers

/// The one control part both transports (HTTP, MQTT) stand on: the requests into the run
/// loop (`inbox`), the state it publishes, frame and event figures, and the answers built
/// from them. Lives on no thread of its own; every member may be used from any thread.
public final class ControlDesk: Sendable {
    public let inbox: ControlInbox
    public let frames = FrameStats()
    public let feed = EventFeed()
    public let version: String
    /// Figures of the process, read when asked (RSS, decoder restarts, ...).
    public let figures: @Sendable () -> ProcessFigures
    /// An RGBA frame as PNG bytes, scaled down to a width if given.
    public let encodePNG: @Sendable (_ width: Int, _ height: Int, _ rgba: [UInt8], _ scaledTo: Int?) -> [UInt8]?
    /// The program's one clock (the run loop's), which MQTT's pacing reads too.
    let clock: @Sendable () -> Double
    private let started: Double
    private let shown = NIOLockedValueBox(ShowState())
    private let refusedTokens = NIOLockedValueBox(0)
    private let watchers = NIOLockedValueBox<[@Sendable (ShowState) -> Void]>([])

    /// Heavy work (screenshots), on a thread below the drawing's priority.
    let worker: BackgroundWorker
    /// Runs first on each thread of the control part (lowers its priority below drawing's).
    public let threadSetUp: @Sendable () -> Void

    public init(version: String, clock: @escaping @Sendable () -> Double, wake: @escaping @Sendable () -> Void,
                figures: @escaping @Sendable () -> ProcessFigures,
                encodePNG: @escaping @Sendable (Int, Int, [UInt8], Int?) -> [UInt8]?,
                threadSetUp: @escaping @Sendable () -> Void = {}) {
        self.worker = BackgroundWorker(setUp: threadSetUp)
        self.threadSetUp = threadSetUp
        self.version = version
        self.clock = clock
        self.started = clock()
        self.inbox = ControlInbox(wake: wake)
        self.figures = figures
        self.encodePNG = encodePNG
    }

    // MARK: - The run loop's side

    /// The loop's state after a change; watchers (MQTT) hear of real changes only.
    public func publish(_ state: ShowState) {
        let changed = shown.withLockedValue { old -> Bool in
            guard old != state else { return false }
            old = state
            return true
        }
        guard changed else { return }
        for w in watchers.withLockedValue({ $0 }) { w(state) }
    }

    public var state: ShowState { shown.withLockedValue { $0 } }

    /// Called with every published change, on the publishing thread (keep it short).
    public func watch(_ f: @escaping @Sendable (ShowState) -> Void) {
        watchers.withLockedValue { $0.append(f) }
    }

    // MARK: - Answers

    /// A frame the run loop read back, as PNG bytes scaled down to `width` if given (on the
    /// caller's thread: the worker's).
    func png(width w: Int, height h: Int, pixels: [UInt8], bgra: Bool, scaledTo width: Int?) -> [UInt8]? {
        encodePNG(w, h, bgra ? Self.swapRedAndBlue(pixels) : pixels, width)
    }

    /// BGRX (the software renderer's frame) to opaque RGBA.
    public static func swapRedAndBlue(_ pixels: [UInt8]) -> [UInt8] {
        var out = pixels
        out.withUnsafeMutableBufferPointer { p in
            var i = 0
            while i + 3 < p.count {
                let b = p[i]
                p[i] = p[i + 2]
                p[i + 2] = b
                p[i + 3] = 255
                i += 4
            }
        }
        return out
    }

    private let readbacks = NIOLockedValueBox((count: 0, seconds: 0.0))

    /// The run loop spent `seconds` reading a frame back for screenshots.
    public func noteReadback(seconds: Double) { readbacks.withLockedValue { $0.count += 1; $0.seconds += seconds } }

    /// A request refused for want of the right token (counted for `/metrics`).
    public func noteRefusedToken() { refusedTokens.withLockedValue { $0 += 1 } }

    /// `GET /status`'s body.
    public func statusJSON() -> [UInt8] {
        // The frames before the state, the reverse of the run loop's order (it publishes a
        // pass's state, then counts its frame): a status that counts a frame then shows at
        // least what that frame showed. Read the other way round, a status taken during the
        // first pass said 2 frames drawn of a show of 0 pictures (seen in CI under load).
        let now = clock(), drawn = frames.count
        let p99 = frames.p99(lastMinuteBefore: now)
        let s = state, f = figures(), counts = feed.counts
        let body = StatusBody(
            version: version, uptime_s: ((now - started) * 10).rounded() / 10, view: s.view, index: s.index, count: s.count,
            source: s.source, paired: s.paired, title: s.title, caption: s.caption, playing: s.playing,
            screen: .init(on: s.screenOn, reason: s.screenReason, brightness: s.brightness,
                          tv: s.tv.map { .init(answers: $0.answers, power: $0.power, address: $0.address, shows_this_screen: $0.showsThisScreen) }),
            sources: f.sources.map { .init(url: $0.url, state: $0.state, last_success: $0.lastSuccess.map(Self.iso8601)) },
            pictures_failed: counts.failed.values.reduce(0, +), pictures_skipped: f.picturesSkipped, decoder_restarts: f.helperRestarts,
            rss_bytes: f.rssBytes, frames_drawn: drawn,
            frame_time_p99_ms: p99.map { ($0 * 10000).rounded() / 10 },
            video: counts.videoState.map { .init(state: $0, index: counts.videoIndex) }, videos: counts.videos,
            group: s.group.map { .init(name: $0.name, screen: $0.screen, epoch: Self.iso8601($0.epoch), commands: $0.linked ? "group" : "local",
                                       clock_offset_ms: $0.clockOffset.map { ($0 * 10_000).rounded() / 10 },
                                       clock_error_ms: $0.clockError.map { ($0 * 10_000).rounded() / 10 },
                                       clock_synchronised: $0.clockSynchronised, clock_problem: $0.clockProblem) })
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return Array((try? encoder.encode(body)) ?? Data("{}".utf8)) + [0x0a]
    }

    struct StatusBody: Encodable {
        struct Screen: Encodable { var on: Bool; var reason: String; var brightness: Double?; var tv: TV? }
        /// `--cec`: whether the TV answers, its power, the screen's HDMI address, and whether
        /// the TV shows it.
        struct TV: Encodable { var answers: Bool?; var power: String?; var address: String?; var shows_this_screen: Bool }
        struct Source: Encodable { var url: String; var state: String; var last_success: String? }
        var version: String, uptime_s: Double, view: String, index: Int?, count: Int
        var source: String?, paired: String?, title: String?, caption: String?, playing: Bool
        var screen: Screen, sources: [Source], pictures_failed: Int, pictures_skipped: Int, decoder_restarts: Int
        var rss_bytes: Int, frames_drawn: Int, frame_time_p99_ms: Double?
        /// The last clip's state (`playing`, `ended`, `failed`, `stopped`) and index.
        struct Video: Encodable { var state: String; var index: Int? }
        var video: Video?
        var videos: EventFeed.Videos
        /// `--group`: its name, this screen's id, the epoch held, and whether commands
        /// reach the group (`group`) or stay here while the broker is away (`local`).
        /// The clock: this host's minus the group's, whether NTP keeps it, and whether either
        /// is a problem (more than a frame off, or not kept).
        struct Group: Encodable {
            var name: String, screen: String, epoch: String, commands: String
            var clock_offset_ms: Double?, clock_error_ms: Double?, clock_synchronised: Bool?, clock_problem: Bool
        }
        var group: Group?
    }

    static func iso8601(_ seconds: Double) -> String {
        let f = ISO8601DateFormatter()
        return f.string(from: Date(timeIntervalSince1970: seconds.rounded()))
    }

    /// `GET /metrics`'s body: Prometheus' text format.
    public func metricsText() -> String {
        // Frames first, then the state, as in `statusJSON`.
        let fs = frames.snapshot()
        let s = state, f = figures(), counts = feed.counts
        var m = PrometheusText()
        m.gauge("carousel_up", "1 while the program runs.", 1)
        m.gauge("carousel_uptime_seconds", "Seconds since the program started.", ((clock() - started) * 10).rounded() / 10)
        m.gauge("carousel_screen_on", "1 while the screen is on.", s.screenOn ? 1 : 0)
        m.gauge("carousel_playing", "1 while autoplay runs.", s.playing ? 1 : 0)
        m.gauge("carousel_current_index", "The item in focus, counted from 0; -1 when there is none.", Double(s.index ?? -1))
        m.gauge("carousel_pictures", "Pictures in the show.", Double(s.count))
        m.histogram("carousel_frame_seconds", "Time from waking to the frame shown.",
                    bounds: FrameStats.bounds, buckets: fs.buckets, count: fs.count, sum: fs.sum)
        m.counter("carousel_pictures_failed_total", "Pictures that could not be shown, by kind of reason.",
                  labelled: "reason", counts.failed.mapValues(Double.init))
        m.counter("carousel_videos_total", "Clips that started playing, ended and failed.", labelled: "outcome",
                  ["started": Double(counts.videos.started), "ended": Double(counts.videos.ended), "failed": Double(counts.videos.failed)])
        m.counter("carousel_video_frames_total", "Frames of the clips played: shown, dropped (passed over, late), shown late.",
                  labelled: "kind", ["shown": Double(counts.videos.frames_shown), "dropped": Double(counts.videos.frames_dropped),
                                     "late": Double(counts.videos.frames_late)])
        m.counter("carousel_downloads_failed_total", "Downloads that failed (once per URL and reason until it works).", Double(counts.downloadsFailed))
        m.gauge("carousel_source_online", "1 for a web source last reached, 0 for one offline.",
                labelled: "url", Dictionary(f.sources.map { ($0.url, $0.state == "online" ? 1.0 : 0) }) { a, _ in a })
        m.counter("carousel_decoder_restarts_total", "Decoder helper processes started again after one died or was stopped.", Double(f.helperRestarts))
        m.gauge("carousel_resident_memory_bytes", "Resident memory of the main process.", Double(f.rssBytes))
        m.counter("carousel_control_unauthorized_total", "Control requests refused for want of the right token.",
                  Double(refusedTokens.withLockedValue { $0 }))
        let rb = readbacks.withLockedValue { $0 }
        m.counter("carousel_screenshot_readback_seconds_total", "Time the run loop spent reading frames back for screenshots.", rb.seconds)
        m.counter("carousel_screenshot_readbacks_total", "Frames read back for screenshots.", Double(rb.count))
        if let g = s.group {
            m.gauge("carousel_group_linked", "1 while commands reach the group (the broker holds the connection).", g.linked ? 1 : 0)
            if let o = g.clockOffset { m.gauge("carousel_group_clock_offset_seconds", "This host's clock minus the group's.", o) }
            m.gauge("carousel_group_clock_problem", "1 while the clock is more than a frame from the group's or not kept by NTP.", g.clockProblem ? 1 : 0)
        }
        for extra in f.counters { m.counter(extra.name, extra.help, extra.value) }
        return m.text
    }
}

/// Figures of the process the control part reports but does not keep.
public struct ProcessFigures: Sendable {
    public var rssBytes = 0
    public var helperRestarts = 0
    /// Pictures the last scan left out (`--skip`).
    public var picturesSkipped = 0
    /// Each web source: URL, `online`/`offline`/..., when its server last answered (seconds since 1970).
    public var sources: [(url: String, state: String, lastSuccess: Double?)] = []
    /// More counters (name, help, value) from the image pipeline.
    public var counters: [(name: String, help: String, value: Double)] = []
    public init() {}
}
