import CarouselApp
import CarouselSDL
import CarouselCore
import Foundation
#if canImport(Glibc)
import Glibc
import CarouselClock
#endif

/// Runs `carousel bench --soak`: starts the program under test on a temporary copy of the
/// pictures, plays the supervisor's share of the seeded mix (SIGHUP, file churn) while the
/// program plays the input, samples it every few seconds, watches for crashes and hangs,
/// and at the end (or on Ctrl+C) asks it to stop and sums up.
struct SoakRunner {
    var seed: UInt64
    var duration: Double
    var width: Int
    var height: Int
    /// In a window on the real display, else headless (SDL's dummy driver).
    var window: Bool
    /// Pictures the folder is made from.
    var pool: [String]
    /// Small pictures in other formats that damaged copies are made from too.
    var damageable: [String] = []
    /// The image options the program under test gets (order, prefetch, decoding limits).
    var imageOptions: [String] = []
    /// The temporary folder the run may use; removed by the caller.
    var workspace: String
    /// The program's control API on, polled as a dashboard would (`--control-load`); its
    /// summary is said on standard error at the end.
    var controlLoad = false
    var sources: String
    /// Set from a signal handler's thread: end early, with the report so far.
    var interrupted: @Sendable () -> Bool

    /// A hang: no report from the program's main loop for this long.
    static let hangAfter = 5.0
    /// Start-up may take longer (scanning thousands of files before the first frame).
    static let startGrace = 60.0

    /// Seconds between samples: often enough for a fit, at most every 5 s.
    var sampleInterval: Double { min(5, max(1, duration / 100)) }

    func run() throws -> SoakReport {
        let folder = try SoakFolder(path: workspace + "/pictures", pool: pool, damageable: damageable, seed: seed)
        var environment = ProcessInfo.processInfo.environment
        if !window { environment["SDL_VIDEODRIVER"] = "dummy" }
        // Vsync off, the program paces frames itself: a frame's time is its work, not the
        // wait for the display, as in the rest of the bench.
        // A crash prints every thread's stack into the program's log.
        environment["SWIFT_BACKTRACE"] = "enable=yes,interactive=no,threads=all"
        let controlPort = controlLoad ? ControlPoller.freePort() : nil
        let controlArguments = controlPort.map { ["--control", "127.0.0.1:\($0)"] } ?? []
        let child = try SoakChild(
            arguments: ["soak-drive", String(seed), folder.path, "--size", "\(width)x\(height)", "--events", "-", "--no-vsync",
                        "--autoplay", String(SoakMix.autoplayInterval), "--idle-resume", String(SoakMix.idleResume)]
                + imageOptions + controlArguments,
            environment: environment, logPath: workspace + "/program.log")
        let poller = controlPort.map(ControlPoller.init(port:))
        defer { if let poller { FileHandle.standardError.write(Data(poller.summary.utf8)) } }
        let start = LoopClock.system.now()
        var mix = SoakMix(seed: seed, width: width, height: height)
        var steps: [String: Int] = [:]
        var samples: [SoakReport.Sample] = []
        var helpersSeen: Set<pid_t> = []
        var faults: [SoakReport.Fault] = []
        var endedBy = "time"
        var nextSample = start
        var frames = 0, decoded = 0, failed = 0, reportsCounted = 0
        var lastHelpers: [pid_t] = []
        var pollerStarted = false
        /// The window's size as the mix's steps so far left it (the program resizes itself).
        var size = "\(width)x\(height)"

        func sample(_ t: Double) {
            for r in child.observed.reports(after: reportsCounted) {
                frames += r.frameTimes.count
                decoded += r.decoded
                failed += r.failed
                reportsCounted += 1
            }
            guard let rss = ProcessProbe.resident(child.pid), let fds = ProcessProbe.openFiles(child.pid),
                  let threads = ProcessProbe.threads(child.pid) else { return }
            let helpers = ProcessProbe.children(of: child.pid)
            lastHelpers = helpers
            helpersSeen.formUnion(helpers)
            let helpersRSS = helpers.compactMap(ProcessProbe.resident).reduce(0, +)
            samples.append(.init(t: t, rssMB: Double(rss) / 1_048_576, helpersRSSMB: Double(helpersRSS) / 1_048_576,
                                 helpers: helpers.count, fds: fds, threads: threads, frames: frames,
                                 decoded: decoded, failed: failed, size: size))
        }

        loop: while true {
            let now = LoopClock.system.now()
            let t = now - start
            if t >= duration { break }
            if interrupted() { endedBy = "interrupted"; break }
            if let how = child.ended() {
                endedBy = "crash"
                faults.append(.init(atS: t, what: "crash: the program ended by itself (\(how))",
                                    detail: child.logTail(60)))
                break
            }
            // The main loop reports once a second, moving or not: silence is a hang.
            let last = child.observed.lastReport?.received ?? start
            let silentFor = now - last
            if silentFor > (child.observed.reportCount == 0 ? Self.startGrace : Self.hangAfter) {
                endedBy = "hang"
                faults.append(.init(atS: t, what: String(format: "hang: no frame or report from the main loop for %.0f s", silentFor),
                                    detail: child.stacks()))
                break
            }
            // Alive but drawing nothing while the strip moves: a frozen screen.
            let recent = child.observed.reports(after: max(0, child.observed.reportCount - Int(Self.hangAfter)))
            if recent.count == Int(Self.hangAfter), recent.allSatisfy({ $0.moving && $0.frameTimes.isEmpty }) {
                endedBy = "hang"
                faults.append(.init(atS: t, what: "hang: the strip moved but no frame was drawn for 5 s", detail: child.stacks()))
                break
            }
            // Nothing is sent to the program before its first report: a SIGHUP that comes
            // before it has set up its signal handling (it did at 0.05 s under TSan) ends it
            // as the default action does. Steps due meanwhile are played once it reports.
            if child.observed.reportCount > 0, let poller, !pollerStarted {
                poller.start()
                pollerStarted = true
            }
            for timed in child.observed.reportCount == 0 ? [] : mix.steps(before: t) {
                switch timed.step {
                case .pointer(let phase, _, _, _): if phase == .down { steps["gestures (pointer down)", default: 0] += 1 }
                case .wheel: steps["wheel notches", default: 0] += 1
                case .key: steps["keys", default: 0] += 1
                case .resize(let w, let h):
                    steps["resizes and rotations", default: 0] += 1
                    size = "\(w)x\(h)"
                case .reload:
                    steps["SIGHUP reloads", default: 0] += 1
                    child.signal(SIGHUP)
                case .files(let churn):
                    folder.perform(churn, now: t)
                }
            }
            folder.tick(now: t)
            if now >= nextSample {
                sample(t)
                nextSample += sampleInterval
            }
            usleep(50_000)
        }

        // The dashboard stops before the program is asked to (else its last requests fail).
        poller?.stop()
        usleep(300_000)
        let ran = LoopClock.system.now() - start
        sample(ran)
        let shutdown: String
        if endedBy == "crash" {
            shutdown = "it had ended already"
        } else if endedBy == "hang" {
            _ = child.stop(within: 2)
            shutdown = "killed after the hang"
        } else if let seconds = child.stop(within: 10) {
            usleep(500_000)
            let left = lastHelpers.filter(ProcessProbe.isAlive)
            let status = child.ended() ?? "?"
            shutdown = String(format: "ended %@ %.2f s after SIGTERM", status, seconds)
                + (left.isEmpty ? ", no helper left" : ", \(left.count) helpers LEFT RUNNING")
            if status != "exit 0" {
                faults.append(.init(atS: ran, what: "crash: the program ended with \(status) when asked to stop", detail: child.logTail(60)))
            }
        } else {
            shutdown = "did NOT end within 10 s of SIGTERM: killed"
            faults.append(.init(atS: ran, what: "hang: the program did not end within 10 s of SIGTERM", detail: []))
        }

        for (k, v) in folder.counts { steps["files " + k] = v }
        return summary(samples: samples, reports: child.observed.reports(after: 0), start: start, ran: ran,
                       endedBy: endedBy, steps: steps, churnProblems: folder.problems, faults: faults,
                       events: child.observed.eventCounts, helperRestarts: child.observed.helpersReplaced,
                       helpersStarted: helpersSeen.count,
                       shutdown: shutdown)
    }

