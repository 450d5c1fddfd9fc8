import Foundation
import Testing
@testable import CarouselApp
import TestSupport

/// The real window under Xvfb, driven by real X11 events from xdotool.
@Suite(.serialized, .enabled(if: RequiredTools.run(missing: XvfbSession.unavailableReason),
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

        /// Puts `index` in the centre with keys, from wherever the strip is.
        func goTo(_ index: Int) throws {
            try x.xdotool(["key", "--window", wid, "Home"] + Array(repeating: "Right", count: index))
            app.waitForRest()
        }
        /// Runs a drag meant to be quick and returns its release. On a loaded machine the X
        /// server or the carousel can be descheduled mid-drag, so the pointer really arrives
        /// slowly (a 40 ms gap reads as "stopped") and the engine rightly realigns; then the
        /// strip goes back to `start` and the drag is tried again, up to four times. Slowed
        /// but not stopped (under ThreadSanitizer, in CI), a swipe's 100 px came in at a speed
        /// that is rightly a realign: a drag is tried again until it is `wanted`.
        func quickDrag(_ args: [String], from start: Int, wanted: String) throws -> [String: Any]? {
            var release: [String: Any]? = nil
            for _ in 0..<4 {
                let n = app.ofType("release").count, settled = app.ofType("settled").count
                try x.xdotool(args)
                guard app.waitFor("settled", count: settled + 1), app.ofType("release").count > n else { return nil }
                release = app.ofType("release")[n]
                if release?["decision"] as? String == wanted { return release }
                try goTo(start)
            }
            return release
        }
        func lastSettled(after count: Int) -> Int? {
            app.waitFor("settled", count: count + 1)
            return app.ofType("settled").last?["index"] as? Int
        }

        // Quick and short: a swipe from 0 to 1.
        let swipe = try quickDrag(Self.drag(wid, from: 800, to: 700, steps: 5, pause: 0.016), from: 0, wanted: "swipe")
        #expect(swipe?["decision"] as? String == "swipe", "events so far: \(app.lines)")
        #expect(swipe?["from"] as? Int == 0 && swipe?["to"] as? Int == 1)
        #expect(app.ofType("settled").last?["index"] as? Int == 1)
        // Slow, long and held before lifting: a realign to the nearest (1 + 400/806 → 1).
        let releasesBefore = app.ofType("release").count
        try x.xdotool(Self.drag(wid, from: 1000, to: 600, steps: 10, pause: 0.05, hold: 0.2))
        #expect(app.waitFor("release", count: releasesBefore + 1))
        let realign = app.ofType("release").last
        #expect(realign?["decision"] as? String == "realign")
        #expect(realign?["from"] as? Int == 1 && realign?["to"] as? Int == 1)
        // Long and quick: a fling carrying past the next item, once the realign has ended.
        app.waitForRest()
        let fling = try quickDrag(Self.drag(wid, from: 1100, to: 300, steps: 8, pause: 0.01), from: 1, wanted: "fling")
        #expect(fling?["decision"] as? String == "fling")
        #expect(fling?["from"] as? Int == 1)
        let flungTo = fling?["to"] as? Int ?? 0
        #expect(flungTo > 2, "momentum carries the fling past item 2: \(flungTo)")
        #expect(app.ofType("settled").last?["index"] as? Int == flungTo)

        // Keys and the wheel.
        var settled = app.ofType("settled").count
        try x.xdotool(["key", "--window", wid, "Home"])
        #expect(lastSettled(after: settled) == 0)
        settled = app.ofType("settled").count
        try x.xdotool(["key", "--window", wid, "Right"])
        #expect(lastSettled(after: settled) == 1)
        settled = app.ofType("settled").count
        try x.xdotool(["mousemove", "--window", wid, "640", "360", "click", "5"])
        #expect(lastSettled(after: settled) == 2)
        settled = app.ofType("settled").count
        try x.xdotool(["key", "--window", wid, "End"])
        #expect(lastSettled(after: settled) == 9)

        // Tap the centred item: activate with its file.
        try x.xdotool(["mousemove", "--window", wid, "640", "360", "click", "1"])
        #expect(app.waitFor("activate", count: probes + 1))
        #expect((app.ofType("activate").last?["source"] as? String)?.hasSuffix("img9.bmp") == true)

        // At rest: under 2% of one core over 3 s (CPU time from /proc, not wall time). Work the
        // gestures set going may end late under ThreadSanitizer on a busy machine, so up to
        // three windows are looked at: a program that does not rest fails all three.
        app.waitForRest()
        let rest = app.atRest(seconds: 3)
        #expect(rest.used >= 0 && Double(rest.used) < rest.bound, "\(rest.used) ticks at rest")

        // SIGTERM (blocked in the mask the test runner passes on: the carousel unblocks it).
        app.process.terminate()
        let end = app.process.end(within: 5)
        #expect(end.byItself, "SIGTERM did not stop it")
        #expect(end.clean, "\(end)")
    }

    @Test func escapeQuitsWithStatusZero() throws {
        let x = try XvfbSession()
        let app = try RunningCarousel(args: [try Self.images()], display: x.display)
        #expect(app.waitFor("pool", count: 1))
        let wid = try x.xdotool(["search", "--sync", "--name", "KioskCarousel"])
            .split(separator: "\n").first.map(String.init) ?? ""
        try x.xdotool(["key", "--window", wid, "Escape"])
        let end = app.process.end(within: 5)
        #expect(end.clean, "\(end)")
    }

    /// The wall in a real window: a click opens the carousel, Escape goes back to the wall
    /// (it does not quit), and Escape on the wall quits.
    @Test func onTheWallAClickOpensTheCarouselAndEscapeGoesBackThenQuits() throws {
        let x = try XvfbSession()
        let app = try RunningCarousel(args: [try Self.images(), "--view", "mosaic"], display: x.display)
        defer { if app.process.isRunning { kill(app.process.processIdentifier, SIGKILL) } }
        let wid = try x.xdotool(["search", "--sync", "--name", "KioskCarousel"])
            .split(separator: "\n").first.map(String.init) ?? ""
        app.waitForRest()  // the sizes are read and the wall is drawn
        // The first tile of five columns at 1280 wide: x from 10 to 248, from y = 10.
        try x.xdotool(["mousemove", "--window", wid, "100", "60", "click", "1"])
        #expect(app.waitFor("view", count: 1))
        #expect(app.ofType("view").first?["mode"] as? String == "carousel")
        try x.xdotool(["key", "--window", wid, "Escape"])
        #expect(app.waitFor("view", count: 2))
        #expect(app.ofType("view").last?["mode"] as? String == "mosaic")
        #expect(app.process.isRunning, "Escape in the opened carousel only goes back")
        try x.xdotool(["key", "--window", wid, "Escape"])
        #expect(app.process.end(within: 5).clean)
    }

    /// A photo copied into the folder joins the end of the wall, and its tile opens it.
    @Test func aPhotoAddedToTheFolderJoinsTheWall() throws {
        let x = try XvfbSession()
        let folder = try Self.images()
        let app = try RunningCarousel(args: [folder, "--view", "mosaic"], display: x.display)
        defer { if app.process.isRunning { kill(app.process.processIdentifier, SIGKILL) } }
        let wid = try x.xdotool(["search", "--sync", "--name", "KioskCarousel"])
            .split(separator: "\n").first.map(String.init) ?? ""
        app.waitForRest()
        // Ten 4:3 pictures in five columns of 246 px (tiles 185 px high): the eleventh is the
        // first of the third row, at x 10, y 10 + 2 × 195.
        try Fixtures.bmp(320, 240) { _, _ in (250, 250, 0) }.write(to: URL(fileURLWithPath: folder + "/img99.bmp"))
        #expect(app.waitFor("catalog_changed", count: 1, timeout: 30))
        #expect(app.ofType("catalog_changed").first?["added"] as? Int == 1)
        app.waitForRest()
        try x.xdotool(["mousemove", "--window", wid, "100", "480", "click", "1"])
        // 30 s: in ThreadSanitizer's whole suite, beside a dozen other programs, 10 s passed once.
        #expect(app.waitFor("view", count: 1, timeout: 30), "\(app.lines.suffix(8))")
        #expect(app.ofType("view").first?["index"] as? Int == 10, "\(app.ofType("view"))")
        app.process.terminate()
        #expect(Self.waitForExit(app))
    }

    @Test func closingTheWindowQuitsWithStatusZero() throws {
        let x = try XvfbSession()
        let app = try RunningCarousel(args: [try Self.images()], display: x.display)
        #expect(app.waitFor("pool", count: 1))
        let wid = try x.xdotool(["search", "--sync", "--name", "KioskCarousel"])
            .split(separator: "\n").first.flatMap { UInt($0) } ?? 0
        #expect(WindowCloser.close(window: wid, display: x.display), "could not send WM_DELETE_WINDOW")
        let end = app.process.end(within: 5)
        #expect(end.byItself, "the window close was ignored")
        #expect(end.clean, "\(end)")
    }

    /// Waits up to 5 s for the process to end; kills it if it does not. Whether it ended.
    /// Whether the program ended by itself within 5 s (if not, it is killed); either way it
    /// has ended when this returns, so how it ended may be read.
    static func waitForExit(_ app: RunningCarousel) -> Bool {
        app.process.end(within: 5).byItself
    }

    @Test func aKioskIgnoresEscapeAndTheCloseButtonAndQuitsOnItsCombination() throws {
        let x = try XvfbSession()
        let app = try RunningCarousel(args: [try Self.images(), "--kiosk"], display: x.display)
        #expect(app.waitFor("pool", count: 1))
        #expect(app.ofType("pool").first?["viewport_height"] as? Int == 800, "full screen on a 1280x800 display")
        let wid = try x.xdotool(["search", "--sync", "--name", "KioskCarousel"])
            .split(separator: "\n").first.map(String.init) ?? ""
        // Keys reach the window: Right moves (settled 1) while Escape, q and F11 do nothing.
        for _ in 0..<20 where app.ofType("settled").isEmpty {
            try x.xdotool(["key", "--window", wid, "Escape", "q", "F11", "Right"])
            Thread.sleep(forTimeInterval: 0.5)
        }
        #expect(!app.ofType("settled").isEmpty, "the window never answered a key")
        #expect(WindowCloser.close(window: UInt(wid) ?? 0, display: x.display))
        // Events are handled in order: once a key sent after the close has moved the strip,
        // the close was handled too.
        let settled = app.ofType("settled").count
        try x.xdotool(["key", "--window", wid, "Right"])
        #expect(app.waitFor("settled", count: settled + 1), "the window stopped answering keys after the close")
        #expect(app.process.isRunning, "Escape, q or the close button stopped a kiosk")
        try x.xdotool(["key", "--window", wid, "ctrl+alt+q"])
        let end = app.process.end(within: 5)
        #expect(end.byItself, "ctrl+alt+q did not quit")
        #expect(end.clean, "\(end)")
    }

    @Test func aKioskHidesThePointerAndAWindowShowsIt() throws {
        let x = try XvfbSession()
        for kiosk in [false, true] {
            let app = try RunningCarousel(args: [try Self.images()] + (kiosk ? ["--kiosk"] : []), display: x.display)
            #expect(app.waitFor("pool", count: 1))
            _ = try x.xdotool(["search", "--sync", "--name", "KioskCarousel"])
            try x.xdotool(["mousemove", "300", "300"])
            // The pointer's look follows the move: asked until it is as expected, for 5 s.
            var visible = PointerProbe.isVisible(display: x.display)
            for _ in 0..<50 where visible != !kiosk {
                Thread.sleep(forTimeInterval: 0.1)
                visible = PointerProbe.isVisible(display: x.display)
            }
            #expect(visible == !kiosk, kiosk ? "the kiosk shows a pointer" : "the window's pointer is not seen (probe: \(String(describing: visible)))")
            app.process.terminate()
            #expect(Self.waitForExit(app))
        }
    }

    @Test func sigtermEndsAKioskWithStatusZero() throws {
        let x = try XvfbSession()
        let app = try RunningCarousel(args: [try Self.images(), "--kiosk", "--quit-keys", "none"], display: x.display)
        #expect(app.waitFor("pool", count: 1))
        app.process.terminate()
        let end = app.process.end(within: 5)
        #expect(end.byItself, "SIGTERM did not end the kiosk")
        #expect(end.clean, "\(end)")
    }

    @Test func sighupReloadsTheConfigAndTheSourcesKeepingTheCentredPicture() throws {
        let x = try XvfbSession()
        let folder = try Self.images()
        let config = try Fixtures.temporaryFolder("hup") + "/carousel.toml"
        try "sources = [\"\(folder)\"]\nstart-index = 3\n".write(toFile: config, atomically: true, encoding: .utf8)
        let app = try RunningCarousel(args: ["--config", config], display: x.display)
        #expect(app.waitFor("pool", count: 1))
        Thread.sleep(forTimeInterval: 1)  // at rest a while: catalog_changed has the signal's time
        // Two new pictures sorting before the centred img3: it moves from index 3 to 5.
        for name in ["img0a.bmp", "img1a.bmp"] {
            try Fixtures.bmp(64, 48) { _, _ in (9, 9, 9) }.write(to: URL(fileURLWithPath: folder + "/" + name))
        }
        try FileManager.default.removeItem(atPath: folder + "/img9.bmp")
        // And autoplay switched on in the file.
        try "sources = [\"\(folder)\"]\nstart-index = 3\nautoplay = 1\norder = \"name\"\nidle-resume = 0\n"
            .write(toFile: config, atomically: true, encoding: .utf8)
        kill(app.process.processIdentifier, SIGHUP)
        #expect(app.waitFor("pool", count: 2), "no new pool after SIGHUP")
        #expect(app.ofType("catalog_changed").first.map { [$0["added"] as? Int, $0["removed"] as? Int] } == [2, 1])
        let changedAt = app.ofType("catalog_changed").first?["t_ms"] as? Int ?? 0
        let rebuiltAt = app.ofType("pool").last?["t_ms"] as? Int ?? 0
        #expect(changedAt >= 1000 && rebuiltAt - changedAt < 500, "catalog_changed at \(changedAt) ms, pool at \(rebuiltAt) ms")
        // Tapping the centre activates the same picture as before.
        let wid = try x.xdotool(["search", "--sync", "--name", "KioskCarousel"])
            .split(separator: "\n").first.map(String.init) ?? ""
        for _ in 0..<20 where app.ofType("activate").isEmpty {
            try x.xdotool(["mousemove", "--window", wid, "640", "360", "click", "1"])
            Thread.sleep(forTimeInterval: 0.3)
        }
        #expect(app.ofType("activate").first?["index"] as? Int == 5)
        #expect((app.ofType("activate").first?["source"] as? String)?.hasSuffix("/img3.bmp") == true)
        #expect(app.waitFor("autoplay", count: 1), "autoplay from the reloaded file never stepped")
        #expect(app.ofType("autoplay").first?["from"] as? Int == 5)
        app.process.terminate()
        #expect(app.process.end(within: 5).clean)
    }

    @Test func picturesAddedWhileRunningAppearAndTheCentredOneStays() throws {
        let x = try XvfbSession()
        let folder = try Self.images()
        let app = try RunningCarousel(args: [folder, "--start-index", "3"], display: x.display)
        #expect(app.waitFor("pool", count: 1))
        let wid = try x.xdotool(["search", "--sync", "--name", "KioskCarousel"])
            .split(separator: "\n").first.map(String.init) ?? ""
        // Added before the centred img3 (sorting first) and one removed: no signal, no restart.
        try Fixtures.bmp(64, 48) { _, _ in (9, 9, 9) }.write(to: URL(fileURLWithPath: folder + "/img0a.bmp"))
        try FileManager.default.removeItem(atPath: folder + "/img8.bmp")
        // One catalog_changed, or two if inotify split the burst: one added, one removed in all.
        var changes = [0, 0]
        let deadline = Date().addingTimeInterval(8)
        while changes != [1, 1] && Date() < deadline {
            Thread.sleep(forTimeInterval: 0.1)
            changes = app.ofType("catalog_changed").reduce(into: [0, 0]) {
                $0[0] += $1["added"] as? Int ?? 0
                $0[1] += $1["removed"] as? Int ?? 0
            }
        }
        #expect(changes == [1, 1], "added and removed within 8 s: \(app.ofType("catalog_changed"))")
        for _ in 0..<20 where app.ofType("activate").isEmpty {
            try x.xdotool(["mousemove", "--window", wid, "640", "360", "click", "1"])
            Thread.sleep(forTimeInterval: 0.3)
        }
        #expect(app.ofType("activate").first?["index"] as? Int == 4)
        #expect((app.ofType("activate").first?["source"] as? String)?.hasSuffix("/img3.bmp") == true)
        app.process.terminate()
        #expect(Self.waitForExit(app))
    }

    @Test func outsideTheOpeningHoursTheScreenIsBlackUntilTouched() throws {
        // Hours on a day three days from today: closed now.
        let today = OpeningHours.weekMinute(Date()).0 / (24 * 60)
        let day = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"][(today + 3) % 7]
        let x = try XvfbSession()
        let app = try RunningCarousel(args: [try Self.images(), "--schedule", "\(day) 10:00-11:00", "--idle-resume", "2"],
                                      display: x.display)
        #expect(app.waitFor("screen", count: 1))
        #expect(app.ofType("screen").first?["state"] as? String == "off")
        // A decode running when the screen went off finishes (the queued ones are dropped:
        // PipelineTests); then nothing more, not even a wake-up.
        app.waitForRest(timeout: 3)
        let before = app.cpuTicks
        Thread.sleep(forTimeInterval: 2)
        #expect(app.cpuTicks - before <= 1, "asleep while closed")
        let wid = try x.xdotool(["search", "--sync", "--name", "KioskCarousel"])
            .split(separator: "\n").first.map(String.init) ?? ""
        for _ in 0..<10 where app.ofType("screen").count < 2 {
            try x.xdotool(["mousemove", "--window", wid, "640", "360", "click", "1"])
            Thread.sleep(forTimeInterval: 0.3)
        }
        #expect(app.ofType("screen").dropFirst().first?["state"] as? String == "on")
        #expect(app.ofType("screen").dropFirst().first?["reason"] as? String == "touch")
        #expect(app.ofType("activate").isEmpty, "the waking touch does nothing else")
        // Black again 2 s after the last touch; the wait is long because under a sanitizer on
        // a busy machine the program runs many times slower (a bound, not a speed test).
        #expect(app.waitFor("screen", count: 3, timeout: 20), "black again 2 s after the last touch: \(app.ofType("screen"))")
        #expect(app.ofType("screen").last?["state"] as? String == "off")
        app.process.terminate()
        #expect(Self.waitForExit(app))
    }

    @Test func aPointerHeldStillWhileARescanFallsDueUsesNoCPU() throws {
        let x = try XvfbSession()
        // A source not there yet is what periodic rescans are for (a kiosk may start without it).
        let later = try Fixtures.temporaryFolder("held") + "/not-yet"
        let app = try RunningCarousel(args: [try Self.images(), later, "--kiosk", "--rescan", "1"], display: x.display)
        defer { if app.process.isRunning { kill(app.process.processIdentifier, SIGKILL) } }
        #expect(app.waitFor("pool", count: 1))
        app.waitForRest()  // the pictures decoded first
        let wid = try x.xdotool(["search", "--sync", "--name", "KioskCarousel"])
            .split(separator: "\n").first.map(String.init) ?? ""
        try x.xdotool(["mousemove", "--window", wid, "640", "360", "mousedown", "1"])
        Thread.sleep(forTimeInterval: 1.5)  // the rescan falls due under the held button
        // A loop spinning under the held button takes a whole core (200 ticks in 2 s). Two
        // rescans a window cost a few ticks, more under ThreadSanitizer on a busy machine (6
        // seen against 4).
        let rest = app.atRest()
        try x.xdotool(["mouseup", "1"])
        #expect(Double(rest.used) < rest.bound, "\(rest.used) ticks with the button held")
    }

    @Test func aKioskWhosePhotoFolderIsNotThereYetWaitsForIt() throws {
        let x = try XvfbSession()
        let folder = try Fixtures.temporaryFolder("late") + "/photos"
        let app = try RunningCarousel(args: [folder, "--kiosk", "--rescan", "1"], display: x.display)
        defer { if app.process.isRunning { kill(app.process.processIdentifier, SIGKILL) } }
        #expect(app.waitFor("pool", count: 1), "a kiosk must start without its folder (a share still mounting)")
        // The folder appears with its three photos at once (a share mounted, a stick put in):
        // made beside it and renamed, so no rescan can see two of the three.
        let staging = folder + ".staging"
        try FileManager.default.createDirectory(atPath: staging, withIntermediateDirectories: true)
        for i in 0..<3 {
            try Fixtures.bmp(64, 48) { _, _ in (9, 9, 9) }.write(to: URL(fileURLWithPath: staging + "/p\(i).bmp"))
        }
        try FileManager.default.moveItem(atPath: staging, toPath: folder)
        #expect(app.waitFor("catalog_changed", count: 1, timeout: 8))
        #expect(app.ofType("catalog_changed").first?["added"] as? Int == 3)
        app.process.terminate()
        #expect(Self.waitForExit(app))
    }

    @Test func noDisplayIsOneLineSayingWhatToDo() throws {
        // SDL left to itself would fall back to its offscreen driver and run on unseen.
        let r = try CarouselBinary.run([try Self.images()],
                                       environment: ["DISPLAY": "", "WAYLAND_DISPLAY": "", "SDL_VIDEODRIVER": ""], timeout: 20)
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
