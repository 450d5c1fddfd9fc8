import Foundation
import Testing
import TestSupport

/// `--group` with real processes and a real broker (mosquitto on a loopback port of the
/// test's own): screens started apart step together, a command on one moves all at one
/// instant, a screen killed and started again comes back in step, the broker going away
/// changes nothing while nobody touches, and what is not a group message is refused in a line.
@Suite(.serialized, .enabled(if: RequiredTools.run(missing: MosquittoBroker.unavailableReason), "mosquitto missing; run kiosk/setup"))
struct GroupTests {
    /// One screen of group `hall`: a step a second, autoplay back 2 s after a command.
    static func screen(_ id: String, broker: MosquittoBroker, folder: String, extra: [String] = []) throws -> RunningCarousel {
        try RunningCarousel(args: [folder, "--size", "320x180", "--autoplay", "1", "--idle-resume", "2", "--order", "name",
                                   "--mqtt", "mqtt://127.0.0.1:\(broker.port)", "--mqtt-id", id, "--group", "hall"] + extra,
                            display: ":0", environment: ["SDL_VIDEODRIVER": "dummy"])
    }

    /// A screen's group steps: the instant the item began (the same on every screen), the
    /// item, and the shared instant the screen started its step at.
    struct Step: Hashable { var since: Double; var to: Int; var at: Double }

    static func steps(_ app: RunningCarousel) -> [Step] {
        app.ofType("group").compactMap { e in
            guard e["action"] as? String == "step", let since = e["since_ms"] as? Double, let to = e["to"] as? Int,
                  let at = e["shared_ms"] as? Double else { return nil }
            return Step(since: since, to: to, at: at)
        }
    }

    /// The item each screen showed from each instant, where screens both stepped then.
    static func disagreements(_ screens: [RunningCarousel], after: Double = -.infinity) -> [String] {
        var items: [Double: [Int]] = [:]
        for s in screens { for step in steps(s) where step.since > after { items[step.since, default: []].append(step.to) } }
        return items.filter { Set($0.value).count > 1 }.map { "at \($0.key): \($0.value)" }
    }

    @Test func screensStartedApartStepTogetherAndACommandOnOneMovesAllAtOneInstant() throws {
        let broker = try MosquittoBroker()
        let folder = try Fixtures.imageFolder()
        let a = try Self.screen("a", broker: broker, folder: folder, extra: ["--control", "127.0.0.1:0"])
        defer { kill(a.process.processIdentifier, SIGKILL) }
        Thread.sleep(forTimeInterval: 1.5)
        let b = try Self.screen("b", broker: broker, folder: folder)
        defer { kill(b.process.processIdentifier, SIGKILL) }
        Thread.sleep(forTimeInterval: 1.5)
        var c = try Self.screen("c", broker: broker, folder: folder)
        defer { kill(c.process.processIdentifier, SIGKILL) }

        // The last to start joins the group's epoch (a's, the earliest) and steps with it.
        #expect(Poll.until(30) { Self.steps(c).count >= 4 }, "c: \(c.log)")
        let late = Self.steps(c).dropFirst().map(\.since)
        #expect(Set(late).isSubset(of: Set(Self.steps(a).map(\.since))), "c's step instants are a's: \(late) / \(Self.steps(a))")
        #expect(Self.disagreements([a, b, c]).isEmpty, "\(Self.disagreements([a, b, c]))")

        // A command on a: every screen, a too, starts the move at the command's instant.
        let port = try #require(a.log.split(separator: "\n").first { $0.contains("control: listening on") }
            .flatMap { Int($0.split(separator: ":").last!) })
        let answer = try #require(HTTPProbe(port: port).request("POST", "/goto", body: #"{"index": 3}"#))
        #expect(answer.status == 200 && answer.json?["index"] as? Int == 3, "the answer comes once a shows it: \(answer.text)")
        let announced = try #require(a.ofType("group").last { $0["action"] as? String == "announce" }?["at_ms"] as? Double)
        for s in [a, b, c] {
            #expect(Poll.until(10) { Self.steps(s).contains { $0.since == announced && $0.to == 3 } }, "\(Self.steps(s))")
        }
        // Autoplay waits 2 s after it on all, then steps on together.
        #expect(Poll.until(10) { Self.steps(c).contains { $0.since == announced + 3_000 && $0.to == 4 } }, "\(Self.steps(c))")
        #expect(Self.disagreements([a, b, c]).isEmpty, "\(Self.disagreements([a, b, c]))")

