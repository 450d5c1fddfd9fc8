import CarouselCore
import Foundation
import Testing
import CarouselSDL
@testable import CarouselApp
@testable import CarouselBench

@Suite struct SoakStatisticsTests {
    @Test func aLineThroughKnownPoints() throws {
        let exact = try #require(LinearFit((0..<10).map { (x: Double($0), y: 2 * Double($0) + 3) }))
        #expect(abs(exact.slope - 2) < 1e-12 && abs(exact.intercept - 3) < 1e-12)
        // Worked by hand: x 1,2,3,4 and y 2,4,5,4 give slope 3.5 / 5 = 0.7 and intercept 3.75 - 1.75 = 2.
        let noisy = try #require(LinearFit([(1, 2), (2, 4), (3, 5), (4, 4)]))
        #expect(abs(noisy.slope - 0.7) < 1e-12 && abs(noisy.intercept - 2) < 1e-12)
        #expect(LinearFit([(1, 1)]) == nil, "one point has no slope")
        #expect(LinearFit([(2, 1), (2, 5)]) == nil, "nor do points at one x")
    }

    static func sample(_ t: Double, rss: Double) -> SoakReport.Sample {
        .init(t: t, rssMB: rss, helpersRSSMB: 30, helpers: 1, fds: 15, threads: 9, frames: 0, decoded: 0, failed: 0)
    }

    @Test func growthIsPerHourAfterTheWarmUp() throws {
        // Climbs 50 MB in the first 10 minutes (the first pictures), then 0.5 MB an hour.
        var samples: [SoakReport.Sample] = []
        for i in 0..<10 { samples.append(Self.sample(Double(i) * 60, rss: 80 + 5 * Double(i))) }
        for i in 0..<120 {
            let hours = Double(i) / 60
            samples.append(Self.sample(600 + Double(i) * 60, rss: 130 + 0.5 * hours))
        }
        let after = try #require(SoakReport.growthPerHour(samples, after: 600) { $0.rssMB })
        #expect(abs(after - 0.5) < 1e-9, "\(after)")
        let all = try #require(SoakReport.growthPerHour(samples, after: 0) { $0.rssMB })
        #expect(all > 5, "with the warm-up in, the fit would blame a climb that stops")
        #expect(SoakReport.growthPerHour(samples, after: 10_000) { $0.rssMB } == nil)
        #expect(SoakReport.warmup(for: 20) == 5 && SoakReport.warmup(for: 7200) == 600 && SoakReport.warmup(for: 1800) == 180)
    }

    @Test func aResizeChangesTheLevelButOnlyGrowthWithinASizeCounts() throws {
        // Steady memory that is 40 MB higher at 1920x1080 than at 800x480, the window going
        // back and forth, the large size last: a fit across sizes sees a climb that is none.
        var samples: [SoakReport.Sample] = []
        for i in 0..<240 {
            let large = (i / 30) % 2 == 1
            var s = Self.sample(Double(i) * 30, rss: large ? 140 : 100)
            s.size = large ? "1920x1080" : "800x480"
            samples.append(s)
        }
        let naive = try #require(LinearFit(samples.map { (x: $0.t / 3600, y: $0.rssMB) })).slope
        #expect(naive > 1, "the levels alone look like growth: \(naive)")
        let flat = try #require(SoakReport.growthPerHour(samples, after: 0) { $0.rssMB })
        #expect(abs(flat) < 1e-9, "\(flat)")
        // Real growth shows through the levels: 2 MB an hour at both sizes.
        let growing = samples.map { var s = $0; s.rssMB += 2 * $0.t / 3600; return s }
        let slope = try #require(SoakReport.growthPerHour(growing, after: 0) { $0.rssMB })
        #expect(abs(slope - 2) < 1e-9, "\(slope)")
    }