    private func summary(samples: [SoakReport.Sample], reports: [SoakObservations.Report], start: Double, ran: Double,
                         endedBy: String, steps: [String: Int], churnProblems: [String: Int], faults: [SoakReport.Fault],
                         events: [String: Int], helperRestarts: Int, helpersStarted: Int, shutdown: String) -> SoakReport {
        let warmup = SoakReport.warmup(for: ran)
        // "First" is once it has warmed up: at start it has not opened its window, its
        // helpers or its files yet.
        let first = samples.first { $0.t >= warmup } ?? samples.first
        let all = Percentiles(reports.flatMap(\.frameTimes))
        let timed = reports.map { (t: $0.received - start, frameTimes: $0.frameTimes, decoded: $0.decoded, failed: $0.failed) }
        return SoakReport(
            machine: BenchCommand.machine, seed: seed, sources: sources, size: "\(width)x\(height)" + (window ? ", window" : ", headless"),
            plannedS: duration, ranS: ran, endedBy: endedBy, warmupS: warmup,
            rssGrowthMBPerHour: SoakReport.growthPerHour(samples, after: warmup) { $0.rssMB },
            helpersRSSGrowthMBPerHour: SoakReport.growthPerHour(samples, after: warmup) { $0.helpersRSSMB },
            rssFirstMB: first?.rssMB, rssLastMB: samples.last?.rssMB, rssPeakMB: samples.map(\.rssMB).max(),
            helpersRSSPeakMB: samples.map(\.helpersRSSMB).max(),
            fdsFirst: first?.fds, fdsLast: samples.last?.fds,
            threadsFirst: first?.threads, threadsLast: samples.last?.threads,
            helpersFirst: first?.helpers, helpersLast: samples.last?.helpers, helperRestarts: helperRestarts, helpersStarted: helpersStarted,
            frames: all.count, frameP99Ms: all.at(0.99).map { $0 * 1000 }, framesOver16ms: all.countAbove(1.0 / 60),
            decoded: reports.reduce(0) { $0 + $1.decoded }, failed: reports.reduce(0) { $0 + $1.failed },
            intervals: SoakReport.intervals(timed, length: SoakReport.intervalLength(for: ran), end: ran),
            events: events, steps: steps, churnProblems: churnProblems, faults: faults, shutdown: shutdown, samples: samples)
    }
}