        // c killed and started again: back in step at its first pass, with the group's item.
        kill(c.process.processIdentifier, SIGKILL)
        c.process.waitUntilExit()
        Thread.sleep(forTimeInterval: 1.2)
        c = try Self.screen("c", broker: broker, folder: folder)
        #expect(Poll.until(20) { Self.steps(c).count >= 3 }, "c again: \(c.log)")
        #expect(Self.disagreements([a, c]).isEmpty, "\(Self.disagreements([a, c]))")
        #expect(Set(Self.steps(c).dropFirst().map(\.since)).isSubset(of: Set(Self.steps(a).map(\.since))))
    }

    /// A clip longer than the interval holds the whole group (issue 59, point 5): both
    /// screens play it to its end, neither steps on at the interval, and both step on at one
    /// instant after it, held by the hold a screen made.
    @Test func aClipLongerThanTheIntervalHoldsEveryScreen() throws {
        let broker = try MosquittoBroker()
        let folder = try Fixtures.temporaryFolder("group-clip")
        try Fixtures.bmp(320, 240) { _, _ in (90, 90, 90) }.write(to: URL(fileURLWithPath: folder + "/a.bmp"))
        try ClipFixtures.make(.h264MP4, seconds: [0, 1, 2, 3], in: folder, name: "b")
        try Fixtures.bmp(320, 240) { _, _ in (200, 200, 200) }.write(to: URL(fileURLWithPath: folder + "/c.bmp"))
        // A step every 2.5 s: the hold is made once a screen's helper has opened the clip
        // (its length known), which took over a second under ThreadSanitizer beside a busy loop.
        let a = try Self.screen("a", broker: broker, folder: folder, extra: ["--autoplay", "2.5"])
        defer { kill(a.process.processIdentifier, SIGKILL) }
        let b = try Self.screen("b", broker: broker, folder: folder, extra: ["--autoplay", "2.5"])
        defer { kill(b.process.processIdentifier, SIGKILL) }
        // The first visit to the clip that played it: under load (ThreadSanitizer beside a
        // build) its poster may not be made when the group first comes, and a clip plays once
        // its poster is (README, Screens in step: that visit is not held).
        func visit(_ s: RunningCarousel) -> (onClip: Step, after: Step)? {
            let steps = Self.steps(s)
            let started = s.ofType("video_started").filter { $0["index"] as? Int == 1 }.count
            guard started > 0 else { return nil }
            for onClip in steps where onClip.to == 1 {
                if let after = steps.first(where: { $0.to == 2 && $0.since > onClip.since }), after.since - onClip.since > 3_000 {
                    return (onClip, after)
                }
            }
            return nil
        }
        for s in [a, b] {
            #expect(Poll.until(60) { visit(s) != nil }, "a visit that played the clip and went past it: \(Self.steps(s)) \(s.log)")
        }
        #expect(Self.disagreements([a, b]).isEmpty, "\(Self.disagreements([a, b]))")
        for s in [a, b] {
            let steps = Self.steps(s)
            guard let (onClip, after) = visit(s) else { Issue.record("no step onto the clip and past it: \(steps)"); continue }
            // The clip's 4 s (from the strip's rest, a slide after the step), not the interval.
            #expect(after.since - onClip.since >= 4_000, "held for the clip: \(steps)")
            #expect(after.since - onClip.since < 6_000, "and no longer: \(steps)")
            #expect(s.ofType("video_started").contains { $0["index"] as? Int == 1 }, "\(s.lines)")
        }
        // Each screen playing it makes the hold unless it heard another's first (beside a busy
        // loop one screen's helper opened the clip after the other's hold had come).
        let holders = [a, b].filter { $0.ofType("group").contains { $0["action"] as? String == "hold" && $0["item"] as? Int == 1 } }
        #expect(!holders.isEmpty, "\(a.ofType("group")) \(b.ofType("group"))")
        // The step after it began at one instant on both.
        let next = [a, b].map { visit($0)?.after.since }
        #expect(next[0] != nil && next[0] == next[1], "\(next)")
    }

    /// A clip in step: each screen starts it at the instant the strip comes to rest on the
    /// group's timeline and keeps to it, so at any instant every screen shows the same frame
    /// or its neighbour. Each screen says, once a second, the frame going on screen and the
    /// wall clock's time (`clip_frame`); wall_ms − frame_ms is where the clip's start lies on
    /// the shared clock, within the frame's own period. Across screens, the spread of that
    /// start is at most a frame (33 ms at 30 frames a second) in the median. (Measured here:
    /// 1–3 ms at p99 after each screen's first frame for 2 and 4 screens, beside a busy loop
    /// too; the first frame of a clip not made ready ahead shows when its helper gives it.)
    /// Across a wall (`--span 2x1`, the same group), each panel shows the same frame of the
    /// clip spread over both: the same start on the shared clock.
    @Test func aClipAcrossAWallShowsTheSameFrameOnEveryPanel() throws {
        try aClipShowsTheSameFrameOnEveryScreen(screens: 2, extra: { ["--span", "2x1:\($0),0"] })
    }

    @Test(arguments: [2, 4]) func aClipShowsTheSameFrameOnEveryScreen(screens count: Int) throws {
        try aClipShowsTheSameFrameOnEveryScreen(screens: count, extra: { _ in [] })
    }

    func aClipShowsTheSameFrameOnEveryScreen(screens count: Int, extra: (Int) -> [String]) throws {
        let broker = try MosquittoBroker()
        let folder = try Fixtures.temporaryFolder("group-frames")
        try Fixtures.bmp(320, 240) { _, _ in (90, 90, 90) }.write(to: URL(fileURLWithPath: folder + "/a.bmp"))
        try ClipFixtures.make(.h264MP4, seconds: [0, 1, 2, 0, 1, 2, 0, 1], in: folder, name: "b")
        var screens: [RunningCarousel] = []
        defer { for s in screens { kill(s.process.processIdentifier, SIGKILL) } }
        for i in 0..<count { screens.append(try Self.screen("s\(i)", broker: broker, folder: folder, extra: ["--autoplay", "2"] + extra(i))) }
        // Each screen's plays of the clip, by the group's instant for the item (the step's
        // `since_ms`, the same on every screen): a visit cut short (its poster not made yet
        // under load) and a later one are different plays.
        func plays(_ s: RunningCarousel) -> [Double: [Double]] {
            var runs: [Double: [Double]] = [:]
            var instant: Double?, current: Double?
            for e in s.lines {
                switch e["type"] as? String {
                case "group" where e["action"] as? String == "step": instant = e["since_ms"] as? Double
                // A play whose first frame came more than 4 s after the rest (its poster or
                // helper that late, under ThreadSanitizer beside a build) starts from its
                // beginning, not at the group's position: not yet in step (README), left out.
                case "video_started": current = (e["wait_ms"] as? Double ?? 0) <= 4_000 ? instant : nil; instant = nil
                case "clip_frame":
                    guard let at = current, let wall = e["wall_ms"] as? Double, let frame = e["frame_ms"] as? Double else { break }
                    runs[at, default: []].append(wall - frame)
                default: break
                }
            }
            return runs
        }
        // The first instant at which every screen played it long enough to measure.
        func common() -> Double? {
            let all = screens.map(plays)
            return all.first?.keys.sorted().first { t in all.allSatisfy { ($0[t]?.count ?? 0) >= 5 } }
        }
        #expect(Poll.until(90) { common() != nil }, "\(screens.map { $0.ofType("video_started") }) \(screens.map(plays))")
        guard let instant = common() else { return }
        // Where each screen's clip started on the shared clock, from each of its samples.
        let starts: [[Double]] = screens.map { plays($0)[instant] ?? [] }
        func median(_ v: [Double]) -> Double { let s = v.sorted(); return s.isEmpty ? .nan : s[s.count / 2] }
        // Each sample against every other screen's median; the first frame of each screen
        // apart (a helper that started late shows it late, then drops frames to catch up).
        func spread(from first: Int) -> [Double] {
            var all: [Double] = []
            for (i, mine) in starts.enumerated() {
                for (j, theirs) in starts.enumerated() where i != j { all += mine.dropFirst(first).map { abs($0 - median(theirs)) } }
            }
            return all.sorted()
        }
        func percentile(_ v: [Double], _ p: Double) -> Double { v.isEmpty ? .infinity : v[min(v.count - 1, Int(Double(v.count) * p))] }
        let all = spread(from: 0), steady = spread(from: 1)
        let p50 = percentile(all, 0.5), p99 = percentile(all, 0.99)
        print("group clip: \(count) screens\(extra(0).isEmpty ? "" : " " + extra(0).joined(separator: " ")), \(all.count) samples, clip start spread p50 \(p50) ms, p99 \(p99) ms; "
              + "after each screen's first frame p50 \(percentile(steady, 0.5)) ms, p99 \(percentile(steady, 0.99)) ms")
        let medians = starts.map(median)
        #expect((medians.max() ?? .infinity) - (medians.min() ?? 0) <= 34, "clip starts on the shared clock: \(medians)")
        #expect(p50 <= 34, "spread p50 \(p50) ms, p99 \(p99) ms: \(starts)")
    }

    /// A screen that joins the group (a restart, a power cut, a screen added) while the group
    /// plays a clip opens the clip where the group is in it, and from then shows the frame the
    /// others show: it neither starts the clip again (out of step for the rest of it) nor
    /// decodes its way there. Issue 59, point 5.
    @Test func aScreenJoiningDuringAClipPlaysItWhereTheGroupIs() throws {
        let broker = try MosquittoBroker()
        let folder = try Fixtures.temporaryFolder("group-join-clip")
        try Fixtures.bmp(320, 240) { _, _ in (90, 90, 90) }.write(to: URL(fileURLWithPath: folder + "/a.bmp"))
        // 24 s: on a busy machine the second screen takes seconds to start and decode its poster.
        try ClipFixtures.make(.h264MP4, seconds: Array(repeating: [0, 1, 2], count: 8).flatMap { $0 }, in: folder, name: "b")
        let a = try Self.screen("a", broker: broker, folder: folder, extra: ["--autoplay", "2"])
        defer { kill(a.process.processIdentifier, SIGKILL) }
        #expect(Poll.until(60) { a.ofType("clip_frame").count >= 1 }, "\(a.lines)")
        Thread.sleep(forTimeInterval: 3)
        let b = try Self.screen("b", broker: broker, folder: folder, extra: ["--autoplay", "2"])
        defer { kill(b.process.processIdentifier, SIGKILL) }
        #expect(Poll.until(30) { b.ofType("clip_frame").count >= 3 }, "\(b.lines)")
        let seek = b.ofType("video_seek").first
        #expect((seek?["position_ms"] as? Int ?? 0) >= 2_500, "b opened the clip where the group was: \(b.ofType("video_seek"))")
        // Where each screen's clip began on the shared clock (wall − frame), a's first play.
        func starts(_ s: RunningCarousel) -> [Double] {
            s.ofType("clip_frame").compactMap { e in (e["wall_ms"] as? Double).flatMap { w in (e["frame_ms"] as? Double).map { w - $0 } } }
        }
        let mine = starts(a).prefix(4), theirs = starts(b).dropFirst()
        guard let ours = mine.sorted().dropFirst(mine.count / 2).first else { return }
        #expect(theirs.allSatisfy { abs($0 - ours) <= 100 }, "b's frames are a's: a began at \(Array(mine)), b at \(Array(theirs))")
    }

    /// Clip to clip in a group: the group's next step is known ahead, so each screen makes
    /// the next clip ready in the last seconds of the one playing and shows its first frame
    /// as the strip comes to rest, every screen from the same instant.
    @Test func theNextClipIsReadyOnEveryScreen() throws {
        let broker = try MosquittoBroker()
        let folder = try GaplessClipTests.clips()
        let a = try Self.screen("a", broker: broker, folder: folder)
        defer { kill(a.process.processIdentifier, SIGKILL) }
        let b = try Self.screen("b", broker: broker, folder: folder)
        defer { kill(b.process.processIdentifier, SIGKILL) }
        for s in [a, b] {
            #expect(Poll.until(40) { s.ofType("video_started").count >= 3 }, "\(s.lines)")
            let started = s.ofType("video_started")
            // The clip shown at start may have begun on arrival; each one after, ready ahead.
            #expect(started.dropFirst().prefix(2).allSatisfy { $0["ahead"] as? Int == 1 }, "\(started)")
        }
        #expect(Self.disagreements([a, b]).isEmpty, "\(Self.disagreements([a, b]))")
    }

    @Test func theBrokerGoingAwayChangesNothingAndWhatIsNotAGroupMessageIsRefused() throws {
        let broker = try MosquittoBroker()
        let folder = try Fixtures.imageFolder()
        let a = try Self.screen("a", broker: broker, folder: folder, extra: ["--control", "127.0.0.1:0"])
        defer { kill(a.process.processIdentifier, SIGKILL) }
        let b = try Self.screen("b", broker: broker, folder: folder)
        defer { kill(b.process.processIdentifier, SIGKILL) }
        #expect(Poll.until(20) { Self.steps(b).count >= 2 && Self.steps(a).count >= 2 })
        let port = try #require(a.log.split(separator: "\n").first { $0.contains("control: listening on") }
            .flatMap { Int($0.split(separator: ":").last!) })
        func commands() -> String? {
            (HTTPProbe(port: port).request("GET", "/status")?.json?["group"] as? [String: Any])?["commands"] as? String
        }
        #expect(commands() == "group")

        // Not a group message, and one of another show: a line each, and nothing moves.
        broker.publish("kiosk-carousel/group/hall/command/x", "garbage")
        let foreign = #"{"v":1,"screen":"x","show":"0123456789abcdef","time_us":"#
            + String(Int64((Date().timeIntervalSince1970 + 0.2) * 1e6)) + #","action":"show","item":2,"idle":60}"#
        broker.publish("kiosk-carousel/group/hall/command/x", foreign)
        broker.publish("kiosk-carousel/group/hall/command/y", foreign)
        #expect(a.waitForLog("group hall: kiosk-carousel/group/hall/command/x: refused, not a JSON object"), "\(a.log)")
        #expect(a.waitForLog("group hall: screen x shows another show (0123456789abcdef"), "\(a.log)")
        #expect(a.waitForLog("group hall: kiosk-carousel/group/hall/command/y: refused, it names another screen (x)"), "\(a.log)")

        // The broker away: the screens go on stepping together on their clocks.
        broker.stop()
        #expect(a.waitForLog("mqtt: lost the broker"))
        let before = Self.steps(b).count
        #expect(Poll.until(10) { Self.steps(b).count >= before + 3 })
        #expect(commands() == "local", "/status says commands stay on this screen")
        try broker.restart()
        #expect(Poll.until(90) { a.log.components(separatedBy: "mqtt: connected").count == 3 }, "\(a.log)")
        // Each screen says its epoch again to a broker that lost it.
        #expect(Poll.until(10) { broker.retained("kiosk-carousel/group/hall/epoch/a") != nil && broker.retained("kiosk-carousel/group/hall/epoch/b") != nil })
        #expect(Poll.until(10) { Self.steps(a).count >= before + 4 })
        #expect(Self.disagreements([a, b]).isEmpty, "\(Self.disagreements([a, b]))")
        #expect(a.process.isRunning && b.process.isRunning)
        #expect(commands() == "group")
    }

    /// A broker set up with passwords and an ACL (the kiosks may write the group's topics,
    /// a visitor may only read, nobody anonymous): a command from outside moves nothing,
    /// the same command from a kiosk's account moves every screen.
    @Test func withPasswordsAndAnACLOnlyTheGroupsAccountsMoveIt() throws {
        let broker = try MosquittoBroker(users: ["kiosk": ("wall-secret", ["kiosk-carousel/#"]), "visitor": ("look-only", [])])
        broker.user = ("kiosk", "wall-secret")
        let folder = try Fixtures.imageFolder()
        let secret = try Fixtures.temporaryFolder("group-acl") + "/password"
        try "wall-secret\n".write(toFile: secret, atomically: true, encoding: .utf8)
        let account = ["--mqtt-user", "kiosk", "--mqtt-password-file", secret]
        let a = try Self.screen("a", broker: broker, folder: folder, extra: account + ["--control", "127.0.0.1:0"])
        defer { kill(a.process.processIdentifier, SIGKILL) }
        let b = try Self.screen("b", broker: broker, folder: folder, extra: account)
        defer { kill(b.process.processIdentifier, SIGKILL) }
        #expect(Poll.until(20) { Self.steps(a).count >= 2 && Self.steps(b).count >= 2 }, "\(a.log)")
        #expect(Self.disagreements([a, b]).isEmpty)
        // A command a member would obey: the show's own fingerprint, item 2 held a minute.
        let epoch = try #require(broker.waitForRetained("kiosk-carousel/group/hall/epoch/a", timeout: 10))
        let show = try #require((try JSONSerialization.jsonObject(with: Data(epoch.utf8)) as? [String: Any])?["show"] as? String)
        func command() -> String {
            #"{"v":1,"screen":"x","show":""# + show + #"","time_us":"#
                + String(Int64((Date().timeIntervalSince1970 + 0.3) * 1e6)) + #","action":"show","item":2,"idle":60}"#
        }
        func heard(_ s: RunningCarousel) -> Bool { s.ofType("group").contains { $0["action"] as? String == "heard" && $0["from"] as? String == "x" } }
        // Anonymous, then the visitor's read-only account: the broker takes neither.
        broker.user = nil
        broker.publish("kiosk-carousel/group/hall/command/x", command())
        broker.user = ("visitor", "look-only")
        broker.publish("kiosk-carousel/group/hall/command/x", command())
        Thread.sleep(forTimeInterval: 2)
        #expect(!heard(a) && !heard(b), "a command from outside the group's accounts moved it")
        // The same from the kiosks' account: both screens go to item 2.
        broker.user = ("kiosk", "wall-secret")
        broker.publish("kiosk-carousel/group/hall/command/x", command())
        #expect(Poll.until(10) { heard(a) && heard(b) }, "\(a.log)")
        for s in [a, b] { #expect(Poll.until(5) { Self.steps(s).last?.to == 2 }, "\(Self.steps(s))") }
        broker.clearRetained("kiosk-carousel/group/hall/command/x")
    }

    /// Issue 62: each screen speaks only for itself. A broker set up as kiosk/mosquitto-kiosk.acl
    /// says (the file itself, one account per screen named as its --mqtt-id, pattern rules for
    /// its own topics, two lines a screen for its group), plus a screen of another group: the
    /// two screens of group window step together; left's account publishing as right, and the
    /// other group's screen publishing into window, are refused by the broker and move nobody;
    /// the same command from right's own account moves both.
    @Test func withOneAccountPerScreenAScreenSpeaksOnlyForItself() throws {
        let example = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../kiosk/mosquitto-kiosk.acl").standardized.path
        let acl = try String(contentsOfFile: example, encoding: .utf8) + "user door\ntopic write kiosk-carousel/group/lobby/+/door\n"
        let passwords = ["left": "l-secret", "right": "r-secret", "door": "d-secret", "homeassistant": "h-secret"]
        let broker = try MosquittoBroker(accounts: passwords, acl: acl)
        let folder = try Fixtures.imageFolder()
        let dir = try Fixtures.temporaryFolder("group-accounts")
        func screen(_ id: String) throws -> RunningCarousel {
            try passwords[id]!.write(toFile: dir + "/" + id, atomically: true, encoding: .utf8)
            return try RunningCarousel(args: [folder, "--size", "320x180", "--autoplay", "1", "--idle-resume", "2", "--order", "name",
                                              "--mqtt", "mqtt://127.0.0.1:\(broker.port)", "--mqtt-id", id, "--group", "window",
                                              "--mqtt-user", id, "--mqtt-password-file", dir + "/" + id],
                                       display: ":0", environment: ["SDL_VIDEODRIVER": "dummy"])
        }
        let left = try screen("left")
        defer { kill(left.process.processIdentifier, SIGKILL) }
        let right = try screen("right")
        defer { kill(right.process.processIdentifier, SIGKILL) }
        #expect(Poll.until(20) { Self.steps(left).count >= 2 && Self.steps(right).count >= 2 }, "\(left.log)")
        #expect(Self.disagreements([left, right]).isEmpty)
        broker.user = ("homeassistant", passwords["homeassistant"]!)
        let epoch = try #require(broker.waitForRetained("kiosk-carousel/group/window/epoch/left", timeout: 10))
        #expect(broker.waitForRetained("kiosk-carousel/group/window/epoch/right", timeout: 10) != nil, "right writes its own group topics")
        let show = try #require((try JSONSerialization.jsonObject(with: Data(epoch.utf8)) as? [String: Any])?["show"] as? String)
        // A command item 2 held a minute, as `from` would send it, 0.3 s ahead.
        func command(from: String) -> (String, Double) {
            let at = Date().timeIntervalSince1970 + 0.3
            return (#"{"v":1,"screen":""# + from + #"","show":""# + show + #"","time_us":"# + String(Int64(at * 1e6))
                    + #","action":"show","item":2,"idle":60}"#, at)
        }
        // Left's account speaking as right; the other group's screen speaking into window.
        broker.user = ("left", passwords["left"]!)
        let (asRight, forgedAt) = command(from: "right")
        broker.publish("kiosk-carousel/group/window/command/right", asRight)
        broker.user = ("door", passwords["door"]!)
        let (fromDoor, doorAt) = command(from: "door")
        broker.publish("kiosk-carousel/group/window/command/door", fromDoor)
        Thread.sleep(forTimeInterval: 2)
        func heard(_ s: RunningCarousel, from screen: String, at: Double) -> Bool {
            s.ofType("group").contains { $0["action"] as? String == "heard" && $0["from"] as? String == screen
                && abs(($0["at_ms"] as? Double ?? 0) - at * 1000) < 2 }
        }
        #expect(!heard(left, from: "right", at: forgedAt) && !heard(right, from: "door", at: doorAt) && !heard(left, from: "door", at: doorAt),
                "a command the broker should have refused reached a screen")
        // Right's own account: left hears it, and both screens go to item 2 and stay there.
        broker.user = ("right", passwords["right"]!)
        let (own, ownAt) = command(from: "right")
        broker.publish("kiosk-carousel/group/window/command/right", own)
        #expect(Poll.until(10) { heard(left, from: "right", at: ownAt) }, "\(left.log)")
        Thread.sleep(forTimeInterval: 1.5)
        for s in [left, right] { #expect(Self.steps(s).last?.to == 2, "\(Self.steps(s).suffix(3))") }
        broker.clearRetained("kiosk-carousel/group/window/command/right")
    }

    /// Issue 62: a wrong clock cannot lead. Two screens on the host's clock, kept by NTP, and
    /// two whose clocks are wrong and not kept by NTP (CAROUSEL_WALL_CLOCK: one 10 minutes
    /// ahead, one 30 s behind, which joins early enough that its start would be the earliest):
    /// the group's epoch stays the right clocks'; once the exchange over the broker has
    /// measured them, the wrong ones say they follow and command nothing, and they step with
    /// the others at the group's instants;
    /// a remote step on the fast one reaches nobody; a command stamped 10 minutes ahead is
    /// refused by every screen; when NTP is said to have set the fast one right, it commands
    /// the group again.
    @Test func wrongClocksFollowTheGroupAndNeverLeadIt() throws {
        let broker = try MosquittoBroker()
        let folder = try Fixtures.imageFolder()
        let dir = try Fixtures.temporaryFolder("wrong-clocks")
        func screen(_ id: String, clock: String?) throws -> RunningCarousel {
            var environment = ["SDL_VIDEODRIVER": "dummy"]
            if let clock {
                try clock.write(toFile: dir + "/" + id, atomically: true, encoding: .utf8)
                environment["CAROUSEL_WALL_CLOCK"] = dir + "/" + id
            }
            return try RunningCarousel(args: [folder, "--size", "320x180", "--autoplay", "2", "--idle-resume", "2", "--order", "name",
                                              "--mqtt", "mqtt://127.0.0.1:\(broker.port)", "--mqtt-id", id, "--group", "hall",
                                              "--control", "127.0.0.1:0"], display: ":0", environment: environment)
        }
        func control(_ app: RunningCarousel) -> HTTPProbe? {
            app.log.split(separator: "\n").first(where: { $0.contains("control: listening on") })
                .flatMap { Int($0.split(separator: ":").last!) }.map { HTTPProbe(port: $0) }
        }
        func heard(_ s: RunningCarousel, from screen: String) -> Bool {
            s.ofType("group").contains { $0["action"] as? String == "heard" && $0["from"] as? String == screen }
        }
        func epoch(_ app: RunningCarousel) -> String? {
            (control(app)?.request("GET", "/status")?.json?["group"] as? [String: Any])?["epoch"] as? String
        }
        let a = try screen("a", clock: "0 synchronised")
        defer { kill(a.process.processIdentifier, SIGKILL) }
        let b = try screen("b", clock: "0 synchronised")
        defer { kill(b.process.processIdentifier, SIGKILL) }
        #expect(Poll.until(20) { Self.steps(a).count >= 2 && Self.steps(b).count >= 2 }, "\(a.log)")
        let groupEpoch = try #require(epoch(a))
        let fast = try screen("fast", clock: "600 unsynchronised")
        defer { kill(fast.process.processIdentifier, SIGKILL) }
        let slow = try screen("slow", clock: "-30 unsynchronised")
        defer { kill(slow.process.processIdentifier, SIGKILL) }
        let following = "follows the group and commands nothing"
        #expect(Poll.until(30) { fast.log.contains(following) && slow.log.contains(following) }, "\(fast.log)\n\(slow.log)")
        #expect(!a.log.contains(following) && !b.log.contains(following))
        // The slow one's start, 30 s early by its clock, did not move the group's epoch back.
        for s in [a, b, fast, slow] { #expect(Poll.until(5) { epoch(s) == groupEpoch }, "\(String(describing: epoch(s))) against \(groupEpoch)") }
        // They follow: the group's instants and items, the same as the right clocks'.
        let followedFrom = Date().timeIntervalSince1970 * 1000
        #expect(Poll.until(20) {
            [fast, slow].allSatisfy { s in Self.steps(s).filter { $0.since > followedFrom }.count >= 2 }
        }, "\(Self.steps(fast).suffix(3)) \(Self.steps(slow).suffix(3))")
        // Each screen's log is read as it stands: on a busy machine one screen may not have
        // written a step the other has, so the shared instants are waited for.
        for s in [fast, slow] {
            func shared() -> Set<Double> { Set(Self.steps(s).filter { $0.since > followedFrom }.map(\.since)).intersection(Self.steps(a).map(\.since)) }
            #expect(Poll.until(20) { shared().count >= 2 }, "\(Self.steps(s).suffix(3)) against \(Self.steps(a).suffix(3))")
        }
        #expect(Self.disagreements([a, b, fast, slow], after: followedFrom).isEmpty, "\(Self.disagreements([a, b, fast, slow], after: followedFrom))")
        #expect(Self.disagreements([a, b]).isEmpty, "the right clocks never stepped apart: \(Self.disagreements([a, b]))")
        // A remote step on the fast screen is its own: nobody hears it.
        #expect(control(fast)?.request("POST", "/next")?.status == 200)
        Thread.sleep(forTimeInterval: 2)
        #expect(![a, b, slow].contains { heard($0, from: "fast") })
        // A command stamped 10 minutes ahead (a clock that does not know it is wrong): refused.
        let epoch = try #require(broker.waitForRetained("kiosk-carousel/group/hall/epoch/a", timeout: 10))
        let show = try #require((try JSONSerialization.jsonObject(with: Data(epoch.utf8)) as? [String: Any])?["show"] as? String)
        broker.publish("kiosk-carousel/group/hall/command/z", #"{"v":1,"screen":"z","show":""# + show + #"","time_us":"#
                       + String(Int64((Date().timeIntervalSince1970 + 600) * 1e6)) + #","action":"show","item":2,"idle":60}"#)
        #expect(Poll.until(10) { [a, b].allSatisfy { $0.log.contains("a command from screen z is stamped 600 s ahead") } }, "\(a.log)")
        #expect(![a, b, fast, slow].contains { heard($0, from: "z") })
        #expect(a.ofType("group").contains { $0["action"] as? String == "refused" && $0["from"] as? String == "z" })
        broker.clearRetained("kiosk-carousel/group/hall/command/z")
        // NTP sets the fast one right: it commands the group again, and a step there moves all.
        try "0 synchronised".write(toFile: dir + "/fast", atomically: true, encoding: .utf8)
        #expect(Poll.until(20) { fast.log.contains("commands the group again") }, "\(fast.log)")
        #expect(control(fast)?.request("POST", "/next")?.status == 200)
        #expect(Poll.until(10) { heard(a, from: "fast") && heard(b, from: "fast") }, "\(a.log)")
    }

    /// Two screens on two Immich albums of the same length (issue 60): every Immich picture's
    /// file name is `thumbnail?size=preview`, so by names they were one show and stepped "in
    /// step" through different pictures; by the assets' ids each says the other shows another
    /// show and goes on alone. Then both on one album in `--order fair`: one show, in step.
    @Test func twoImmichAlbumsOfTheSameLengthAreTwoShows() throws {
        let broker = try MosquittoBroker()
        let key = "group-key-" + UUID().uuidString
        let server = try FakeImmich(key: key)
        defer { server.stop() }
        let dir = try Fixtures.temporaryFolder("immich-group")
        try key.write(toFile: dir + "/immich.key", atomically: true, encoding: .utf8)
        let albums = ["00000000-0000-4000-8000-000000000101", "00000000-0000-4000-8000-000000000102"]
        server.addAlbum(id: albums[0], name: "Garden")
        server.addAlbum(id: albums[1], name: "Beach")
        let picture = try ImmichRenderTests.jpeg("orange")
        for n in 0..<6 {
            var a = FakeImmich.Asset(id: String(format: "00000000-0000-4000-8000-%012d", 200 + n), name: "IMG_\(n).jpg", preview: picture, original: picture)
            a.albums = [albums[n % 2]]
            server.add(a)
        }
        func screen(_ id: String, album: String, extra: [String] = []) throws -> RunningCarousel {
            try RunningCarousel(args: extra + ["--immich", server.url, "--immich-key-file", dir + "/immich.key", "--immich-album", album,
                                       "--cache-dir", dir + "/cache-" + id, "--size", "320x180", "--autoplay", "1", "--idle-resume", "2",
                                       "--mqtt", "mqtt://127.0.0.1:\(broker.port)", "--mqtt-id", id, "--group", "hall"],
                                display: ":0", environment: ["SDL_VIDEODRIVER": "dummy", "XDG_STATE_HOME": dir + "/state"])
        }
        do {
            let a = try screen("a", album: "Garden")
            defer { kill(a.process.processIdentifier, SIGKILL) }
            let b = try screen("b", album: "Beach")
            defer { kill(b.process.processIdentifier, SIGKILL) }
            #expect(a.waitForLog("group hall: screen b shows another show", timeout: 30), "\(a.log)")
            #expect(b.waitForLog("group hall: screen a shows another show", timeout: 30), "\(b.log)")
        }
        // On one album in --order fair: the group's order, the same picture on both at each step.
        let a = try screen("c", album: "Garden", extra: ["--order", "fair"])
        defer { kill(a.process.processIdentifier, SIGKILL) }
        let b = try screen("d", album: "Garden", extra: ["--order", "fair"])
        defer { kill(b.process.processIdentifier, SIGKILL) }
        #expect(Poll.until(30) { Self.steps(a).count >= 4 && Self.steps(b).count >= 4 }, "\(a.log)\n\(b.log)")
        #expect(Self.disagreements([a, b]).isEmpty, "\(Self.disagreements([a, b]))")
        // (At start one screen may list the album before the other: "another show" until both have it.)
        let late = Set(Self.steps(b).suffix(3).map(\.since))
        #expect(late.isSubset(of: Set(Self.steps(a).map(\.since))), "d steps at c's instants: \(Self.steps(a)) / \(Self.steps(b))")
    }

    /// `--order fair` in a group (issue 60, point 3): each screen drew its own round before, so
    /// their shows differed and each went alone; now the group's seeded order is the same on
    /// both (each screen with its own copy of the pictures), they step together, the same
    /// picture at each step.
    @Test func fairOrderInAGroupIsOneOrderOnEveryScreen() throws {
        let broker = try MosquittoBroker()
        let (fa, fb) = (try Fixtures.imageFolder(), try Fixtures.imageFolder())
        let state = try Fixtures.temporaryFolder("group-fair-state")
        func screen(_ id: String, _ folder: String) throws -> RunningCarousel {
            try RunningCarousel(args: [folder, "--size", "320x180", "--autoplay", "1", "--idle-resume", "2", "--order", "fair",
                                       "--mqtt", "mqtt://127.0.0.1:\(broker.port)", "--mqtt-id", id, "--group", "hall"],
                                display: ":0", environment: ["SDL_VIDEODRIVER": "dummy", "XDG_STATE_HOME": state])
        }
        let a = try screen("a", fa)
        defer { kill(a.process.processIdentifier, SIGKILL) }
        Thread.sleep(forTimeInterval: 1.5)
        let b = try screen("b", fb)
        defer { kill(b.process.processIdentifier, SIGKILL) }
        #expect(Poll.until(30) { Self.steps(b).count >= 6 }, "\(b.log)")
        #expect(Self.disagreements([a, b]).isEmpty, "\(Self.disagreements([a, b]))")
        #expect(Set(Self.steps(b).dropFirst().map(\.since)).isSubset(of: Set(Self.steps(a).map(\.since))), "one timeline")
        #expect(!a.log.contains("shows another show") && !b.log.contains("shows another show"), "one show: \(a.log)\n\(b.log)")
        #expect(!FileManager.default.fileExists(atPath: state + "/kiosk-carousel"), "no kept round in a group: the group's timeline is where the show is")
    }

    /// A group names a file by its path below the folder it was given and its size (issue 60,
    /// point 3): by its name alone, two screens whose pictures have the same names in other
    /// sub-folders (a 2024 and a 2025 `IMG_0001.JPG`, as every camera writes) were one show and
    /// stepped together through different pictures. Mounted elsewhere, the same tree is one show.
    @Test func theSameNamesInOtherSubfoldersAreAnotherShow() throws {
        let broker = try MosquittoBroker()
        let state = try Fixtures.temporaryFolder("group-paths-state")
        let picture = Fixtures.bmp(64, 48) { _, _ in (200, 40, 40) }
        func folder(_ tree: [String]) throws -> String {
            let root = try Fixtures.temporaryFolder("group-paths")
            for path in tree {
                try FileManager.default.createDirectory(atPath: root + "/" + (path as NSString).deletingLastPathComponent,
                                                        withIntermediateDirectories: true)
                try picture.write(to: URL(fileURLWithPath: root + "/" + path))
            }
            return root
        }
        func screen(_ id: String, _ folder: String, group: String = "hall") throws -> RunningCarousel {
            try RunningCarousel(args: [folder, "--recursive", "--size", "320x180", "--autoplay", "1", "--idle-resume", "2", "--order", "fair",
                                       "--mqtt", "mqtt://127.0.0.1:\(broker.port)", "--mqtt-id", id, "--group", group],
                                display: ":0", environment: ["SDL_VIDEODRIVER": "dummy", "XDG_STATE_HOME": state])
        }
        let mine = ["2024/IMG_0001.bmp", "2025/IMG_0002.bmp", "2025/IMG_0003.bmp"]
        do {
            let a = try screen("a", try folder(mine))
            defer { kill(a.process.processIdentifier, SIGKILL) }
            let b = try screen("b", try folder(["2025/IMG_0001.bmp", "2024/IMG_0002.bmp", "2025/IMG_0003.bmp"]))
            defer { kill(b.process.processIdentifier, SIGKILL) }
            #expect(a.waitForLog("group hall: screen b shows another show", timeout: 30), "\(a.log)")
            #expect(b.waitForLog("group hall: screen a shows another show", timeout: 30), "\(b.log)")
        }
        let c = try screen("c", try folder(mine), group: "lobby")  // (b's epoch stays retained in the hall)
        defer { kill(c.process.processIdentifier, SIGKILL) }
        let d = try screen("d", try folder(mine), group: "lobby")
        defer { kill(d.process.processIdentifier, SIGKILL) }
        #expect(Poll.until(30) { Self.steps(c).count >= 4 && Self.steps(d).count >= 4 }, "\(c.log)\n\(d.log)")
        #expect(!c.log.contains("shows another show") && !d.log.contains("shows another show"), "one show: \(c.log)\n\(d.log)")
        #expect(Self.disagreements([c, d]).isEmpty, "\(Self.disagreements([c, d]))")
    }

    /// Each screen with a folder of its own, a picture copied to one and, a while later, to
    /// the other (what a rollout by rsync or a USB stick does): meanwhile the two shows
    /// differ and each says so in a line and goes on alone; once the copy is on both they are
    /// the same show again and step together, on the group's epoch, without a restart.
    @Test func aPictureCopiedToOneScreenFirstParksItUntilTheOthersHaveItToo() throws {
        let broker = try MosquittoBroker()
        let (fa, fb) = (try Fixtures.imageFolder(), try Fixtures.imageFolder())
        let a = try Self.screen("a", broker: broker, folder: fa)
        defer { kill(a.process.processIdentifier, SIGKILL) }
        let b = try Self.screen("b", broker: broker, folder: fb)
        defer { kill(b.process.processIdentifier, SIGKILL) }
        #expect(Poll.until(20) { Self.steps(a).count >= 2 && Self.steps(b).count >= 2 }, "\(a.log)")
        #expect(Self.disagreements([a, b]).isEmpty)

        let picture = Fixtures.bmp(320, 240) { x, _ in (UInt8(x * 255 / 319), 200, 40) }
        try picture.write(to: URL(fileURLWithPath: fa + "/f-new.bmp"))
        #expect(b.waitForLog("group hall: screen a shows another show", timeout: 20), "\(b.log)")
        #expect(a.waitForLog("group hall: screen b shows another show", timeout: 20), "\(a.log)")
        let aloneFrom = Self.steps(a).count
        #expect(Poll.until(10) { Self.steps(a).count >= aloneFrom + 2 }, "a goes on alone: \(a.log)")

        let copied = Date().timeIntervalSince1970 * 1000
        try picture.write(to: URL(fileURLWithPath: fb + "/f-new.bmp"))
        // Back in step from the first step each screen made with six pictures (the broken
        // one shown as a placeholder): its catalogue changed, then its next step.
        func sixFrom(_ s: RunningCarousel) -> Double? {
            guard let changed = s.ofType("catalog_changed").last?["t_ms"] as? Double else { return nil }
            return s.ofType("group").first { $0["action"] as? String == "step" && ($0["t_ms"] as? Double ?? 0) >= changed }?["since_ms"] as? Double
        }
        #expect(Poll.until(20) { sixFrom(a) != nil && sixFrom(b) != nil }, "a: \(a.log)\nb: \(b.log)")
        let joined = try #require([sixFrom(a), sixFrom(b)].compactMap { $0 }.max())
        #expect(Poll.until(10) { Self.steps(b).filter { $0.since >= joined }.count >= 6 })
        #expect(a.log.contains("group hall: screen b shows this screen's show again"), "\(a.log)")
        #expect(b.log.contains("group hall: screen a shows this screen's show again"), "\(b.log)")
        let since = { (s: RunningCarousel) in Self.steps(s).filter { $0.since >= joined } }
        // The item each shows from each instant: a step made with five pictures and
        // corrected at once when the sixth came counts by its correction.
        let sa = Dictionary(since(a).map { ($0.since, $0.to) }, uniquingKeysWith: { $1 })
        let sb = Dictionary(since(b).map { ($0.since, $0.to) }, uniquingKeysWith: { $1 })
        let differing = sb.filter { sa[$0.key] != nil && sa[$0.key] != $0.value }
        #expect(differing.isEmpty, "after \(joined): \(differing)\na: \(Self.steps(a).map { "\(Int($0.since) % 100_000)→\($0.to)" })\nb: \(Self.steps(b).map { "\(Int($0.since) % 100_000)→\($0.to)" })\n\(a.ofType("catalog_changed"))\n\(b.ofType("catalog_changed"))")
        #expect(Set(since(b).map(\.to)).contains(5), "the new picture is in the show: \(since(b))")
        // The group's epoch stayed: every step of both, before, during and after, begins on
        // the same grid of one-second instants.
        let first = Self.steps(a)[0].since
        let off = (Self.steps(a) + Self.steps(b)).filter { abs(($0.since - first).remainder(dividingBy: 1000)) > 0.5 }
        #expect(off.isEmpty, "off the group's grid: \(off)")
        print("group: one show again \(Int(joined - copied)) ms after the copy reached the second screen")
    }

    @Test func eachScreenKnowsItsClockFromTheGroupsAndSaysWhenItIsOutOfStep() throws {
        let broker = try MosquittoBroker()
        let folder = try Fixtures.imageFolder()
        // a's ping at its connection, caught on the way.
        let catcher = Process()
        catcher.executableURL = try OutsideProgram.mosquittoSub.url
        catcher.arguments = ["-h", "127.0.0.1", "-p", String(broker.port), "-t", "kiosk-carousel/group/hall/clock/a", "-C", "1"]
        let caught = Pipe()
        catcher.standardOutput = caught
        try catcher.run()
        defer { if catcher.isRunning { kill(catcher.processIdentifier, SIGKILL) } }
        Thread.sleep(forTimeInterval: 0.5)
        let a = try Self.screen("a", broker: broker, folder: folder, extra: ["--control", "127.0.0.1:0"])
        defer { kill(a.process.processIdentifier, SIGKILL) }
        #expect(Poll.until(20) { a.log.contains("mqtt: connected") })
        let b = try Self.screen("b", broker: broker, folder: folder, extra: ["--control", "127.0.0.1:0"])
        defer { kill(b.process.processIdentifier, SIGKILL) }
        func group(_ app: RunningCarousel) -> [String: Any]? {
            guard let port = app.log.split(separator: "\n").first(where: { $0.contains("control: listening on") })
                .flatMap({ Int($0.split(separator: ":").last!) }) else { return nil }
            return HTTPProbe(port: port).request("GET", "/status")?.json?["group"] as? [String: Any]
        }
        // b asked at its connection and a answered: one host, one clock.
        #expect(Poll.until(20) { group(b)?["clock_offset_ms"] is Double }, "\(String(describing: group(b)))")
        let measured = try #require(group(b))
        let offset = try #require(measured["clock_offset_ms"] as? Double), error = try #require(measured["clock_error_ms"] as? Double)
        // One host: the offset is 0 within the measure's own error (half the shortest round
        // trip; on a loaded machine 18.9 ms was measured with a round trip to match).
        #expect(abs(offset) <= error + 1000.0 / 60, "\(offset) ms ± \(error) ms")
        // In step with the group: no problem, whether or not the kernel says NTP keeps this
        // host's clock (issue 62: a clock within a frame of the group's commands it; this
        // workbench's kernel says unsynchronised).
        let unkept = group(b)?["clock_synchronised"] as? Bool == false
        #expect(group(b)?["clock_problem"] as? Bool == false)
        #expect(broker.waitForRetained("homeassistant/binary_sensor/b/clock/config") != nil, "the problem sensor is announced")
        #expect(broker.waitForRetained("kiosk-carousel/b/state/clock_problem") == "OFF")
        if unkept { #expect(b.log.contains("this host's clock is not synchronised")) }
        #expect(!b.log.contains("commands nothing"), "\(b.log)")

        // A screen z whose clock runs half a minute ahead answers a's ping.
        catcher.waitUntilExit()
        let ping = try #require(try JSONSerialization.jsonObject(with: caught.fileHandleForReading.readDataToEndOfFile()) as? [String: Any])
        let sent = try #require((ping["ping_us"] as? NSNumber)?.int64Value)
        let show = try #require(ping["show"] as? String)
        let reply = "{\"v\":1,\"screen\":\"z\",\"show\":\"\(show)\",\"to\":\"a\",\"ping_us\":\(sent),\"got_us\":\(sent + 30_000_000),\"sent_us\":\(sent + 30_000_000)}"
        broker.publish("kiosk-carousel/group/hall/clock/z", reply)
        #expect(a.waitForLog("group hall: this screen's clock is -"), "\(a.log)")
        #expect(a.log.contains("ms from the group's (more than a frame)"))
        // Out of step, and NTP does not vouch for it here: a problem, and a follows the group
        // without commanding it. Where NTP keeps a's clock, a's word stands (the other is wrong).
        if group(a)?["clock_synchronised"] as? Bool != true {
            #expect(Poll.until(10) { group(a)?["clock_problem"] as? Bool == true }, "\(String(describing: group(a)))")
            #expect(broker.waitForRetained("kiosk-carousel/a/state/clock_problem", toBe: "ON") == "ON")
            #expect(a.waitForLog("follows the group and commands nothing"), "\(a.log)")
        }
        // An answer to a ping a never sent is not taken.
        let forged = reply.replacingOccurrences(of: "\"ping_us\":\(sent)", with: "\"ping_us\":\(sent - 1_000_000)")
        broker.publish("kiosk-carousel/group/hall/clock/y", forged.replacingOccurrences(of: "\"screen\":\"z\"", with: "\"screen\":\"y\""))
        Thread.sleep(forTimeInterval: 0.5)
        #expect(a.log.components(separatedBy: "this screen's clock is").count == 2, "one line: \(a.log)")
    }

    @Test func badGroupOptionsAreRefusedWithOneLine() throws {
        let folder = try Fixtures.imageFolder()
        for (args, said) in [(["--group", "g"], "--group g needs --mqtt"),
                             (["--group", "a/b", "--mqtt", "mqtt://x"], "--group may hold letters, digits"),
                             (["--group", "g", "--group-epoch", "yesterday"], "--group-epoch must be an instant from 2020 on"),
                             (["--group", "g", "--mqtt", "mqtt://x", "--group-lead", "9"], "--group-lead must be from 0 to 5 seconds"),
                             (["--group-epoch", "2026-01-01T00:00:00Z"], "--group-epoch and --group-lead are for --group")] {
            let r = try CarouselBinary.run([folder] + args, environment: ["SDL_VIDEODRIVER": "dummy"])
            #expect(r.status == 64 && r.stderr.contains(said), "\(args): \(r.stderr)")
        }
    }
}