    @Test func framesAreSummedUpPerInterval() {
        // Two stretches of 10 s: in the first 100 frames of 1..100 ms, in the second 3 of 5 ms.
        typealias Report = (t: Double, frameTimes: [Double], decoded: Int, failed: Int)
        var first: [Report] = []
        for i in 0..<10 {
            let times: [Double] = (1...10).map { k in Double(i * 10 + k) / 1000 }
            first.append((t: Double(i) + 0.5, frameTimes: times, decoded: 1, failed: 0))
        }
        let second: [Report] = [(t: 15.0, frameTimes: [0.005, 0.005, 0.005], decoded: 2, failed: 1)]
        let intervals = SoakReport.intervals(first + second, length: 10, end: 20)
        #expect(intervals.count == 2)
        #expect(intervals[0].frames == 100 && intervals[0].p99Ms.map { abs($0 - 99) < 1e-9 } == true)
        #expect(intervals[0].over16ms == 84 && intervals[0].maxMs.map { abs($0 - 100) < 1e-9 } == true)
        #expect(intervals[0].decoded == 10 && intervals[0].failed == 0)
        #expect(intervals[1].frames == 3 && intervals[1].over16ms == 0 && intervals[1].decoded == 2 && intervals[1].failed == 1)
        #expect(intervals[1].startS == 10 && intervals[1].endS == 20)
        // A remainder shorter than a quarter of a stretch joins the one before.
        #expect(SoakReport.intervals(first, length: 10, end: 21).count == 2)
        #expect(SoakReport.intervals(first, length: 10, end: 21).last?.endS == 21)
        #expect(SoakReport.intervalLength(for: 7200) == 600 && SoakReport.intervalLength(for: 20) == 2)
    }

    @Test func durationsParse() {
        #expect(SoakDuration(argument: "90s")?.seconds == 90)
        #expect(SoakDuration(argument: "30m")?.seconds == 1800)
        #expect(SoakDuration(argument: "8h")?.seconds == 28800)
        #expect(SoakDuration(argument: "45")?.seconds == 45)
        for bad in ["", "h", "-5m", "0s", "nan", "1y", "100000h"] { #expect(SoakDuration(argument: bad) == nil, "\(bad)") }
    }
}

@Suite struct SoakMixTests {
    static func steps(_ seed: UInt64, _ n: Int, width: Int = 1920, height: Int = 1080) -> [SoakMix.TimedStep] {
        var mix = SoakMix(seed: seed, width: width, height: height)
        return (0..<n).map { _ in mix.next() }
    }

    @Test func theSameSeedPlaysTheSameMix() {
        #expect(Self.steps(42, 3000) == Self.steps(42, 3000))
        #expect(Self.steps(42, 300) != Self.steps(43, 300))
        // What the bench takes by time is the same stream.
        var mix = SoakMix(seed: 42, width: 1920, height: 1080)
        let byTime = mix.steps(before: 120)
        #expect(byTime == Array(Self.steps(42, byTime.count)))
        #expect(byTime.allSatisfy { $0.offset < 120 } && mix.peek().offset >= 120)
    }

    @Test func itHasEverythingAKioskLivesThrough() {
        let steps = Self.steps(7, 20_000)
        #expect(zip(steps, steps.dropFirst()).allSatisfy { $0.offset <= $1.offset }, "in time order")
        func has(_ p: (SoakMix.Step) -> Bool) -> Bool { steps.contains { p($0.step) } }
        #expect(has { if case .pointer(_, _, _, true) = $0 { true } else { false } }, "fingers")
        #expect(has { if case .pointer(_, _, _, false) = $0 { true } else { false } }, "the mouse")
        #expect(has { if case .wheel = $0 { true } else { false } })
        #expect(has { if case .key = $0 { true } else { false } })
        #expect(has { if case .resize(let w, let h) = $0 { h > w } else { false } }, "a rotation to portrait")
        #expect(has { $0 == .reload })
        for churn: SoakMix.FileChurn in [.replaceWhileWriting, .emptyAndRefill] { #expect(has { $0 == .files(churn) }) }
        for kind in ["add", "remove", "rename", "hostile"] {
            #expect(has { if case .files(let c) = $0 { "\(c)".hasPrefix(kind) } else { false } }, "\(kind)")
        }
        // Long quiet stretches, in which autoplay takes over.
        let gaps = zip(steps, steps.dropFirst()).map { $1.offset - $0.offset }
        #expect(gaps.contains { $0 > SoakMix.idleResume + 5 })
    }

    @Test func pointsStayOnTheWindowAsItChanges() {
        var mix = SoakMix(seed: 3, width: 1280, height: 720)
        var (w, h) = (1280.0, 720.0)
        for _ in 0..<20_000 {
            switch mix.next().step {
            case .resize(let nw, let nh): (w, h) = (Double(nw), Double(nh))
            case .pointer(_, let x, let y, _): #expect((0...w).contains(x) && (0...h).contains(y), "\(x),\(y) in \(w)x\(h)")
            default: break
            }
        }
    }
}

/// The soak itself, short: the real program under the mix, sampled, and summed up.
@Suite(.serialized) struct SoakRunTests {
    static func soak(_ args: [String], environment: [String: String] = [:]) throws -> (CarouselBinary.Result, [String: Any]) {
        let r = try CarouselBinary.run(["bench", "--synthetic", "30:1200x900", "--size", "640x360", "--json"] + args,
                                       environment: environment, timeout: 240)
        let object = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any]
        return (r, object ?? [:])
    }

