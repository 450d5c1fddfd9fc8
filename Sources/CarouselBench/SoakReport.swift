import CarouselApp
import Foundation

/// What `carousel bench --soak` found: trends rather than peaks. Printed as a table, or as
/// JSON with `--json`.
struct SoakReport: Codable, Sendable {
    /// One reading of the program under test and its helpers, `t` seconds into the run.
    struct Sample: Codable, Sendable, Equatable {
        var t: Double
        var rssMB: Double
        var helpersRSSMB: Double
        var helpers: Int
        var fds: Int
        var threads: Int
        var frames: Int
        var decoded: Int
        var failed: Int
        /// The window's size at the time, "WxH".
        var size: String = ""
        enum CodingKeys: String, CodingKey {
            case t, helpers, fds, threads, frames, decoded, failed, size
            case rssMB = "rss_mb", helpersRSSMB = "helpers_rss_mb"
        }
    }

    /// Frame times and work over one stretch of the run.
    struct Interval: Codable, Sendable, Equatable {
        var startS: Double
        var endS: Double
        var frames: Int
        var p99Ms: Double?
        var maxMs: Double?
        var over16ms: Int
        var decoded: Int
        var failed: Int
        enum CodingKeys: String, CodingKey {
            case frames, decoded, failed
            case startS = "start_s", endS = "end_s", p99Ms = "p99_ms", maxMs = "max_ms", over16ms = "over_16_7_ms"
        }
    }

    /// A hang or a crash, and what the program's threads were doing.
    struct Fault: Codable, Sendable {
        var atS: Double
        var what: String
        var detail: [String]
        enum CodingKeys: String, CodingKey { case what, detail; case atS = "at_s" }
    }

    var machine: String
    var seed: UInt64
    var sources: String
    var size: String
    var plannedS: Double
    var ranS: Double
    /// "time", "interrupted", "crash", "hang".
    var endedBy: String
    var warmupS: Double
    var rssGrowthMBPerHour: Double?
    var helpersRSSGrowthMBPerHour: Double?
    var rssFirstMB: Double?
    var rssLastMB: Double?
    var rssPeakMB: Double?
    var helpersRSSPeakMB: Double?
    var fdsFirst: Int?
    var fdsLast: Int?
    var threadsFirst: Int?
    var threadsLast: Int?
    var helpersFirst: Int?
    var helpersLast: Int?
    /// Helpers replaced because one crashed or was killed at its deadline on a file.
    var helperRestarts: Int
    /// Every helper seen; a reload starts new ones too.
    var helpersStarted: Int
    var frames: Int
    var frameP99Ms: Double?
    var framesOver16ms: Int
    var decoded: Int
    var failed: Int
    var intervals: [Interval]
    var events: [String: Int]
    /// What the mix did, by kind: inputs, resizes, reloads, each kind of file churn.
    var steps: [String: Int]
    var churnProblems: [String: Int]
    var faults: [Fault]
    /// How the program ended when asked to (SIGTERM): seconds, and whether helpers were left.
    var shutdown: String
    var samples: [Sample]

    enum CodingKeys: String, CodingKey {
        case machine, seed, sources, size, frames, decoded, failed, intervals, events, steps, faults, shutdown, samples
        case plannedS = "planned_s", ranS = "ran_s", endedBy = "ended_by", warmupS = "warmup_s"
        case rssGrowthMBPerHour = "rss_growth_mb_per_hour", helpersRSSGrowthMBPerHour = "helpers_rss_growth_mb_per_hour"
        case rssFirstMB = "rss_first_mb", rssLastMB = "rss_last_mb", rssPeakMB = "rss_peak_mb"
        case helpersRSSPeakMB = "helpers_rss_peak_mb"
        case fdsFirst = "fds_first", fdsLast = "fds_last", threadsFirst = "threads_first", threadsLast = "threads_last"
        case helpersFirst = "helpers_first", helpersLast = "helpers_last", helperRestarts = "helper_restarts", helpersStarted = "helpers_started"
        case frameP99Ms = "frame_p99_ms", framesOver16ms = "frames_over_16_7_ms", churnProblems = "churn_problems"
    }

    /// The warm-up left out of the growth fit: memory rises while the first pictures, fonts
    /// and caches arrive. A tenth of the run, between 5 seconds and 10 minutes.
    static func warmup(for seconds: Double) -> Double { min(600, max(5, seconds / 10)) }

    /// Growth per hour of `value` over the samples after `warmup` seconds, by least squares
    /// within each window size (`LinearFit.commonSlope`: a resize changes the level, not the
    /// trend); nil with fewer than two samples at one size after it.
    static func growthPerHour(_ samples: [Sample], after warmup: Double, _ value: (Sample) -> Double) -> Double? {
        let bySize = Dictionary(grouping: samples.filter { $0.t >= warmup }, by: \.size)
        return LinearFit.commonSlope(bySize.keys.sorted().map { size in bySize[size]!.map { (x: $0.t / 3600, y: value($0)) } })
    }

