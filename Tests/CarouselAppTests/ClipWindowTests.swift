import Foundation
import CarouselCore
import CarouselMedia
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

    /// When process `pid` started (clock ticks since boot), to tell the clip's helper, started
    /// once its poster was made, from the helper that made it.
    static func startTime(of pid: pid_t) -> Int {
        let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
        // After the command's closing parenthesis: state is field 3, starttime field 22.
        let fields = stat.split(separator: ")").last?.split(separator: " ") ?? []
        return fields.count > 19 ? Int(fields[19]) ?? 0 : 0
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
        let player = playing.max { Self.startTime(of: $0) < Self.startTime(of: $1) }
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
        for _ in 0..<50 where player.map(left.contains) == true { Thread.sleep(forTimeInterval: 0.1); left = Self.videoHelpers(of: pid) }
        // The posters' helper ends too once idle for 3 s (a clip's helper is the one alive).
        #expect(player != nil && !left.contains(player!) && left.count <= 1, "the player's helper is gone: \(playing) → \(left)")
    }
}

/// A Motion Photo in the real window: its clip is known only once the picture is decoded,
/// which may be after the strip came to rest on it (at start, say); it plays then (the
/// loop's pass after a decode arrives asks the scene again).
@Suite(.serialized, .enabled(if: RequiredTools.run(missing: XvfbSession.unavailableReason), "Xvfb or xdotool missing; run kiosk/setup"))
struct MotionPhotoWindowTests {
    /// A clip whose poster takes longer than autoplay's interval (a board's first video
    /// helper, a loaded machine) still plays before the show moves on: the show waits for the
    /// poster. It stepped on after the interval, and a show of two clips under ThreadSanitizer
    /// beside a build never played either. Here every video helper starts 3 s late.
    @Test func aClipWhosePosterIsSlowPlaysBeforeTheShowMovesOn() throws {
        let x = try XvfbSession()
        let dir = try Fixtures.temporaryFolder("slow-poster")
        try ClipFixtures.make(.h264MP4, seconds: [0, 1], in: dir, name: "a")
        try Fixtures.bmp(320, 240) { _, _ in (90, 90, 90) }.write(to: URL(fileURLWithPath: dir + "/b.bmp"))
        let late = try Fixtures.temporaryFolder("late-helper") + "/helper"
        try "#!/bin/sh\ncase \"$1\" in video-helper) /bin/sleep 3;; esac\nexec '\(CarouselBinary.url.path)' \"$@\"\n"
            .write(toFile: late, atomically: true, encoding: .utf8)
        chmod(late, 0o755)
        let app = try RunningCarousel(args: [dir, "--size", "640x360", "--autoplay", "1", "--order", "name", "--transition", "none"], display: x.display,
                                      environment: ["CAROUSEL_DECODE_HELPER": late])
        defer { if app.process.isRunning { kill(app.process.processIdentifier, SIGKILL) } }
        #expect(app.waitFor("video_started", count: 1, timeout: 60), "no clip started: \(app.log)")
        let started = app.ofType("video_started").first?["t_ms"] as? Double ?? .infinity
        let steps = app.ofType("autoplay").compactMap { $0["t_ms"] as? Double }
        #expect(steps.allSatisfy { $0 > started }, "autoplay stepped at \(steps) ms, before the clip started at \(started) ms")
        #expect(started >= 3_000, "the video helper started 3 s late, the clip at \(started) ms")
    }

