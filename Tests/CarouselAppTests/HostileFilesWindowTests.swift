import CarouselMedia
import Foundation
import TestSupport
import Testing
@testable import CarouselApp

/// Files that crash or hang a decoder, in the real window: the kiosk lives on.
extension InteractiveWindowTests {
    /// Process ids of `pid`'s children (started by any of its threads).
    static func children(of pid: pid_t) -> [pid_t] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        return tasks.flatMap { task in
            ((try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/children", encoding: .utf8)) ?? "")
                .split(separator: " ").compactMap { pid_t($0) }
        }
    }

    /// SIGKILLs every process whose command line names `program`.
    static func killEvery(running program: String) {
        for name in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
            guard let pid = pid_t(name),
                  let command = try? String(contentsOfFile: "/proc/\(pid)/cmdline", encoding: .utf8),
                  command.contains(program) else { continue }
            kill(pid, SIGKILL)
        }
    }

    static func isRunning(_ pid: pid_t) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return false }
        return !stat[stat.index(close, offsetBy: 2)...].hasPrefix("Z")
    }

    @Test func hostileFilesDroppedIntoTheWatchedFolderFailOnceAndTheShowGoesOn() throws {
        let x = try XvfbSession()
        let folder = try Self.images()
        // 5 s: the hang's deadline, with room for a good picture's decode under ThreadSanitizer on a busy
        // machine (at 2 s, img0.bmp once "took longer than 2 s to decode" in CI).
        // Shown as failed (a kiosk's default is to leave them out: see the next test).
        let app = try RunningCarousel(args: [folder, "--kiosk", "--broken", "show", "--decode-timeout", "5"], display: x.display)
        #expect(app.waitFor("pool", count: 1))
        let helpers = Self.children(of: app.process.processIdentifier)
        #expect(!helpers.isEmpty, "no decoder helper runs")
        // Sorted right after the centred img0.
        for name in ["crashes-sdl-image-2.6.3.gif", "hangs-sdl-image-2.6.3.png"] {
            try FileManager.default.copyItem(atPath: ImageDamage.hostile + "/" + name, toPath: folder + "/img0a-" + name)
        }
        // New files show once unchanged for 2 s; under a sanitizer on a busy machine the
        // rescan takes far longer than that (a bound, not a speed test).
        #expect(app.waitFor("catalog_changed", count: 1, timeout: 30), "the copies were not seen: \(app.log)")
        // Step onto each hostile item and wait there for its failure (the hang's deadline),
        // then over every other item to the last.
        let wid = try x.xdotool(["search", "--sync", "--name", "KioskCarousel"])
            .split(separator: "\n").first.map(String.init) ?? ""
        for step in 1...2 {
            try x.xdotool(["key", "--window", wid, "Right"])
            #expect(app.waitFor("load_failed", count: step, timeout: 10), "item \(step) was not failed")
        }
        for _ in 0..<40 where (app.ofType("settled").last?["index"] as? Int) != 11 {
            try x.xdotool(["key", "--window", wid, "Right"])
            Thread.sleep(forTimeInterval: 0.4)
        }
        #expect(app.ofType("settled").last?["index"] as? Int == 11, "the kiosk stopped answering keys")
        let failed = Dictionary(app.ofType("load_failed").compactMap { e -> (String, String)? in
            guard let s = e["source"] as? String, let r = e["reason"] as? String else { return nil }
            return ((s as NSString).lastPathComponent, r)
        }, uniquingKeysWith: { a, _ in a })
        // Through giflib and libspng they fail with a reason, with no helper lost.
        #expect(failed["img0a-crashes-sdl-image-2.6.3.gif"]?.hasPrefix("is a corrupt GIF") == true)
        #expect(failed["img0a-hangs-sdl-image-2.6.3.png"]?.hasPrefix("is ") == true)
        #expect(failed.count == 2 && app.ofType("load_failed").count == 2, "good pictures failed too: \(failed)")
        #expect(app.process.isRunning, "the kiosk died")
        app.process.terminate()
        #expect(app.process.end(within: 5).clean)
        #expect(!helpers.contains(where: Self.isRunning), "a decoder helper outlived the kiosk")
    }

    /// A kiosk leaves a broken picture out (`--broken skip`, its default): the keys step from
    /// img0 straight to img1, the failure is said once, and once the file is replaced by a
    /// good picture it joins the show.
    @Test func aKioskLeavesABrokenPictureOutUntilItIsReplaced() throws {
        let x = try XvfbSession()
        let folder = try Self.images()
        try Data("not a photo\n".utf8).write(to: URL(fileURLWithPath: folder + "/img0a.jpg"))
        let app = try RunningCarousel(args: [folder, "--kiosk"], display: x.display)
        #expect(app.waitFor("load_failed", count: 1, timeout: 20), "img0a.jpg was not tried")
        #expect(app.waitFor("catalog_changed", count: 1, timeout: 10), "img0a.jpg was not left out: \(app.log)")
        #expect(app.ofType("catalog_changed").first?["removed"] as? Int == 1)
        let wid = try x.xdotool(["search", "--sync", "--name", "KioskCarousel"])
            .split(separator: "\n").first.map(String.init) ?? ""
        try x.xdotool(["key", "--window", wid, "Right"])
        #expect(app.waitFor("settled", count: 1))
        for _ in 0..<20 where app.ofType("activate").isEmpty {
            try x.xdotool(["mousemove", "--window", wid, "640", "360", "click", "1"])
            Thread.sleep(forTimeInterval: 0.3)
        }
        #expect((app.ofType("activate").first?["source"] as? String)?.hasSuffix("/img1.bmp") == true,
                "one step from img0 is img1: \(app.ofType("activate"))")
        // Fixed: a good picture under the same name joins the show (after 2 s unchanged).
        try Fixtures.bmp(320, 240) { _, _ in (250, 250, 20) }.write(to: URL(fileURLWithPath: folder + "/img0a.jpg"))
        #expect(app.waitFor("catalog_changed", count: 2, timeout: 20), "the replaced file did not come back: \(app.log)")
        #expect(app.ofType("catalog_changed").last?["added"] as? Int == 1)
        #expect(app.ofType("load_failed").count == 1, "failed again: \(app.ofType("load_failed"))")
        app.process.terminate()
        #expect(Self.waitForExit(app))
    }

    @Test func sigtermWhileADecodeHangsEndsAtOnceLeavingNoHelper() throws {
        let x = try XvfbSession()
        let folder = try Self.images()
        // Every decode hangs in this helper, spinning.
        let standIn = try StandInHelper.hangs.script()
        // Whatever happens below, no spinning stand-in outlives the test: one left behind
        // (started after the list below was taken, on a loaded machine) starved the runs
        // after it until their windows took over a minute to show.
        defer { Self.killEvery(running: standIn) }
        let app = try RunningCarousel(args: [folder, "--kiosk", "--decode-timeout", "600"], display: x.display,
                                      environment: ["CAROUSEL_DECODE_HELPER": standIn])
        // A bound, not a speed test: under ThreadSanitizer, beside the rest of the suite and
        // with the stand-ins spinning, the window once took over 10 s to show (CI).
        #expect(app.waitFor("pool", count: 1, timeout: 60), "no window: \(app.log)")
        let pid = app.process.processIdentifier
        var helpers: [pid_t] = []
        for _ in 0..<50 where helpers.isEmpty {
            Thread.sleep(forTimeInterval: 0.1)
            helpers = Self.children(of: pid)
        }
        #expect(!helpers.isEmpty)
        // A stand-in helper is a shell script, which cannot ask to die with its parent as
        // the real helper does: if this test fails, it must not spin on for hours.
        defer {
            for h in helpers {
                let command = (try? String(contentsOfFile: "/proc/\(h)/cmdline", encoding: .utf8)) ?? ""
                if command.contains("helper-that-") { kill(h, SIGKILL) }
            }
        }
        // The first decode is under way: a stand-in has read its request and sleeps on
        // (its /bin/sleep runs).
        func decoding() -> Bool {
            helpers.contains { h in
                Self.children(of: h).contains { c in
                    ((try? String(contentsOfFile: "/proc/\(c)/cmdline", encoding: .utf8)) ?? "").hasPrefix(OutsideProgram.sleep.path)
                }
            }
        }
        for _ in 0..<200 where !decoding() { Thread.sleep(forTimeInterval: 0.05) }
        #expect(decoding(), "no helper was asked to decode")
        let sent = Date()
        app.process.terminate()
        while app.process.isRunning && Date().timeIntervalSince(sent) < 10 { Thread.sleep(forTimeInterval: 0.02) }
        let took = Date().timeIntervalSince(sent)
        if app.process.isRunning {
            kill(pid, SIGKILL)
            // Bounded: Foundation once never noticed the program had ended (it stayed a
            // zombie), and an unbounded waitUntilExit() kept the whole suite waiting.
            let killed = Date()
            while app.process.isRunning && Date().timeIntervalSince(killed) < 10 { Thread.sleep(forTimeInterval: 0.05) }
        }
        // At once against the decode's 600 s deadline: under ThreadSanitizer on a busy machine 2.1 s.
        #expect(took < 5, "SIGTERM took \(took) s to end it while a decode hung")
        // Reading how it ended before Foundation knows it has would trap.
        guard !app.process.isRunning else { Issue.record("the program's end was never seen"); return }
        #expect(app.process.terminationReason == .exit && app.process.terminationStatus == 0)
        // The helpers go with the kiosk (SIGKILL by their group): allowed 5 s to be reaped.
        for _ in 0..<100 where helpers.contains(where: Self.isRunning) { Thread.sleep(forTimeInterval: 0.05) }
        #expect(!helpers.contains(where: Self.isRunning), "a decoder helper outlived the kiosk")
        #expect(app.ofType("load_failed").isEmpty, "stopping reported a failure: \(app.ofType("load_failed"))")
    }
}
