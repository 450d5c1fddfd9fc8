import Foundation
import Testing
import TestSupport
@testable import CarouselApp

/// A clip in the real window under Xvfb: it plays when the strip rests on it, L and J move
/// it, a key that moves the strip stops it and its video helper goes, and between frames the
/// loop sleeps.
@Suite(.serialized, .enabled(if: RequiredTools.run(missing: XvfbSession.unavailableReason), "Xvfb or xdotool missing; run kiosk/setup"))
struct ClipWindowTests {
    /// The program's video helpers now.
    static func videoHelpers(of pid: pid_t) -> [pid_t] {
        InteractiveWindowTests.children(of: pid).filter {
            ((try? String(contentsOfFile: "/proc/\($0)/cmdline", encoding: .utf8)) ?? "").contains("video-helper")
        }
    }

    @Test func aClipPlaysAtRestAndAKeyThatMovesTheStripStopsItAndFreesItsHelper() throws {
        let x = try XvfbSession()
        let dir = try ClipRenderTests.folder(.h264MP4)
        let app = try RunningCarousel(args: [dir, "--size", "640x360", "--start-index", "1"], display: x.display)
        defer { if app.process.isRunning { kill(app.process.processIdentifier, SIGKILL) } }
        #expect(app.waitFor("video_started", count: 1, timeout: 30), "no clip started: \(app.log)")
        let pid = app.process.processIdentifier
        // Its own helper plays it, beside the one that made the posters.
        var playing = Self.videoHelpers(of: pid)
        for _ in 0..<50 where playing.count < 2 { Thread.sleep(forTimeInterval: 0.1); playing = Self.videoHelpers(of: pid) }
        #expect(playing.count == 2, "\(playing)")
        let wid = try x.xdotool(["search", "--sync", "--onlyvisible", "--name", "KioskCarousel"])
            .split(separator: "\n").first.map(String.init) ?? ""
        Thread.sleep(forTimeInterval: 1)  // a second of it plays (time meant to pass)
        // L: 10 s on, no further than its end (3 s); J: 10 s back, no further than its start.
        try x.xdotool(["key", "--window", wid, "l"])
        #expect(app.waitFor("video_seek", count: 1, timeout: 10), "L did not move the clip: \(app.lines)")
        #expect(app.ofType("video_seek").first?["position_ms"] as? Int == 3000)
        try x.xdotool(["key", "--window", wid, "j"])
        #expect(app.waitFor("video_seek", count: 2, timeout: 10))
        #expect(app.ofType("video_seek").last?["position_ms"] as? Int == 0)
        try x.xdotool(["key", "--window", wid, "Right"])
        #expect(app.waitFor("frames_dropped", count: 1, timeout: 20), "the clip did not stop: \(app.lines)")
        let stopped = app.ofType("frames_dropped").first
        #expect((stopped?["shown"] as? Int ?? 0) > 5, "frames were shown: \(String(describing: stopped))")
        var left = Self.videoHelpers(of: pid)
        for _ in 0..<50 where left.count > 1 { Thread.sleep(forTimeInterval: 0.1); left = Self.videoHelpers(of: pid) }
        #expect(left.count == 1 && Set(left).isSubset(of: Set(playing)), "the player's helper is gone: \(playing) → \(left)")
    }
}

/// A Motion Photo in the real window: its clip is known only once the picture is decoded,
/// which may be after the strip came to rest on it (at start, say); it plays then (the
/// loop's pass after a decode arrives asks the scene again).
@Suite(.serialized, .enabled(if: RequiredTools.run(missing: XvfbSession.unavailableReason), "Xvfb or xdotool missing; run kiosk/setup"))
struct MotionPhotoWindowTests {
    @Test func aMotionPhotoDecodedAfterTheStripRestsOnItStillPlays() throws {
        let x = try XvfbSession()
        let dir = try MotionPhotoRenderTests.folder(.container)
        let app = try RunningCarousel(args: [dir, "--size", "640x360", "--start-index", "1"], display: x.display)
        defer { if app.process.isRunning { kill(app.process.processIdentifier, SIGKILL) } }
        #expect(app.waitFor("video_started", count: 1, timeout: 30), "the motion did not play: \(app.lines)")
        #expect(app.waitFor("video_ended", count: 1, timeout: 30), "the motion did not end: \(app.lines)")
    }
}

/// A clip's events as the control API reports them: /status's clip state and counts, the
/// metrics, and /pause holding the clip without autoplay.
@Suite(.serialized) struct ClipControlTests {
    @Test func statusAndMetricsFollowTheClipAndPauseHoldsIt() throws {
        let dir = try ClipRenderTests.folder(.h264MP4)
        let k = try ControlAPITests.Kiosk([dir, "--size", "640x360", "--start-index", "1"])
        defer { k.stop() }
        let playing = k.status(within: 30) { ($0["video"] as? [String: Any])?["state"] as? String == "playing" }
        #expect((playing?["video"] as? [String: Any])?["index"] as? Int == 1, "\(String(describing: playing))")
        // Without autoplay, /pause is for the clip in focus.
        #expect(k.probe.request("POST", "/pause")?.status == 200)
        #expect(k.probe.request("POST", "/play")?.status == 200)
        #expect(k.probe.request("POST", "/next")?.status == 200)
        let stopped = k.status(within: 30) { ($0["video"] as? [String: Any])?["state"] as? String == "stopped" }
        let videos = stopped?["videos"] as? [String: Any]
        #expect(videos?["started"] as? Int == 1 && (videos?["frames_shown"] as? Int ?? 0) >= 1, "\(String(describing: stopped))")
        let metrics = try #require(k.probe.request("GET", "/metrics")).text
        #expect(metrics.contains("carousel_videos_total{outcome=\"started\"} 1"), "\(metrics)")
        #expect(metrics.contains("carousel_video_frames_total{kind=\"shown\"}"))
        // On a picture without autoplay there is nothing to pause.
        #expect(k.probe.request("POST", "/pause")?.status == 409)
    }
}