    /// A clip made ready ahead plays as the strip rests on it even while its poster is still
    /// being decoded: its helper is already there. Under load the poster came seconds after
    /// the strip, and the clip made ready waited for it (no gap measured by `carousel bench`
    /// beside a ThreadSanitizer run). Here the first video helper (the posters') starts 8 s
    /// late; the one that makes the clip ready, at 2 s into the picture's 4 s, at once.
    @Test func aClipMadeReadyAheadPlaysBeforeItsPosterIsDecoded() throws {
        let x = try XvfbSession()
        let dir = try Fixtures.temporaryFolder("ready-before-poster")
        try Fixtures.bmp(320, 240) { _, _ in (90, 90, 90) }.write(to: URL(fileURLWithPath: dir + "/a.bmp"))
        try ClipFixtures.make(.h264MP4, seconds: [0, 1, 2], in: dir, name: "b")
        let helpers = try Fixtures.temporaryFolder("first-helper-late")
        let script = helpers + "/helper"
        try """
            #!/bin/sh
            [ "$1" = video-helper ] && echo started >> '\(helpers)/video-helpers'
            if [ "$1" = video-helper ] && mkdir '\(helpers)/first' 2>/dev/null; then /bin/sleep 8; fi
            exec '\(CarouselBinary.url.path)' "$@"

            """.write(toFile: script, atomically: true, encoding: .utf8)
        chmod(script, 0o755)
        let app = try RunningCarousel(args: [dir, "--size", "640x360", "--autoplay", "4", "--order", "name", "--transition", "none", "--decode-timeout", "30"],
                                      display: x.display, environment: ["CAROUSEL_DECODE_HELPER": script])
        defer { if app.process.isRunning { kill(app.process.processIdentifier, SIGKILL) } }
        #expect(app.waitFor("video_started", count: 1, timeout: 30), "no clip started: \(app.log)")
        let started = try #require(app.ofType("video_started").first)
        let arrived = app.ofType("settled").first { $0["index"] as? Int == 1 }?["t_ms"] as? Double ?? .infinity
        let at = started["t_ms"] as? Double ?? .infinity
        #expect(started["ahead"] as? Int == 1, "\(started)")
        #expect(at - arrived < 1_500, "the clip started \(at - arrived) ms after the strip rested on it (its poster's helper was 8 s late)")
        // Two video helpers by then: the posters' and the one made ready. The picture's passes
        // took the one made ready away, and each started another (five in 2 s).
        let helpersStarted = (try? String(contentsOfFile: helpers + "/video-helpers", encoding: .utf8))?.split(separator: "\n").count ?? 0
        #expect(helpersStarted <= 2, "\(helpersStarted) video helpers started by the time the clip played")
    }

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

/// `--audio` in the real window under Xvfb, the sound going to SDL's disk writer (this
/// machine has no sound card; that writer takes its samples about 6 % faster than real
/// time, as a cheap card's clock might): the clip's own tones come out in their order,
/// its picture keeps to them, and once it stops the sound output is closed (no audio
/// thread waking at rest). Without a sound output, one line says so and the clip plays.
@Suite(.serialized, .enabled(if: RequiredTools.run(missing: XvfbSession.unavailableReason), "Xvfb or xdotool missing; run kiosk/setup"))
struct ClipSoundWindowTests {
    /// SDL's audio threads in the program now.
    static func soundThreads(of pid: pid_t) -> Int {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        return tasks.filter { ((try? String(contentsOfFile: "/proc/\(pid)/task/\($0)/comm", encoding: .utf8)) ?? "").hasPrefix("SDLAudio") }.count
    }

    /// The tone (Hz, to the nearest of the clips' own) of each tenth of a second written.
    static func tones(in file: String) throws -> [Double?] {
        let samples = [UInt8](try Data(contentsOf: URL(fileURLWithPath: file)))
        return stride(from: 0, to: samples.count / 4 - 4_800, by: 4_800).map { start in
            let tone = ClipFixtures.tone(of: samples, from: start, count: 4_800)
            return ClipFixtures.tones.first { abs($0 - tone) < 15 }
        }
    }

