import Foundation
import Testing
@testable import CarouselApp
import TestSupport

/// Zoom in the real window under Xvfb, from real X11 events: the keys, Ctrl with the wheel,
/// a double click, a drag that pans; and a zoomed picture at rest costs no CPU.
@Suite(.serialized, .enabled(if: RequiredTools.run(missing: XvfbSession.unavailableReason), "Xvfb or xdotool missing; run kiosk/setup"))
struct ZoomWindowTests {
    @Test func keysTheWheelWithCtrlAndADoubleClickZoomAndADragPans() throws {
        let x = try XvfbSession()
        let pictures = try ZoomRenderTests.checkerboard()
        // The detail's decode is given time: beside ThreadSanitizer's suite it took more than 10 s.
        let app = try RunningCarousel(args: [pictures, "--size", "1280x720", "--decode-timeout", "60"], display: x.display)
        defer { if app.process.isRunning { kill(app.process.processIdentifier, SIGKILL) } }
        #expect(app.waitFor("pool", count: 1), "the window did not open")
        let wid = try x.xdotool(["search", "--sync", "--onlyvisible", "--name", "KioskCarousel"])
            .split(separator: "\n").first.map(String.init) ?? ""
        func scales() -> [Double] { app.ofType("zoom").compactMap { ($0["scale"] as? NSNumber)?.doubleValue } }
        /// Waits up to 10 s for the zoom to come to rest at `scale`.
        func restsAt(_ scale: Double) -> Bool {
            for _ in 0..<200 where scales().last != scale { Thread.sleep(forTimeInterval: 0.05) }
            return scales().last == scale
        }
        // The window reads input once it answers a key; `+` zooms 1.5× about the centre.
        for _ in 0..<30 where scales().isEmpty {
            try x.xdotool(["key", "--window", wid, "plus"])
            Thread.sleep(forTimeInterval: 0.5)
        }
        #expect(scales().first == 1.5, "\(scales())")
        var count = scales().count
        // `-` back to fit (however many `+` it took to be heard).
        for _ in 0..<6 { try x.xdotool(["key", "--window", wid, "minus"]) }
        #expect(app.waitFor("zoom", count: count + 1))
        #expect(restsAt(1), "\(scales())")
        // Ctrl with the wheel up: 1.25× a notch about the pointer.
        count = scales().count
        try x.xdotool(["mousemove", "--window", wid, "500", "300", "keydown", "ctrl", "click", "4", "keyup", "ctrl"])
        #expect(app.waitFor("zoom", count: count + 1))
        #expect(scales().last.map { abs($0 - 1.3) < 0.051 } == true, "\(scales())")   // 1.25, to a tenth
        try x.xdotool(["key", "--window", wid, "minus"])
        #expect(restsAt(1), "\(scales())")
        // A double click on the picture: 2.5× about it.
        count = scales().count
        try x.xdotool(["mousemove", "--window", wid, "640", "360", "click", "--repeat", "2", "--delay", "80", "1"])
        #expect(app.waitFor("zoom", count: count + 1))
        #expect(scales().last == 2.5, "\(scales())")
        // A drag pans the picture; the strip does not move (no release, no settle elsewhere).
        let releases = app.ofType("release").count
        count = scales().count
        try x.xdotool(InteractiveWindowTests.drag(wid, from: 700, to: 600, steps: 5, pause: 0.03, hold: 0.2))
        #expect(app.waitFor("zoom", count: count + 1))
        #expect(app.ofType("release").count == releases)
        #expect(scales().last == 2.5)
        // Zoomed, with its sharp detail decoded and uploaded a band a frame (shown once
        // full): at rest the program sleeps.
        #expect(app.waitFor("zoom_detail", count: 1, timeout: 60))
        app.waitForRest()
        let rest = app.atRest()
        #expect(Double(rest.used) < rest.bound, "\(rest.used) ticks at rest, zoomed")
    }
}
