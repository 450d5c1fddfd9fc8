import CarouselApp
import CarouselCore
import CarouselMedia
import CarouselSDL
import Foundation
#if canImport(Glibc)
import Glibc
import CarouselClock
import CarouselSources
#endif

/// The clips of the measured folder, played as the carousel plays them (`BenchMix(playing:
/// thenStepping:)`): resting on the first clip for `--clip-seconds`, then stepping from clip
/// to clip. What it measures is what a small board must afford while a clip plays: the
/// frames of the strip, the clip's frames shown, passed over and late, the time from its
/// arrival to its first frame, the video helper's CPU against `gst-launch-1.0 … decodebin !
/// fakesink sync=true` on the same clip for as long (the floor: GStreamer decoding alone),
/// and the memory a playing clip adds to the program and takes in its helper.
struct ClipBench {
    struct Figures: Codable, Sendable {
        var clip: String
        /// "1920x1080 avdec_h264".
        var stream: String?
        var seconds: Double
        var frames: Int
        var frameP50Ms: Double?
        var frameP99Ms: Double?
        var framesOver16ms: Int
        /// While stepping from clip to clip.
        var stepFrameP99Ms: Double?
        var stepFramesOver16ms: Int
        var videoFramesShown: Int
        var videoFramesDropped: Int
        var videoFramesSkipped: Int
        var videoFramesLate: Int
        /// From the strip coming to rest on the clip to its first frame on screen, each time
        /// a clip arrived (the first from the helper's start, the rest from the cache).
        var firstFrameMs: [Double]
        /// The video helper's CPU over the rest on the clip, per cent of one core.
        var helperCPUPercent: Double?
        /// `gst-launch-1.0 filesrc ! decodebin ! fakesink sync=true` on the same clip for as
        /// long: its CPU and peak resident memory.
        var gstLaunchCPUPercent: Double?
        var gstLaunchPeakRSSMB: Double?
        /// Resident memory the program gained while the clip played (its peak minus before).
        var addedRSSMB: Double
        /// The video helper's peak resident memory.
        var helperPeakRSSMB: Double?
        /// With `--audio` and a sound output: the farthest a frame showed from the sound
        /// heard, and how many frames more than 40 ms; nil without sound.
        var soundDriftMs: Double?
        var framesDrifted: Int?
        /// What tone-mapping a phone's HDR frame costs, by frame size (`ToneMapBench`).
        var toneMapping: [ToneMapBench.Row] = []
        /// Clip to clip under autoplay (`measureGaps`): from the strip coming to rest on the
        /// next clip to its first frame on screen, each time, and how many of those clips
        /// were made ready ahead; empty with fewer than two clips.
        var clipGapsMs: [Double] = []
        var clipsReadyAhead = 0

        enum CodingKeys: String, CodingKey {
            case clip, stream, seconds, frames
            case frameP50Ms = "frame_p50_ms", frameP99Ms = "frame_p99_ms", framesOver16ms = "frames_over_16_7_ms"
            case stepFrameP99Ms = "step_frame_p99_ms", stepFramesOver16ms = "step_frames_over_16_7_ms"
            case videoFramesShown = "video_frames_shown", videoFramesDropped = "video_frames_dropped", videoFramesSkipped = "video_frames_skipped", videoFramesLate = "video_frames_late"
            case firstFrameMs = "first_frame_ms", helperCPUPercent = "helper_cpu_percent", gstLaunchCPUPercent = "gst_launch_cpu_percent"
            case gstLaunchPeakRSSMB = "gst_launch_peak_rss_mb"
            case addedRSSMB = "added_rss_mb", helperPeakRSSMB = "helper_peak_rss_mb"
            case soundDriftMs = "sound_drift_ms", framesDrifted = "frames_drifted"
            case toneMapping = "tone_mapping"
            case clipGapsMs = "clip_gap_ms", clipsReadyAhead = "clips_ready_ahead"
        }
    }

    let runner: BenchRunner
    let seconds: Double
    let short: Bool

