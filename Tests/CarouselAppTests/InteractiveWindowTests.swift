import Foundation
import Testing

/// The real window under Xvfb, driven by real X11 events from xdotool.
@Suite(.serialized, .enabled(if: XvfbSession.unavailableReason == nil,
                             "Xvfb or xdotool missing; run kiosk/setup"))
struct InteractiveWindowTests {
    /// Ten images, so that a fling has room.
    static func images() throws -> String {
        let dir = try Fixtures.temporaryFolder("window")
        for i in 0..<10 {
            let shade = UInt8(40 + i * 20)
            try Fixtures.bmp(320, 240) { _, _ in (shade, 120, 255 - shade) }
                .write(to: URL(fileURLWithPath: dir + "/img\(i).bmp"))
        }
        return dir
    }

    /// xdotool arguments: press at x1, move to x2 in `steps` steps `pause` s apart,
    /// optionally rest `hold` s, release. One xdotool process, so timing is tight.
    static func drag(_ wid: String, from x1: Int, to x2: Int, steps: Int, pause: Double, hold: Double = 0) -> [String] {
        var a = ["mousemove", "--window", wid, "\(x1)", "360", "mousedown", "1"]
        for i in 1...steps {
            a += ["sleep", "\(pause)", "mousemove", "--window", wid, "\(x1 + (x2 - x1) * i / steps)", "360"]
        }
        if hold > 0 { a += ["sleep", "\(hold)"] }
        return a + ["mouseup", "1"]
    }

    @Test func dragsKeysAndWheelGiveTheRightDecisions() throws {
        let x = try XvfbSession()
        let app = try RunningCarousel(args: [try Self.images(), "--size", "1280x720"], display: x.display)
        defer { if app.process.isRunning { kill(app.process.processIdentifier, SIGKILL) } }
        #expect(app.waitFor("pool", count: 1), "the window did not open")
        let wid = try x.xdotool(["search", "--sync", "--onlyvisible", "--name", "KioskCarousel"])
            .split(separator: "\n").first.map(String.init) ?? ""
        #expect(!wid.isEmpty)
        // A mapped window is not always reading input yet. Tap the centred item until the
        // tap comes back; it leaves the position alone.
        for _ in 0..<30 where app.ofType("tap").isEmpty {
            try x.xdotool(["mousemove", "--window", wid, "640", "360", "click", "1"])
            Thread.sleep(forTimeInterval: 0.5)
        }
        #expect(!app.ofType("tap").isEmpty, "the window never answered a tap")
        let probes = app.ofType("activate").count

        // Quick and short: a swipe from 0 to 1.
        try x.xdotool(Self.drag(wid, from: 800, to: 700, steps: 5, pause: 0.016))
        #expect(app.waitFor("settled", count: 1), "events so far: \(app.lines)")
        // Slow, long and held before lifting: a realign to the nearest (1 + 400/806 → 1).
        try x.xdotool(Self.drag(wid, from: 1000, to: 600, steps: 10, pause: 0.05, hold: 0.2))
        #expect(app.waitFor("settled", count: 2))
        // Long and quick: a fling carrying past the next item.
        try x.xdotool(Self.drag(wid, from: 1100, to: 300, steps: 8, pause: 0.01))
        #expect(app.waitFor("settled", count: 3))
        let releases = app.ofType("release")
        #expect(releases.map { $0["decision"] as? String } == ["swipe", "realign", "fling"])
        #expect(releases.map { $0["from"] as? Int } == [0, 1, 1])
        #expect(releases.first?["to"] as? Int == 1)
        #expect(releases.dropFirst().first?["to"] as? Int == 1)
        let flungTo = releases.last?["to"] as? Int ?? 0
        #expect(flungTo > 2, "momentum carries the fling past item 2: \(flungTo)")

        // Keys and the wheel.
        try x.xdotool(["key", "--window", wid, "Home"])
        #expect(app.waitFor("settled", count: 4))
        try x.xdotool(["key", "--window", wid, "Right"])
        #expect(app.waitFor("settled", count: 5))
        try x.xdotool(["mousemove", "--window", wid, "640", "360", "click", "5"])
        #expect(app.waitFor("settled", count: 6))
        try x.xdotool(["key", "--window", wid, "End"])
        #expect(app.waitFor("settled", count: 7))
        #expect(app.ofType("settled").map { $0["index"] as? Int } == [1, 1, flungTo, 0, 1, 2, 9])

        // Tap the centred item: activate with its file.
        try x.xdotool(["mousemove", "--window", wid, "640", "360", "click", "1"])
        #expect(app.waitFor("activate", count: probes + 1))
        #expect((app.ofType("activate").last?["source"] as? String)?.hasSuffix("img9.bmp") == true)

        // At rest: under 2% of one core over 3 s (CPU time from /proc, not wall time).
        Thread.sleep(forTimeInterval: 0.5)
        let before = app.cpuTicks
        Thread.sleep(forTimeInterval: 3)
        let used = app.cpuTicks - before
        let ticksPerSecond = Int(sysconf(Int32(_SC_CLK_TCK)))
        #expect(used >= 0 && Double(used) < 0.02 * 3 * Double(ticksPerSecond), "\(used) ticks at rest")

        // SIGTERM (blocked in the mask the test runner passes on: the carousel unblocks it).
        app.process.terminate()
        let deadline = Date().addingTimeInterval(5)
        while app.process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        #expect(!app.process.isRunning, "SIGTERM did not stop it")
        #expect(app.process.terminationReason == .exit && app.process.terminationStatus == 0)
    }

