import Foundation
import Testing
import TestSupport
@testable import CarouselApp
@testable import CarouselMedia
import CarouselCore

/// The control API of the real program, through real sockets on loopback: every endpoint
/// and command, the refusals, Prometheus' own checker on /metrics, the event stream, and
/// under Xvfb a finger that wins over a command and a program that stays idle with it on.
@Suite(.serialized) struct ControlAPITests {
    /// The program with `--control 127.0.0.1:0`, and a probe on the port it chose.
    struct Kiosk {
        let app: RunningCarousel
        let probe: HTTPProbe

        init(_ args: [String], display: String? = nil) throws {
            var env = ["SDL_VIDEODRIVER": "dummy"]
            if display != nil { env = [:] }
            app = try RunningCarousel(args: args + ["--control", "127.0.0.1:0"], display: display ?? ":0", environment: env)
            var port: Int?
            for _ in 0..<200 where port == nil {
                if let line = app.log.split(separator: "\n").first(where: { $0.contains("control: listening on 127.0.0.1:") }) {
                    port = Int(line.split(separator: ":").last!.split(separator: " ").first!)
                } else { Thread.sleep(forTimeInterval: 0.05) }
            }
            probe = HTTPProbe(port: port ?? 1)
        }

        func stop() { if app.process.isRunning { kill(app.process.processIdentifier, SIGKILL) } }

        /// The status once `check` holds (pictures decode at start), up to `seconds`.
        func status(within seconds: Int = 10, until check: ([String: Any]) -> Bool = { _ in true }) -> [String: Any]? {
            for _ in 0..<(seconds * 10) {
                if let s = probe.request("GET", "/status")?.json, check(s) { return s }
                Thread.sleep(forTimeInterval: 0.1)
            }
            return nil
        }
    }

    @Test func withoutATokenAnAddressOthersCanReachIsRefused() throws {
        let r = try CarouselBinary.run(["--control", "0.0.0.0:8097", try Fixtures.imageFolder()], environment: ["SDL_VIDEODRIVER": "dummy"])
        #expect(r.status == 64)
        #expect(r.stderr.contains("--control 0.0.0.0:8097 is reachable from other machines: give it --control-token-file FILE"))
        let bad = try CarouselBinary.run(["--control", "8097", try Fixtures.imageFolder()], environment: ["SDL_VIDEODRIVER": "dummy"])
        #expect(bad.status == 64 && bad.stderr.contains("--control must be ADDR:PORT"))
        let missing = try CarouselBinary.run(["--control", "0.0.0.0:8097", "--control-token-file", "/nonexistent/token",
                                              try Fixtures.imageFolder()], environment: ["SDL_VIDEODRIVER": "dummy"])
        #expect(missing.status != 0 && missing.stderr.contains("--control-token-file /nonexistent/token: cannot be read"))
    }