    /// Plays the mix on `scene` (a carousel resting on `clips[0]`); nil when it is no carousel.
    func measure(_ scene: any Scene & BenchSubject, clips: [Int], sources: [ImageSource]) throws -> Figures? {
        guard let carousel = scene as? CarouselScene, let first = clips.first else { return nil }
        // From clip to clip; with one clip, between it and its neighbour.
        let neighbour = first + 1 < sources.count ? first + 1 : max(0, first - 1)
        let ring = clips.count > 1 ? Array(clips.dropFirst()) + [first] : [neighbour, first]
        let stops = (0..<8).map { ring[$0 % ring.count] }
        let mix = BenchMix(playing: seconds, thenStepping: stops, short: short)

        let rssBefore = ProcessStats.resident
        var rssPeak = rssBefore
        var helperStart: (pid: pid_t, cpu: Double, at: Double)?
        var helperEnd: (cpu: Double, at: Double)?
        var helperPeak: Int?
        var latest: ClipFigures?
        var counted: [pid_t: ClipFigures] = [:]  // the last figures of each clip played, by its start
        var firstFrames: [Double: Double] = [:]
        var runner = self.runner
        runner.observe = { phase in
            let figures = carousel.clipFigures
            if let f = figures {
                counted[f.helper] = f
                if let shown = f.firstFrame { firstFrames[f.arrived] = shown - f.arrived }
            }
            latest = figures ?? latest
            guard phase == .clipPlaying, let f = figures else { return }
            rssPeak = max(rssPeak, ProcessStats.resident)
            let now = LoopClock.system.now()
            if helperStart == nil, f.firstFrame != nil, let cpu = ProcessProbe.cpuSeconds(f.helper) {
                helperStart = (f.helper, cpu, now)
            } else if let start = helperStart, start.pid == f.helper, let cpu = ProcessProbe.cpuSeconds(f.helper) {
                helperEnd = (cpu, now)
                helperPeak = ProcessProbe.peakResident(f.helper) ?? helperPeak
            }
        }
        // The playing is measured from the clip's first frame, its arrival's wait counted
        // apart (first_frame_ms): on a machine slow to start a helper (ThreadSanitizer's
        // beside a busy host) the 2-s phase of --short had passed with 2 frames drawn.
        let waitFrom = LoopClock.system.now()
        while carousel.clipFigures?.firstFrame == nil, LoopClock.system.now() - waitFrom < 60 {
            try scene.advance(to: LoopClock.system.now())
            _ = try scene.pump()
            if let f = carousel.clipFigures, let shown = f.firstFrame { firstFrames[f.arrived] = shown - f.arrived }
            usleep(2_000)
        }
        let played = try runner.run(mix, on: scene, startedAt: LoopClock.system.now())
        let playing = Percentiles(played.frameTimesByPhase[.clipPlaying] ?? [])
        let stepping = Percentiles(played.frameTimesByPhase[.clipSteps] ?? [])
        let all = Array(counted.values)
        let helperCPU = helperStart.flatMap { s in helperEnd.map { e in (e.cpu - s.cpu) / max(0.001, e.at - s.at) * 100 } }
        let measuredSeconds = helperStart.flatMap { s in helperEnd.map { $0.at - s.at } } ?? 0
        let path = sources[first].path
        let floor = measuredSeconds > 1 && !RemoteURL.isRemote(path) ? Self.gstLaunch(path, seconds: measuredSeconds) : nil
        let stream = latest.flatMap { f in f.width.map { "\($0)x\(f.height ?? 0) \(f.decoder ?? "")" } }
        return Figures(
            clip: path, stream: stream, seconds: seconds, frames: playing.count,
            frameP50Ms: playing.at(0.5).map { $0 * 1000 }, frameP99Ms: playing.at(0.99).map { $0 * 1000 },
            framesOver16ms: played.slowFrames[.clipPlaying] ?? 0,
            stepFrameP99Ms: stepping.at(0.99).map { $0 * 1000 }, stepFramesOver16ms: played.slowFrames[.clipSteps] ?? 0,
            videoFramesShown: all.map(\.shown).reduce(0, +), videoFramesDropped: all.map(\.dropped).reduce(0, +),
            videoFramesSkipped: all.map(\.skipped).reduce(0, +),
            videoFramesLate: all.map(\.late).reduce(0, +),
            firstFrameMs: firstFrames.sorted { $0.key < $1.key }.map { ($0.value * 1000).rounded() },
            helperCPUPercent: helperCPU, gstLaunchCPUPercent: floor?.cpu, gstLaunchPeakRSSMB: floor?.peakMB,
            addedRSSMB: Double(max(0, rssPeak - rssBefore)) / 1_048_576, helperPeakRSSMB: helperPeak.map { Double($0) / 1_048_576 },
            soundDriftMs: all.compactMap(\.drift).max().map { $0 * 1000 },
            framesDrifted: all.contains { $0.drift != nil } ? all.map(\.drifted).reduce(0, +) : nil)
    }