    @Test func escapeQuitsWithStatusZero() throws {
        let x = try XvfbSession()
        let app = try RunningCarousel(args: [try Self.images()], display: x.display)
        #expect(app.waitFor("pool", count: 1))
        let wid = try x.xdotool(["search", "--sync", "--name", "KioskCarousel"])
            .split(separator: "\n").first.map(String.init) ?? ""
        try x.xdotool(["key", "--window", wid, "Escape"])
        let deadline = Date().addingTimeInterval(5)
        while app.process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        if app.process.isRunning { kill(app.process.processIdentifier, SIGKILL) }
        #expect(app.process.terminationStatus == 0)
    }

    @Test func closingTheWindowQuitsWithStatusZero() throws {
        let x = try XvfbSession()
        let app = try RunningCarousel(args: [try Self.images()], display: x.display)
        #expect(app.waitFor("pool", count: 1))
        let wid = try x.xdotool(["search", "--sync", "--name", "KioskCarousel"])
            .split(separator: "\n").first.flatMap { UInt($0) } ?? 0
        #expect(WindowCloser.close(window: wid, display: x.display), "could not send WM_DELETE_WINDOW")
        let deadline = Date().addingTimeInterval(5)
        while app.process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        let stillRunning = app.process.isRunning
        if stillRunning { kill(app.process.processIdentifier, SIGKILL) }
        #expect(!stillRunning, "the window close was ignored")
        #expect(app.process.terminationStatus == 0)
    }

    @Test func noDisplayIsOneLineSayingWhatToDo() throws {
        let r = try CarouselBinary.run([try Self.images()],
                                       environment: ["DISPLAY": "", "WAYLAND_DISPLAY": "", "SDL_VIDEODRIVER": "x11"])
        #expect(r.status != 0)
        #expect(r.stderr.hasPrefix("carousel: no display available"))
        #expect(r.stderr.contains("carousel render"))
        #expect(r.stderr.split(separator: "\n").count == 1)
    }

    @Test func missingSourceFailsBeforeOpeningAWindow() throws {
        let r = try CarouselBinary.run(["/no/such/folder"], environment: ["DISPLAY": ""])
        #expect(r.status == 1)
        #expect(r.stderr == "carousel: /no/such/folder: no such file or folder\n")
    }
}