    @Test func theClipsSoundPlaysInOrderAndItsPictureKeepsToIt() throws {
        let x = try XvfbSession()
        let dir = try Fixtures.temporaryFolder("sound-clips")
        try Fixtures.bmp(320, 240) { _, _ in (90, 90, 90) }.write(to: URL(fileURLWithPath: dir + "/a.bmp"))
        try ClipFixtures.make(.h264MP4, seconds: [0, 1, 2], in: dir, name: "b", sound: true)
        let written = try Fixtures.temporaryFolder("sound-out") + "/out.raw"
        // --decode-timeout 60: the poster's decode took over 10 s under ThreadSanitizer beside a
        // build, failed, and the clip never played.
        let app = try RunningCarousel(args: [dir, "--size", "640x360", "--start-index", "1", "--audio", "--decode-timeout", "60"], display: x.display,
                                      environment: ["SDL_AUDIODRIVER": "disk", "SDL_DISKAUDIOFILE": written])
        defer { if app.process.isRunning { kill(app.process.processIdentifier, SIGKILL) } }
        #expect(app.waitFor("video_started", count: 1, timeout: 30), "no clip started: \(app.log)")
        let pid = app.process.processIdentifier
        #expect(Self.soundThreads(of: pid) == 1, "the sound output is open while the clip plays")
        Thread.sleep(forTimeInterval: 4.5)  // the clip (3 s) and the start of its second pass
        let wid = try x.xdotool(["search", "--sync", "--onlyvisible", "--name", "KioskCarousel"])
            .split(separator: "\n").first.map(String.init) ?? ""
        try x.xdotool(["key", "--window", wid, "Left"])
        #expect(app.waitFor("frames_dropped", count: 1, timeout: 20), "the clip did not stop: \(app.lines)")
        let stopped = try #require(app.ofType("frames_dropped").first)
        // The target (every frame within 40 ms) is what `carousel bench` measures. Here, on a
        // machine that may be busy, one stall shows a frame far from the sound (400 ms seen
        // at load 7), so the test is that most frames are near it: a picture left on its own
        // clock has two frames in three more than 40 ms off the writer's sound after these
        // 4.5 s (93 of 136, seen); following it, at most a few (0 at rest, 5 of 82 at load 7).
        // Under ThreadSanitizer the program cannot draw 30 frames a second (62 shown, 43
        // late, seen): there the drift is only measured.
        #expect(stopped["drift_ms"] as? Int != nil, "measured against the sound: \(stopped)")
        let shown = stopped["shown"] as? Int ?? 0, drifted = stopped["drifted"] as? Int ?? shown
        #expect(shown > 20, "frames were shown: \(stopped)")
        if !IsolatedDecodingTests.sanitized {
            #expect(drifted * 10 <= shown * 3, "the picture kept to the sound: \(stopped)")
        }
        var threads = Self.soundThreads(of: pid)
        for _ in 0..<30 where threads > 0 { Thread.sleep(forTimeInterval: 0.1); threads = Self.soundThreads(of: pid) }
        #expect(threads == 0, "the sound output is closed once no clip plays")
        // What came out: the clip's tones in its order, a second each, and again from the first.
        let heard = try Self.tones(in: written).compactMap { $0 }
        var runs: [(tone: Double, count: Int)] = []
        for t in heard { if runs.last?.tone == t { runs[runs.count - 1].count += 1 } else { runs.append((t, 1)) } }
        let order = runs.filter { $0.count >= 3 }.map(\.tone)
        #expect(Array(order.prefix(4)) == [440, 660, 880, 440], "tones in the order played: \(runs)")
        #expect(runs.filter { $0.count >= 3 }.dropFirst().prefix(2).allSatisfy { (9...11).contains($0.count) },
                "a second of each: \(runs)")
    }

    @Test func withoutASoundOutputOneLineSaysSoAndTheClipPlays() throws {
        let x = try XvfbSession()
        let dir = try Fixtures.temporaryFolder("sound-none")
        try ClipFixtures.make(.h264MP4, seconds: [0, 1], in: dir, name: "b", sound: true)
        let app = try RunningCarousel(args: [dir, "--size", "640x360", "--audio"], display: x.display,
                                      environment: ["SDL_AUDIODRIVER": "no-such-driver"])
        defer { if app.process.isRunning { kill(app.process.processIdentifier, SIGKILL) } }
        #expect(app.waitFor("video_started", count: 1, timeout: 30), "no clip started: \(app.log)")
        Thread.sleep(forTimeInterval: 0.5)
        let said = app.log.split(separator: "\n").filter { $0.contains("--audio") }
        #expect(said.count == 1 && said.first?.contains("without sound") == true, "\(app.log)")
        #expect(Self.soundThreads(of: app.process.processIdentifier) == 0)
    }
}