    /// Plays `scene` (a carousel of the clips alone under `BenchMix.clipToClipBehaviour`,
    /// resting on the first) for `seconds`: each time the strip comes to rest on a clip after
    /// the first, the time until its first frame is drawn (0: in the frame the strip rests;
    /// a clip started only on arrival waits for its helper's start, 200-300 ms here).
    func measureGaps(_ scene: any Scene & BenchSubject, seconds: Double) throws -> (gapsMs: [Double], ahead: Int) {
        guard let carousel = scene as? CarouselScene else { return ([], 0) }
        var restedAt: (item: Int, time: Double)?
        var gaps: [Double] = []
        var ahead = 0
        var lastItem = carousel.engine.currentIndex
        var runner = self.runner
        runner.observe = { _ in
            let engine = carousel.engine
            let now = LoopClock.system.now()
            if engine.position == engine.position.rounded(), !engine.isAnimating, let here = engine.currentIndex, here != lastItem {
                lastItem = here
                restedAt = (here, now)
            }
            if let rest = restedAt, let f = carousel.clipFigures, f.item == rest.item, let shown = f.firstFrame {
                gaps.append(max(0, (shown - rest.time) * 1000).rounded())
                if f.readyAhead { ahead += 1 }
                restedAt = nil
            }
        }
        // Short, on a busy machine (a test suite beside it) no clip may have come and shown in
        // the first 8 s: the show goes on for up to two more rounds until one has.
        for round in 0..<(short ? 3 : 1) where round == 0 || gaps.isEmpty {
            _ = try runner.run(BenchMix(autoplaying: seconds), on: scene, startedAt: LoopClock.system.now())
        }
        return (gaps, ahead)
    }

    /// GStreamer's own command line decoding `path` at its pace for `seconds`: its CPU, per
    /// cent of one core, and its peak resident memory; nil where gst-launch-1.0 is not installed.
    static func gstLaunch(_ path: String, seconds: Double) -> (cpu: Double, peakMB: Double?)? {
        let tool = "/usr/bin/gst-launch-1.0"
        guard FileManager.default.isExecutableFile(atPath: tool) else { return nil }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: tool)
        p.arguments = ["-q", "filesrc", "location=\(path)", "!", "decodebin", "!", "fakesink", "sync=true"]
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        guard (try? p.run()) != nil else { return nil }
        // Its first second (start-up, the plugin registry) is left out, as the helper's is;
        // then sampled until `seconds` have passed or the clip ended.
        Thread.sleep(forTimeInterval: 1)
        guard let start = ProcessProbe.cpuSeconds(p.processIdentifier) else { return nil }
        let began = LoopClock.system.now()
        var last = (cpu: start, at: began)
        var peak: Int?
        while p.isRunning, last.at - began < seconds {
            Thread.sleep(forTimeInterval: 0.1)
            guard let cpu = ProcessProbe.cpuSeconds(p.processIdentifier) else { break }
            peak = ProcessProbe.peakResident(p.processIdentifier) ?? peak
            last = (cpu, LoopClock.system.now())
        }
        kill(p.processIdentifier, SIGKILL)
        p.waitUntilExit()
        guard last.at - began > 0.5 else { return nil }
        return ((last.cpu - start) / (last.at - began) * 100, peak.map { Double($0) / 1_048_576 })
    }
}
