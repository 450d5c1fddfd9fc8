import Foundation
import Testing
import TestSupport
@testable import CarouselApp

/// Clip to clip under autoplay, as a kiosk plays them (issue 59, point 4): the clip the show
/// goes to next is made ready while the one playing ends, in a helper of its own, so its
/// first frame is waiting when the strip comes to rest on it; a show that goes elsewhere lets
/// that helper go. Headless (SDL's dummy driver), the event log read as it comes.
@Suite(.serialized) struct GaplessClipTests {
    /// Three 3-s clips (a colour a second), alone in a folder.
    static func clips() throws -> String {
        let dir = try Fixtures.temporaryFolder("gapless")
        for name in ["a", "b", "c"] { try ClipFixtures.make(.h264MP4, seconds: [0, 1, 2], in: dir, name: name) }
        return dir
    }

    @Test func theNextClipIsReadyAsTheStripRestsOnIt() throws {
        let k = try ControlAPITests.Kiosk([try Self.clips(), "--size", "640x360", "--autoplay", "1", "--order", "name"])
        defer { k.stop() }
        #expect(k.app.waitFor("video_started", count: 3, timeout: 60), "three clips in turn: \(k.app.lines)")
        let started = k.app.ofType("video_started")
        // In autoplay's order (beside a busy loop autoplay may leave the first before its
        // poster is made, and a clip starts after its poster: the first to play may be 1).
        let order = started.prefix(3).compactMap { $0["index"] as? Int }
        #expect(order.count == 3 && zip(order, order.dropFirst()).allSatisfy { ($0 + 1) % 3 == $1 }, "\(started)")
        // Each after the first was made ready ahead; one whose first frame was there as the
        // strip rested (`ready`, always alone; a helper started 2 s ahead under
        // ThreadSanitizer beside two other suites once took longer) is drawn in that very
        // pass (the wait from there 0), and at least one of them was. (The first too, when
        // autoplay left the first item before its poster was made: the next was made ready
        // in that item's interval.)
        let after = Array(started.dropFirst().prefix(2))
        for s in after {
            #expect(s["ahead"] as? Int == 1 && (s["ready"] as? Int != 1 || s["wait_ms"] as? Int == 0), "\(s)")
        }
        #expect(after.contains { $0["ready"] as? Int == 1 }, "\(after)")
    }

    @Test func aClipMadeReadyForAStepThatDoesNotComeGoes() throws {
        let k = try ControlAPITests.Kiosk([try Self.clips(), "--size", "640x360", "--autoplay", "1", "--order", "name"])
        defer { k.stop() }
        let pid = k.app.process.processIdentifier
        #expect(k.app.waitFor("video_started", count: 1, timeout: 60), "\(k.app.lines)")
        // The first to play (autoplay may leave the first item before its poster is made).
        let first = k.app.ofType("video_started").first?["index"] as? Int ?? 0
        let elsewhere = (first + 2) % 3  // neither it nor the next, which is made ready
        let before = Set(ClipWindowTests.videoHelpers(of: pid))
        // In the clip's last 2 s the next one's helper starts beside it (the posters' helper,
        // idle, may end meanwhile).
        var prepared: pid_t?
        for _ in 0..<200 where prepared == nil && k.app.ofType("video_ended").isEmpty {
            Thread.sleep(forTimeInterval: 0.02)
            prepared = ClipWindowTests.videoHelpers(of: pid).first { !before.contains($0) }
        }
        #expect(prepared != nil, "a helper for the next clip while the first plays: \(before), \(k.app.lines)")
        // A person goes elsewhere instead: the clip made ready for the next goes with the one
        // playing, and the clip there starts on arrival.
        #expect(k.probe.request("POST", "/goto", body: #"{"index": \#(elsewhere)}"#)?.status == 200)
        // (Under ThreadSanitizer the first clip may end, and the show take the one made ready,
        // before the command arrives: then that one goes instead.)
        #expect(Poll.until(30) { k.app.ofType("video_started").last?["index"] as? Int == elsewhere }, "\(k.app.lines)")
        let started = k.app.ofType("video_started")
        if started.count == 2 { #expect(started.last?["ahead"] as? Int == 0, "\(started)") }
        var left = ClipWindowTests.videoHelpers(of: pid)
        for _ in 0..<100 where prepared.map(left.contains) == true {
            Thread.sleep(forTimeInterval: 0.05)
            left = ClipWindowTests.videoHelpers(of: pid)
        }
        #expect(prepared.map { !left.contains($0) } == true, "the one made ready is gone: \(String(describing: prepared)) in \(left)")
    }
}

/// What decides whether a second helper fits: this machine's memory and a process's.
@Suite struct SystemMemoryTests {
    @Test func theMachinesAndAProcesssMemoryAreRead() {
        let m = SystemMemory.available()
        #expect(m != nil && m!.available > 0 && m!.available <= m!.total, "\(String(describing: m))")
        // /proc/PID/status puts a tab after "VmRSS:"; a program of ours holds megabytes.
        #expect((SystemMemory.resident(of: getpid()) ?? 0) > 1 << 20)
        #expect(SystemMemory.resident(of: -1) == nil)
    }
}