/// Animated tiles in the real wall under Xvfb: with three on screen, two play, each in a
/// video helper of its own, and never a third at once.
@Suite(.serialized, .enabled(if: RequiredTools.run(missing: XvfbSession.unavailableReason), "Xvfb or xdotool missing; run kiosk/setup"))
struct WallAnimationWindowTests {
    @Test func atMostTheBudgetDecodesAtOnce() throws {
        let x = try XvfbSession()
        let dir = try WallAnimationRenderTests.folder()
        let app = try RunningCarousel(args: [dir, "--size", "960x540", "--view", "mosaic", "--columns", "4,4"], display: x.display)
        defer { if app.process.isRunning { kill(app.process.processIdentifier, SIGKILL) } }
        #expect(app.waitFor("video_started", count: 2, timeout: 30), "no tile played: \(app.log)")
        let pid = app.process.processIdentifier
        var most = 0
        for _ in 0..<20 {
            most = max(most, ClipWindowTests.videoHelpers(of: pid).count)
            Thread.sleep(forTimeInterval: 0.1)
        }
        #expect(most == TileAnimations.budget, "video helpers at once: \(most)")
        #expect(app.ofType("video_started").count == 2, "\(app.ofType("video_started"))")
    }
}

/// Clips of different colour matrices one after the other in the real window (OpenGL under
/// Xvfb): a camera's Motion JPEG (full range) and then a phone's H.264 (limited range) each
/// show in their own colours, the second not through the conversion the first left set.
@Suite(.serialized, .enabled(if: RequiredTools.run(missing: XvfbSession.unavailableReason), "Xvfb or xdotool missing; run kiosk/setup"))
struct ClipColourWindowTests {
    @Test func eachClipShowsInItsOwnMatrix() throws {
        let x = try XvfbSession()
        let dir = try Fixtures.temporaryFolder("matrices")
        // Colour 4, (128, 96, 64): one a wrong range or matrix visibly moves.
        try ClipFixtures.make(.mjpegAVI, seconds: [4, 4], width: 320, height: 240, rate: 10, in: dir, name: "1-camera")
        try ClipFixtures.make(.h264MP4, seconds: [4, 4], width: 320, height: 240, rate: 10, in: dir, name: "2-phone")
        // A poster that takes longer than the decode timeout (a video helper starting under
        // ThreadSanitizer beside its suite) shows as failed, in the failed placeholder's
        // (74, 48, 48), before and after its clip: given time, it is the clip's still.
        let k = try ControlAPITests.Kiosk([dir, "--size", "640x360", "--autoplay", "1", "--order", "name", "--transition", "none", "--decode-timeout", "60"],
                                          display: x.display)
        defer { k.stop() }
        func centre() throws -> [Int] {
            let shot = try #require(k.probe.request("GET", "/screenshot.png"))
            let image = try PNGCodec.decode(shot.body, fittingIn: Size(width: 4096, height: 4096), path: "screenshot.png")
            // Left of the centre, inside the picture: clear of a poster's play mark.
            let i = (image.height / 2 * image.width + image.width / 2 - image.width / 6) * 4
            return image.pixels[i..<(i + 3)].map { Int($0) }
        }
        let expected = [128, 96, 64]
        for (n, name) in [(1, "the camera's Motion JPEG"), (2, "the phone's H.264 after it")] {
            #expect(k.app.waitFor("video_started", count: n, timeout: 30), "\(name) did not play: \(k.app.lines)")
            // Its frames in the centre over the next second, every one in the clip's colour (a
            // busy machine may not have drawn the first yet: white, the item's empty box, or
            // the placeholder's grey while its poster decodes).
            var seen: [[Int]] = []
            for _ in 0..<10 {
                Thread.sleep(forTimeInterval: 0.1)  // the next frames (time meant to pass)
                let c = try centre()
                if !(c[0] == c[1] && c[1] == c[2]) { seen.append(c) }
            }
            // Its lines say why an item showed as failed (the failed placeholder, (74, 48, 48)).
            #expect(!seen.isEmpty && seen.allSatisfy { zip($0, expected).allSatisfy { abs($0 - $1) <= 6 } },
                    "\(name): \(seen), not \(expected); its lines: \(k.app.lines.suffix(12))")
        }
    }
}