    @Test func everyEndpointAndCommand() throws {
        let folder = try Fixtures.imageFolder()
        let k = try Kiosk([folder, "--size", "640x360", "--autoplay", "30", "--order", "name"])
        defer { k.stop() }
        let first = try #require(k.status { $0["frames_drawn"] as? Int ?? 0 > 0 })
        #expect(first["view"] as? String == "carousel" && first["index"] as? Int == 0 && first["playing"] as? Bool == true)
        let count = try #require(first["count"] as? Int)
        #expect(count >= 3)
        // The frames drawn are the last minute's (recorded and asked for on one clock):
        // a time each, under a second at 640×360 with nothing else to do.
        let p99 = try #require(first["frame_time_p99_ms"] as? Double, "no frame figures in \(first)")
        #expect(p99 > 0 && p99 < 1000)

        // Each command answers with the status it leads to (after its motion).
        #expect(k.probe.request("POST", "/next")?.json?["index"] as? Int == 1)
        #expect(k.probe.request("POST", "/last")?.json?["index"] as? Int == count - 1)
        #expect(k.probe.request("POST", "/previous")?.json?["index"] as? Int == count - 2)
        #expect(k.probe.request("POST", "/first")?.json?["index"] as? Int == 0)
        #expect(k.probe.request("POST", "/goto", body: #"{"index": 2}"#)?.json?["index"] as? Int == 2)
        let source = try #require(first["source"] as? String)
        let back = try #require(k.probe.request("POST", "/goto", body: "{\"source\": \"\(source)\"}"))
        #expect(back.status == 200 && back.json?["index"] as? Int == 0)
        #expect(k.probe.request("POST", "/goto", body: #"{"source": "/no/such.jpg"}"#)?.status == 404)
        #expect(k.probe.request("POST", "/goto", body: "{\"index\": \(count)}")?.status == 404)
        #expect(k.probe.request("POST", "/pause")?.json?["playing"] as? Bool == false)
        #expect(k.probe.request("POST", "/play")?.json?["playing"] as? Bool == true)
        let carouselOnly = try #require(k.probe.request("POST", "/view", body: #"{"mode": "mosaic"}"#))
        #expect(carouselOnly.status == 409 && (carouselOnly.json?["error"] as? String ?? "").contains("carousel only"))
        let brightness = try #require(k.probe.request("POST", "/brightness", body: #"{"value": 0.5}"#))
        #expect(brightness.status == 409, "this machine's panel has no backlight")

        // A screenshot at the screen's size, or scaled down.
        let shot = try #require(k.probe.request("GET", "/screenshot.png"))
        #expect(shot.status == 200 && shot.headers["content-type"] == "image/png")
        #expect(pngSize(shot.body) == "640x360")
        #expect(pngSize(try #require(k.probe.request("GET", "/screenshot.png?width=160")).body) == "160x90")

        // The screen off by command: status says so, the screenshot is black, a move is refused.
        let off = try #require(k.probe.request("POST", "/screen", body: #"{"on": false}"#))
        let screen = off.json?["screen"] as? [String: Any]
        #expect(screen?["on"] as? Bool == false && screen?["reason"] as? String == "command")
        #expect(k.probe.request("POST", "/next")?.status == 409)
        let dark = try #require(k.probe.request("GET", "/screenshot.png?width=64"))
        #expect(dark.status == 200 && pngSize(dark.body) == "64x36")
        // Black, every pixel of it (the lit screen's shot has the pictures: not black).
        func brightest(_ png: [UInt8]) throws -> UInt8 {
            let image = try PNGCodec.decode(png, fittingIn: Size(width: 4096, height: 4096), path: "screenshot.png")
            return image.pixels.enumerated().filter { $0.offset % 4 != 3 }.map(\.element).max() ?? 255
        }
        #expect(try brightest(dark.body) == 0)
        #expect(try brightest(shot.body) > 100)
        #expect(k.app.waitForLog("screen: black, the panel stays lit"))
        let on = try #require(k.probe.request("POST", "/screen", body: #"{"on": true}"#))
        #expect((on.json?["screen"] as? [String: Any])?["on"] as? Bool == true)
        #expect(k.app.waitFor("screen", count: 2), "each change is a screen event")

        // Reload (as SIGHUP): the same process answers again, on the same picture.
        #expect(k.probe.request("POST", "/reload")?.status == 200)
        #expect(k.status { $0["frames_drawn"] as? Int ?? 0 > 0 && $0["index"] as? Int == 0 } != nil)
        #expect(k.app.process.isRunning)
    }