    @Test func aShortSoakReportsEveryFigure() throws {
        let (r, report) = try Self.soak(["--soak", "20s", "--seed", "5"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(report["seed"] as? Int == 5 && report["ended_by"] as? String == "time", "\(report["faults"] ?? "no report")")
        #expect((report["ran_s"] as? Double ?? 0) >= 20)
        let samples = report["samples"] as? [[String: Any]] ?? []
        #expect(samples.count >= 10, "a sample every second or more often: \(samples.count)")
        for key in ["rss_first_mb", "rss_last_mb", "rss_peak_mb", "helpers_rss_peak_mb"] {
            #expect((report[key] as? Double ?? 0) > 1, "\(key)")
        }
        #expect(report["rss_growth_mb_per_hour"] is Double, "a fit after the warm-up")
        for key in ["fds_first", "fds_last", "threads_first", "threads_last", "helpers_first", "helpers_last"] {
            #expect((report[key] as? Int ?? 0) >= 1, "\(key)")
        }
        #expect((report["frames"] as? Int ?? 0) > 0 && report["frame_p99_ms"] is Double)
        #expect((report["decoded"] as? Int ?? 0) > 0)
        let intervals = report["intervals"] as? [[String: Any]] ?? []
        #expect((1...13).contains(intervals.count))
        #expect(intervals.reduce(0) { $0 + ($1["frames"] as? Int ?? 0) } == report["frames"] as? Int)
        #expect((report["faults"] as? [Any])?.isEmpty == true)
        #expect((report["shutdown"] as? String ?? "").contains("exit 0"), "\(report["shutdown"] ?? "")")
        #expect((report["shutdown"] as? String ?? "").contains("no helper left"))
        let events = report["events"] as? [String: Int] ?? [:]
        #expect((events["pool"] ?? 0) >= 1, "the program's event log was read: \(events)")
        let steps = report["steps"] as? [String: Int] ?? [:]
        #expect(!steps.isEmpty, "the mix did something: \(steps)")
    }

    @Test func aHangIsFoundAndEveryThreadShown() throws {
        let (r, report) = try Self.soak(["--soak", "60s", "--seed", "1"], environment: ["CAROUSEL_SOAK_FAULT": "hang@4"])
        #expect(r.status == 1, "a fault fails the soak")
        #expect(report["ended_by"] as? String == "hang")
        let faults = report["faults"] as? [[String: Any]] ?? []
        #expect(faults.first?["what"] as? String ?? "" == "hang: no frame or report from the main loop for 5 s"
                || (faults.first?["what"] as? String ?? "").hasPrefix("hang: no frame or report"))
        let detail = faults.first?["detail"] as? [String] ?? []
        #expect(detail.count >= 2, "a line per thread at least: \(detail)")
        #expect((report["ran_s"] as? Double ?? 60) < 30, "it stops at the hang")
    }

    @Test func aCrashIsReportedWithTheProgramsLastWords() throws {
        let (r, report) = try Self.soak(["--soak", "60s", "--seed", "1"], environment: ["CAROUSEL_SOAK_FAULT": "crash@3"])
        #expect(r.status == 1)
        #expect(report["ended_by"] as? String == "crash")
        let what = (report["faults"] as? [[String: Any]])?.first?["what"] as? String ?? ""
        // Under a sanitizer its own handler reports the signal and exits (TSan with 66).
        #expect(what.hasPrefix("crash: the program ended by itself (") && (what.contains("SIGSEGV") || what.contains("exit ")), "\(what)")
    }

    @Test func ctrlCEndsItEarlyWithTheReportSoFar() throws {
        let tmp = try Fixtures.temporaryFolder("soak-int")
        let p = Process()
        p.executableURL = CarouselBinary.url
        p.arguments = ["bench", "--soak", "5m", "--synthetic", "20:800x600", "--size", "640x360", "--json"]
        p.environment = ProcessInfo.processInfo.environment.merging(["TMPDIR": tmp]) { $1 }
        let out = Pipe()
        p.standardOutput = out
        p.standardError = FileHandle.nullDevice
        try p.run()
        // Once the program under test reports, interrupt.
        var started = false
        for _ in 0..<600 where !started {
            usleep(100_000)
            started = ((try? FileManager.default.contentsOfDirectory(atPath: tmp)) ?? []).contains { dir in
                ((try? String(contentsOfFile: tmp + "/" + dir + "/program.log", encoding: .utf8)) ?? "").contains("images")
                    || FileManager.default.fileExists(atPath: tmp + "/" + dir + "/pictures")
            }
        }
        #expect(started)
        sleep(3)
        kill(p.processIdentifier, SIGINT)
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        let report = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
        #expect(p.terminationStatus == 0, "\(report["faults"] ?? "no report")")
        #expect(report["ended_by"] as? String == "interrupted", "\(report["faults"] ?? "no report")")
        #expect((report["ran_s"] as? Double ?? 300) < 120)
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: tmp)) ?? ["?"]).isEmpty, "the temporary copy was left behind")
    }
}

