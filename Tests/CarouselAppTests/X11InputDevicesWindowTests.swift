import Foundation
import Testing
import TestSupport

/// Under X11 the X server reads the input devices; the program follows what the server says
/// it added and removed (issue 43: SDL 2.26 dropped the first touch of a touchscreen plugged
/// in after start). Xvfb has no hot-plug of real devices, but `xinput create-master` makes
/// the server add two (its XTEST pointer and keyboard), and `remove-master` remove them:
/// the same announcement a touchscreen plugged in makes. kiosk/vm-test --display x11
/// proves the touchscreen's first tap under Xorg.
@Suite(.serialized, .enabled(if: RequiredTools.run(missing: XvfbSession.xinputUnavailableReason),
                             "Xvfb, xdotool or xinput missing; run kiosk/setup"))
struct X11InputDevicesWindowTests {
    @Test func devicesTheServerAddsAndRemovesAreSaidOnceEach() throws {
        try RequiredTools.check(XvfbSession.xinputUnavailableReason)
        let x = try XvfbSession()
        let app = try RunningCarousel(args: [try InteractiveWindowTests.images(), "--size", "640x400"], display: x.display)
        defer { if app.process.isRunning { kill(app.process.processIdentifier, SIGKILL) } }
        #expect(app.waitFor("pool", count: 1), "the window did not open")
        #expect(app.waitForLog("input: at start the X server reads: "), "no line at start: \(app.log)")

        try x.xinput(["create-master", "probe"])
        #expect(app.waitForLog("input: the X server reads probe XTEST pointer (device "), "\(app.log)")
        #expect(app.waitForLog("input: the X server reads probe XTEST keyboard (device "), "\(app.log)")
        try x.xinput(["remove-master", "probe pointer"])
        #expect(app.waitForLog("input: the X server lost probe XTEST pointer (device "), "\(app.log)")
        #expect(app.waitForLog("input: the X server lost probe XTEST keyboard (device "), "\(app.log)")
        let lines = app.log.split(separator: "\n")
        #expect(lines.filter { $0.contains("the X server reads probe XTEST pointer") }.count == 1)
        #expect(lines.filter { $0.contains("lost probe XTEST pointer") }.count == 1)

        // The program still answers input after the changes (the X events it now watches
        // are kept out of its queue, which wakes for nothing else).
        let wid = try x.xdotool(["search", "--sync", "--onlyvisible", "--name", "KioskCarousel"])
            .split(separator: "\n").first.map(String.init) ?? ""
        try x.xdotool(["key", "--window", wid, "Right"])
        #expect(app.waitFor("settled", count: 1), "a key after the changes did not move the strip")
    }
}