    /// `POST /seek` moves the clip in focus (the same input as L and J), answers with the
    /// status, and is refused where no clip is in focus.
    @Test func seekMovesTheClipInFocusAndIsRefusedElsewhere() throws {
        let dir = try Fixtures.temporaryFolder("seek-api")
        try ClipFixtures.make(.vp9WebM, seconds: [0, 1, 2, 3], rate: 5, in: dir, name: "a")
        try Fixtures.bmp(320, 240) { _, _ in (90, 90, 90) }.write(to: URL(fileURLWithPath: dir + "/b.bmp"))
        let k = try Kiosk([dir, "--size", "640x360"])
        defer { k.stop() }
        _ = k.status { $0["frames_drawn"] as? Int ?? 0 > 0 }
        #expect(k.app.waitFor("video_started", count: 1, timeout: 20))
        let sought = try #require(k.probe.request("POST", "/seek", body: #"{"seconds": 2.5}"#))
        #expect(sought.status == 200 && sought.json?["index"] as? Int == 0, "\(sought.status) \(String(decoding: sought.body, as: UTF8.self))")
        #expect(k.app.waitFor("video_seek", count: 1))
        #expect(k.app.ofType("video_seek").first?["position_ms"] as? Int == 2500)
        #expect(k.probe.request("POST", "/seek", body: #"{"by": -1}"#)?.status == 200)
        #expect(k.app.waitFor("video_seek", count: 2))
        let back = try #require(k.app.ofType("video_seek").last?["position_ms"] as? Int)
        #expect((1500...2600).contains(back), "a second back from the frame on screen: \(back)")
        #expect(k.probe.request("POST", "/seek", body: "soon")?.status == 400)
        #expect(k.probe.request("POST", "/next")?.json?["index"] as? Int == 1)
        let refused = try #require(k.probe.request("POST", "/seek", body: #"{"seconds": 1}"#))
        #expect(refused.status == 409 && refused.json?["error"] as? String == "no clip is in focus")
    }