    /// Frame times (with when each report arrived, seconds into the run) summed up in
    /// stretches of `length` seconds from 0 to `end`.
    static func intervals(_ reports: [(t: Double, frameTimes: [Double], decoded: Int, failed: Int)],
                          length: Double, end: Double) -> [Interval] {
        guard length > 0, end > 0 else { return [] }
        // A remainder under a quarter of a stretch joins the one before.
        let count = max(1, Int((end / length - 0.25).rounded(.up)))
        var times = [[Double]](repeating: [], count: count)
        var decoded = [Int](repeating: 0, count: count), failed = decoded
        for r in reports {
            let i = min(count - 1, max(0, Int(r.t / length)))
            times[i] += r.frameTimes
            decoded[i] += r.decoded
            failed[i] += r.failed
        }
        return (0..<count).map { i in
            let p = Percentiles(times[i])
            return Interval(startS: Double(i) * length, endS: i == count - 1 ? end : Double(i + 1) * length, frames: p.count,
                            p99Ms: p.at(0.99).map { $0 * 1000 }, maxMs: p.largest.map { $0 * 1000 },
                            over16ms: p.countAbove(1.0 / 60), decoded: decoded[i], failed: failed[i])
        }
    }

    /// How long each stretch of the report is: about twelve of them, whole minutes once the
    /// run is long enough.
    static func intervalLength(for seconds: Double) -> Double {
        let raw = max(1, seconds / 12)
        return raw >= 60 ? (raw / 60).rounded(.up) * 60 : raw.rounded(.up)
    }

    func json() -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return (try? encoder.encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    func table() -> String {
        func mb(_ v: Double?) -> String { v.map { String(format: "%.1f MB", $0) } ?? "–" }
        func ms(_ v: Double?) -> String { v.map { String(format: "%.1f ms", $0) } ?? "–" }
        func n(_ v: Int?) -> String { v.map(String.init) ?? "–" }
        func growth(_ v: Double?) -> String { v.map { String(format: "%+.2f MB/h", $0) } ?? "– (too short)" }
        func row(_ label: String, _ value: String) -> String { "  " + label.padding(toLength: 34, withPad: " ", startingAt: 0) + value + "\n" }
        func clock(_ s: Double) -> String {
            let t = Int(s.rounded())
            return t >= 3600 ? String(format: "%d:%02d:%02d", t / 3600, t / 60 % 60, t % 60) : String(format: "%d:%02d", t / 60, t % 60)
        }
        var out = "KioskCarousel soak: \(sources), \(size), seed \(seed)\n\(machine)\n"
        out += "ran \(clock(ranS)) of \(clock(plannedS)), ended by \(endedBy)\n\n"
        out += row("RSS growth after \(clock(warmupS)) warm-up, per window size", growth(rssGrowthMBPerHour) + " (helpers " + growth(helpersRSSGrowthMBPerHour) + ")")
        out += row("RSS first / last / peak", "\(mb(rssFirstMB)) / \(mb(rssLastMB)) / \(mb(rssPeakMB)), helpers' peak \(mb(helpersRSSPeakMB))")
        out += row("open files first / last", "\(n(fdsFirst)) / \(n(fdsLast))")
        out += row("threads first / last", "\(n(threadsFirst)) / \(n(threadsLast))")
        out += row("helpers first / last", "\(n(helpersFirst)) / \(n(helpersLast)); \(helperRestarts) replaced after a crash or deadline, \(helpersStarted) started in all")
        out += row("frames, p99, over 16.7 ms", "\(frames), \(ms(frameP99Ms)), \(framesOver16ms)")
        out += row("decoded / failed", "\(decoded) / \(failed)")
        out += row("crashes / hangs", "\(faults.filter { $0.what.hasPrefix("crash") }.count) / \(faults.filter { $0.what.hasPrefix("hang") }.count)")
        out += row("shutdown", shutdown)
        out += "\nper interval        frames   p99      max      >16.7ms  decoded  failed\n"
        for i in intervals {
            out += "  " + "\(clock(i.startS))–\(clock(i.endS))".padding(toLength: 18, withPad: " ", startingAt: 0)
                + String(i.frames).padding(toLength: 9, withPad: " ", startingAt: 0)
                + ms(i.p99Ms).padding(toLength: 9, withPad: " ", startingAt: 0)
                + ms(i.maxMs).padding(toLength: 9, withPad: " ", startingAt: 0)
                + String(i.over16ms).padding(toLength: 9, withPad: " ", startingAt: 0)
                + String(i.decoded).padding(toLength: 9, withPad: " ", startingAt: 0) + String(i.failed) + "\n"
        }
        out += "\nwhat happened\n"
        for (k, v) in steps.sorted(by: { $0.key < $1.key }) { out += row(k, String(v)) }
        for (k, v) in churnProblems.sorted(by: { $0.key < $1.key }) { out += row("churn problem: " + k, String(v)) }
        out += row("events", events.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))
        for f in faults {
            out += "\n\(f.what) at \(clock(f.atS)):\n" + f.detail.map { "    " + $0 }.joined(separator: "\n") + "\n"
        }
        return out
    }
}