@Suite struct HungLoopShutdownTests {
    /// The main loop stuck for good (the soak's hang fault): SIGTERM still ends the
    /// program, by itself, once the grace for a tidy quit is over, saying why.
    @Test func sigtermEndsTheProgramEvenWhenItsLoopHangs() throws {
        let folder = try Fixtures.imageFolder()
        let p = Process()
        p.executableURL = CarouselBinary.url
        p.arguments = ["soak-drive", "1", folder, "--size", "320x240", "--no-vsync"]
        p.environment = ProcessInfo.processInfo.environment.merging(
            ["SDL_VIDEODRIVER": "dummy", "CAROUSEL_SOAK_FAULT": "hang@1"]) { $1 }
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        let pid = p.processIdentifier
        // Whatever happens below, the program does not outlive the test.
        defer { if p.isRunning { kill(pid, SIGKILL) } }
        // Its reports stop once it hangs: wait for the first, then for the silence.
        let reader = out.fileHandleForReading
        var seen = Data()
        let began = Date()
        while !String(decoding: seen, as: UTF8.self).contains("\"soak\"") && Date().timeIntervalSince(began) < 30 {
            seen.append(reader.availableData)
        }
        #expect(String(decoding: seen, as: UTF8.self).contains("\"soak\""), "the program started and reported")
        Thread.sleep(forTimeInterval: 2)  // past the hang at 1 s
        let sent = Date()
        kill(pid, SIGTERM)
        while p.isRunning && Date().timeIntervalSince(sent) < SignalWatcher.quitGrace + 10 { Thread.sleep(forTimeInterval: 0.05) }
        let took = Date().timeIntervalSince(sent)
        #expect(!p.isRunning, "still running \(took) s after SIGTERM")
        guard !p.isRunning else { return }
        #expect(took >= SignalWatcher.quitGrace - 0.5, "it waited for a tidy quit first (\(took) s)")
        #expect(p.terminationReason == .exit && p.terminationStatus == 128 + SIGTERM)
        let said = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(said.contains("after SIGTERM"), "one line says why: \(said)")
    }
}