    @Test func metricsPassPromtoolAndEventsStreamLive() throws {
        let k = try Kiosk([try Fixtures.imageFolder(), "--size", "640x360"])
        defer { k.stop() }
        _ = k.status { $0["frames_drawn"] as? Int ?? 0 > 0 }
        let fd = k.probe.connect()
        defer { close(fd) }
        _ = HTTPProbe.send(fd, Array("GET /events HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
        // The stream's first comment comes once the connection follows the feed.
        let head = HTTPProbe.readAll(fd, timeout: 10, until: ": following the event log").bytes
        _ = k.probe.request("POST", "/next")
        let stream = String(decoding: head + HTTPProbe.readAll(fd, timeout: 1.5).bytes, as: UTF8.self)
        #expect(stream.contains("text/event-stream"))
        #expect(stream.contains("data: {\"t_ms\":") && stream.contains("\"type\":\"settled\",\"index\":1}"))

        let metrics = try #require(k.probe.request("GET", "/metrics"))
        #expect(metrics.status == 200 && metrics.headers["content-type"]?.hasPrefix("text/plain; version=0.0.4") == true)
        #expect(metrics.text.contains("carousel_current_index 1"))
        #expect(metrics.text.contains("carousel_frame_seconds_bucket{le=\"+Inf\"}"))
        let decodes = metrics.text.split(separator: "\n").first { $0.hasPrefix("carousel_decodes_total ") }
        #expect((decodes?.split(separator: " ").last.flatMap { Double($0) } ?? 0) >= 2, "the pictures shown were decoded: \(decodes ?? "none")")
        let p = Process()
        p.executableURL = try OutsideProgram.promtool.url
        p.arguments = ["check", "metrics"]
        let input = Pipe(), output = Pipe()
        p.standardInput = input
        p.standardOutput = output
        p.standardError = output
        try p.run()
        input.fileHandleForWriting.write(Data(metrics.body))
        try input.fileHandleForWriting.close()
        let said = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        #expect(p.terminationStatus == 0, "promtool check metrics: \(said)")
    }

    @Test func aWebSourceIsSaidOnlineWithItsLastSuccessThenOffline() throws {
        let server = try RemoteShowTests.server(listing: RemoteShowTests.names.map { "pics/" + $0 })
        let url = server.url("/show.toml")
        let k = try Kiosk([url, "--size", "640x360", "--cache-dir", try Fixtures.temporaryFolder("remote-cache"), "--refresh", "5"])
        defer { k.stop() }
        let online = k.status { (($0["sources"] as? [[String: Any]])?.first?["state"] as? String) == "online" }
        let source = (online?["sources"] as? [[String: Any]])?.first
        #expect(source?["url"] as? String == url)
        #expect((source?["last_success"] as? String)?.hasPrefix("20") == true, "an ISO 8601 time: \(String(describing: source))")
        server.stop()
        let offline = k.status(within: 30) { (($0["sources"] as? [[String: Any]])?.first?["state"] as? String) == "offline" }
        #expect(offline != nil, "the source never said offline")
        #expect(((offline?["sources"] as? [[String: Any]])?.first?["last_success"] as? String) == source?["last_success"] as? String,
                "the last success stays when the server goes")
        let metrics = k.probe.request("GET", "/metrics")?.text ?? ""
        #expect(metrics.contains("carousel_source_online{url=\"\(url)\"} 0"))
    }

    @Test func theWallAndTheCarouselOpenedOverIt() throws {
        let k = try Kiosk([try Fixtures.imageFolder(), "--size", "640x360", "--view", "mosaic"])
        defer { k.stop() }
        // A tile placed (the wall places them as their sizes are read; before, the command is refused).
        #expect(k.status { $0["index"] as? Int != nil }?["view"] as? String == "mosaic")
        let opened = try #require(k.probe.request("POST", "/view", body: #"{"mode": "carousel"}"#))
        #expect(opened.status == 200 && opened.json?["view"] as? String == "carousel")
        #expect(k.probe.request("POST", "/next")?.json?["index"] as? Int == 1)
        let wall = try #require(k.probe.request("POST", "/view", body: #"{"mode": "mosaic"}"#))
        #expect(wall.json?["view"] as? String == "mosaic")
        // One name per view: "wall" is none of them.
        #expect(k.probe.request("POST", "/view", body: #"{"mode": "wall"}"#)?.status == 400)
    }

    /// The grid is "grid" everywhere: in /status, and in the view command that goes back to it.
    @Test func theGridIsCalledGrid() throws {
        let k = try Kiosk([try Fixtures.imageFolder(), "--size", "640x360", "--view", "grid"])
        defer { k.stop() }
        #expect(k.status { $0["index"] as? Int != nil }?["view"] as? String == "grid")
        #expect(k.probe.request("POST", "/view", body: #"{"mode": "carousel"}"#)?.json?["view"] as? String == "carousel")
        #expect(k.probe.request("POST", "/view", body: #"{"mode": "grid"}"#)?.json?["view"] as? String == "grid")
    }

    /// Width and height from a PNG's IHDR.
    func pngSize(_ b: [UInt8]) -> String {
        guard b.count > 24, b[1] == 0x50, b[2] == 0x4e else { return "not a PNG" }
        func u32(_ i: Int) -> Int { Int(b[i]) << 24 | Int(b[i + 1]) << 16 | Int(b[i + 2]) << 8 | Int(b[i + 3]) }
        return "\(u32(16))x\(u32(20))"
    }
}

/// The real window under Xvfb with the API on.
@Suite(.serialized, .enabled(if: RequiredTools.run(missing: XvfbSession.unavailableReason), "Xvfb or xdotool missing; run kiosk/setup"))
struct ControlWindowTests {
    @Test(.enabled(if: RequiredTools.run(missing: MosquittoBroker.unavailableReason), "mosquitto missing; run kiosk/setup"))
    func aFingerDownWinsOverACommandAndTheProgramRestsWithTheAPIAndMQTTOn() throws {
        let x = try XvfbSession()
        let broker = try MosquittoBroker()
        let k = try ControlAPITests.Kiosk([try Fixtures.imageFolder(), "--size", "1280x720", "--mqtt", "mqtt://127.0.0.1:\(broker.port)"],
                                          display: x.display)
        defer { k.stop() }
        #expect(k.app.waitFor("pool", count: 1), "the window did not open")
        let wid = try x.xdotool(["search", "--sync", "--onlyvisible", "--name", "KioskCarousel"])
            .split(separator: "\n").first.map(String.init) ?? ""
        // A mapped window is not always reading input yet: tap until a tap comes back.
        for _ in 0..<30 where k.app.ofType("tap").isEmpty {
            try x.xdotool(["mousemove", "--window", wid, "640", "360", "click", "1"])
            Thread.sleep(forTimeInterval: 0.5)
        }
        try x.xdotool(["mousemove", "--window", wid, "640", "360", "mousedown", "1", "sleep", "0.2", "mousemove", "--window", wid, "600", "360"])
        #expect(k.status { $0["frames_drawn"] != nil } != nil)
        var refused: HTTPProbe.Response?
        for _ in 0..<20 {
            refused = k.probe.request("POST", "/next")
            if refused?.status == 409 { break }
            Thread.sleep(forTimeInterval: 0.1)
        }
        #expect(refused?.status == 409 && (refused?.json?["error"] as? String ?? "").contains("the finger wins"))
        try x.xdotool(["mousemove", "--window", wid, "640", "360", "mouseup", "1"])
        var afterLift: Int?
        for _ in 0..<50 {
            afterLift = k.probe.request("POST", "/next")?.status
            if afterLift == 200 { break }
            Thread.sleep(forTimeInterval: 0.1)
        }
        #expect(afterLift == 200, "once the finger lifts the command goes through")
        // Screen off on X11: the server's DPMS extension, which Xvfb does not have: black, and why.
        #expect(k.probe.request("POST", "/screen", body: #"{"on": false}"#)?.status == 200)
        #expect(k.app.waitForLog("screen: black, the panel stays lit: the X server has no DPMS extension"), "log: \(k.app.log)")
        #expect(k.probe.request("POST", "/screen", body: #"{"on": true}"#)?.status == 200)

        // At rest with the API listening and MQTT connected: no CPU.
        #expect(k.app.waitForLog("mqtt: connected"))
        // The last change's screenshot for MQTT comes up to 5 s after the one before.
        Thread.sleep(forTimeInterval: 6)
        // The main thread (the run loop), the API's (NIO) and MQTT's (libmosquitto) do not
        // wake at all; the process as a whole uses under 5 ms of CPU in 5 s. (libdispatch's
        // manager thread wakes once a second with or without the control part, 0.04 ms a time.)
        // What the commands above set going may still end late on a busy machine (in one run
        // of the whole suite this test took 100 s and the run loop woke 6 times in its one
        // window, untraced), so up to three windows of 5 s are looked at: a program with a
        // wake-up of its own at rest fails all three.
        let pid = Int(k.app.process.processIdentifier)
        var problems: [String] = []
        for _ in 0..<3 {
            k.app.waitForRest()
            let before = k.app.threadStats
            Thread.sleep(forTimeInterval: 5)
            let after = k.app.threadStats
            problems = []
            for (tid, a) in after where tid == pid || a.name.hasPrefix("NIO-ELT") || a.name.hasPrefix("mosquitto") {
                // MQTT pings the broker once a minute (its keepalive): once at most in 5 s.
                let allowed = a.name.hasPrefix("mosquitto") ? 1 : 0
                let woke = a.runs - (before[tid]?.runs ?? 0)
                if woke > allowed { problems.append("\(a.name) woke \(woke) times at rest") }
            }
            let ns = after.map { tid, a in a.ns - (before[tid]?.ns ?? 0) }.reduce(0, +)
            if ns >= 5_000_000 { problems.append("\(Double(ns) / 1e6) ms of CPU at rest over 5 s with --control and --mqtt on") }
            if problems.isEmpty { break }
        }
        #expect(problems.isEmpty, "in each of three windows; the last: \(problems.joined(separator: "; "))")
    }
}
