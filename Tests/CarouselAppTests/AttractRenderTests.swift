import Foundation
import Testing

/// Attract mode and the fling cap through `carousel render` on virtual time: the options
/// are the interactive app's, the times in the event log are exact.
@Suite struct AttractRenderTests {
    /// (t_ms, action, from, to) of each autoplay event.
    static func autoplay(_ events: EventLines) -> [[String]] {
        events.ofType("autoplay").map { e in
            ["t_ms", "action", "from", "to"].map { k in e[k].map { "\($0)" } ?? "nil" }
        }
    }

    @Test func autoplayPausesOnATouchAndResumesWithoutAJump() throws {
        let script = """
            wait 5000
            tap 320 180 touch
            wait 8000
            snapshot paused-then-resumed
            wait 6000
            """
        let (out, r) = try CarouselBinary.render([try Fixtures.imageFolder()], script: script,
                                                 options: ["--autoplay", "2", "--idle-resume", "5"])
        #expect(r.status == 0, "stderr: \(r.stderr)")
        let events = try EventLines(path: out + "/events.jsonl")
        // Steps at 2 s and 4 s; the tap at 5.00–5.05 s pauses; idle 5 s, then one whole
        // interval: the next step at 12.05 s; at the last item (4) it slides back to 0.
        #expect(Self.autoplay(events) == [
            ["2000", "next", "0", "1"], ["4000", "next", "1", "2"],
            ["12050", "next", "2", "3"], ["14050", "next", "3", "4"],
            ["16050", "rewind", "4", "0"], ["18050", "next", "0", "1"],
        ])
        #expect(events.ofType("activate").map { $0["index"] as? Int } == [2])
        #expect(events.ofType("settled").map { $0["index"] as? Int } == [1, 2, 3, 4, 0, 1])
    }

    @Test func idleHomeSlidesBackToTheFirstItem() throws {
        let (out, r) = try CarouselBinary.render([try Fixtures.imageFolder()], script: "key end\nwait 5000\n",
                                                 options: ["--idle-home", "3"])
        #expect(r.status == 0, "stderr: \(r.stderr)")
        let events = try EventLines(path: out + "/events.jsonl")
        #expect(Self.autoplay(events) == [["3000", "home", "4", "0"]])
        #expect(events.ofType("settled").map { $0["index"] as? Int } == [4, 0])
        #expect(events.ofType("settled").last?["t_ms"] as? Int == 3900, "the slide back takes 0.9 s")
    }

    @Test func theFlingCapStopsMomentumAtTheNextItem() throws {
        let images = try Fixtures.imageFolder()
        // 300 px in 100 ms at 640x360 (stride 403): past half a stride, 3000 px/s.
        let script = "drag 500 180 200 180 100\nwait 1000\n"
        let free = try CarouselBinary.render([images], script: script)
        let capped = try CarouselBinary.render([images], script: script, options: ["--max-fling-items", "1"])
        let to = { (out: String) in try EventLines(path: out + "/events.jsonl").ofType("release").map { $0["to"] as? Int } }
        #expect(try to(free.out) == [4], "momentum carries an uncapped fling to the end")
        #expect(try to(capped.out) == [1])
    }

    @Test(arguments: [
        (["--autoplay", "0.5"], "--autoplay"),
        (["--idle-resume", "-1"], "--idle-resume"),
        (["--idle-home", "soon"], "--idle-home"),
        (["--max-fling-items", "0"], "--max-fling-items"),
    ])
    func badValuesNameTheOption(options: [String], option: String) throws {
        let (_, r) = try CarouselBinary.render([try Fixtures.imageFolder()], script: "wait 10\n", options: options)
        #expect(r.status == 64)
        #expect(r.stderr.contains(option), "stderr: \(r.stderr)")
    }
}
