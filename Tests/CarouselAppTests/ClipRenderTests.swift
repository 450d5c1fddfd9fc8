import CarouselCore
@testable import CarouselMedia
import Foundation
import Testing
import TestSupport

/// A clip in the carousel, rendered headless: the frame due at each script time shows (so
/// video renders are exact), the clip loops without autoplay, starts again from its start
/// when it comes back, and its neighbours show its poster.
@Suite struct ClipRenderTests {
    /// Red, lime, blue or white, by the colour at a point of a rendered frame.
    static func colour(_ path: String, _ x: Int = 320, _ y: Int = 180) throws -> Int? {
        let p = try BrokenSkipTests.pixel(path, x, y).map(Int.init)
        return ClipFixtures.colours.firstIndex { c in
            abs(Int(c.rgb.0) - p[0]) <= 12 && abs(Int(c.rgb.1) - p[1]) <= 12 && abs(Int(c.rgb.2) - p[2]) <= 12
        }
    }

    static func folder(_ kind: ClipFixtures.Kind) throws -> String {
        let dir = try Fixtures.temporaryFolder("clips")
        try Fixtures.bmp(320, 240) { _, _ in (90, 90, 90) }.write(to: URL(fileURLWithPath: dir + "/a.bmp"))
        try ClipFixtures.make(kind, seconds: [0, 1, 2], in: dir, name: "b")
        try Fixtures.bmp(320, 240) { _, _ in (90, 90, 90) }.write(to: URL(fileURLWithPath: dir + "/c.bmp"))
        return dir
    }

    @Test(arguments: [ClipFixtures.Kind.h264MP4, .vp9WebM])
    func theFrameDueAtEachTimeShowsAndTheClipLoops(kind: ClipFixtures.Kind) throws {
        let dir = try Self.folder(kind)
        // On b (index 1) from 350 ms: its second 0 red, 1 lime, 2 blue, then again from red.
        let script = "key right\nwait 500\nsnapshot s0\nwait 1000\nsnapshot s1\nwait 1000\nsnapshot s2\nwait 1000\nsnapshot s3\n"
            + "key right\nwait 500\nsnapshot away\nkey left\nwait 500\nsnapshot back\n"
        let (out, r) = try CarouselBinary.render([dir], script: script)
        #expect(r.status == 0, "\(r.stderr)")
        let seen = try ["s0", "s1", "s2", "s3"].map { try Self.colour(out + "/\($0).png") }
        #expect(seen == [0, 1, 2, 0], "\(kind): \(seen)")
        // Moved away: its poster (the frame at 0.3 s, red) shows on the left neighbour.
        #expect(try Self.colour(out + "/away.png", 60, 180) == 0)
        // Back: from its start again, 150 ms in: red.
        #expect(try Self.colour(out + "/back.png") == 0)
        let events = try String(contentsOfFile: out + "/events.jsonl", encoding: .utf8)
        #expect(events.components(separatedBy: "\"video_started\"").count - 1 == 2, "started twice: \(events)")
        #expect(events.contains("\"type\":\"frames_dropped\",\"index\":1"), "\(events)")
        #expect(r.stderr.contains("b.\(kind.ext): playing with "), "one line names the decoder: \(r.stderr)")
    }

    /// A phone's HDR clip (HEVC 10-bit BT.2020, HLG as an iPhone's, PQ as HDR10's) shows
    /// its colours, playing and in its poster beside it: each within 6 levels a channel of
    /// ffmpeg's zscale reading of the same clip (issue 59: the red showed as 115,55,39).
    @Test(arguments: ["arib-std-b67", "smpte2084"])
    func aPhonesHDRClipShowsItsColoursPlayingAndInItsPoster(transfer: String) throws {
        let dir = try Fixtures.temporaryFolder("hdr")
        try Fixtures.bmp(320, 240) { _, _ in (90, 90, 90) }.write(to: URL(fileURLWithPath: dir + "/a.bmp"))
        let clip = try ClipFixtures.hdr(transfer: transfer, in: dir)
        let expected = try (0..<4).map { i in try ClipFixtures.ffmpegReading(clip, x: 80 + 160 * (i % 2), y: 48 + 96 * (i / 2)).srgb }
        let (out, r) = try CarouselBinary.render([dir], script: "wait 600\nsnapshot poster\nkey right\nwait 700\nsnapshot playing\n",
                                                 environment: ["XDG_CACHE_HOME": dir + "/cache"])
        #expect(r.status == 0, "\(r.stderr)")
        // The clip's quadrants at 640x360, centred, and its poster's left half beside a.bmp.
        let playing = [(230, 128), (410, 128), (230, 232), (410, 232)], poster = [(590, 128), nil, (590, 232), nil]
        for i in 0..<4 {
            let shown = try BrokenSkipTests.pixel(out + "/playing.png", playing[i].0, playing[i].1).map(Int.init)
            #expect(zip(shown, expected[i]).allSatisfy { abs($0 - $1) <= 6 }, "\(transfer) colour \(i) playing: \(shown), zscale \(expected[i])")
            if let (x, y) = poster[i] {
                let still = try BrokenSkipTests.pixel(out + "/poster.png", x, y).map(Int.init)
                #expect(zip(still, expected[i]).allSatisfy { abs($0 - $1) <= 6 }, "\(transfer) colour \(i) in the poster: \(still), zscale \(expected[i])")
            }
        }
    }

    /// Every signal a phone or camera writes shows its colours, each within 6 levels a channel
    /// of zscale's reading: HLG at 12 bits, 10-bit SDR (Main 10), SDR in BT.2020's gamut, and
    /// 8-bit BT.601. (Full range is not here: GStreamer 1.22's parsers and libav decoder say
    /// a full-range HEVC or H.264 stream is limited, and it shows with too much contrast.)
    @Test(arguments: [ClipFixtures.Signal(transfer: "arib-std-b67", format: "yuv420p12le"),
                      .init(transfer: "bt709", primaries: "bt709", matrix: "bt709"),
                      .init(transfer: "bt709", primaries: "bt2020", matrix: "bt2020nc"),
                      .init(transfer: "bt709", primaries: "bt709", matrix: "smpte170m", format: "yuv420p")])
    func everySignalShowsItsColours(signal: ClipFixtures.Signal) throws {
        let dir = try Fixtures.temporaryFolder("signal")
        let clip = try ClipFixtures.clip(signal, in: dir)
        let sdr = signal.transfer == "bt709"
        let expected = try (0..<4).map { i in try ClipFixtures.ffmpegReading(clip, x: 80 + 160 * (i % 2), y: 48 + 96 * (i / 2), sdr: sdr).srgb }
        let (out, r) = try CarouselBinary.render([dir], script: "wait 600\nsnapshot s\n", environment: ["XDG_CACHE_HOME": dir + "/cache"])
        #expect(r.status == 0, "\(r.stderr)")
        for (i, (x, y)) in [(230, 128), (410, 128), (230, 232), (410, 232)].enumerated() {
            let shown = try BrokenSkipTests.pixel(out + "/s.png", x, y).map(Int.init)
            #expect(zip(shown, expected[i]).allSatisfy { abs($0 - $1) <= 6 }, "\(signal) colour \(i): \(shown), zscale \(expected[i])")
        }
    }

    /// An iPhone's HLG clip as its camera writes it (a Dolby Vision 8.4 configuration box
    /// beside its HEVC one, a portrait clip turned by its track's matrix) plays upright in its
    /// colours: its HLG base layer is what any HEVC decoder plays.
    @Test func anIPhonesHLGClipWithItsDolbyVisionBoxPlaysUprightInItsColours() throws {
        let dir = try Fixtures.temporaryFolder("iphone")
        let clip = try ClipFixtures.iPhoneHLG(in: dir, degrees: 90)
        let expected = try (0..<4).map { i in try ClipFixtures.ffmpegReading(clip, x: 80 + 160 * (i % 2), y: 48 + 96 * (i / 2)).srgb }
        let (out, r) = try CarouselBinary.render([dir], script: "wait 600\nsnapshot s\n", size: "640x640",
                                                 environment: ["XDG_CACHE_HOME": dir + "/cache"])
        #expect(r.status == 0, "\(r.stderr)")
        // Turned a quarter clockwise: the skin tone top left, the red top right, the grey
        // bottom left, the green bottom right, in a box taller than wide.
        let upright = [(2, 250, 200), (0, 390, 200), (3, 250, 440), (1, 390, 440)]
        for (i, x, y) in upright {
            let shown = try BrokenSkipTests.pixel(out + "/s.png", x, y).map(Int.init)
            #expect(zip(shown, expected[i]).allSatisfy { abs($0 - $1) <= 6 }, "colour \(i) at \(x),\(y): \(shown), zscale \(expected[i])")
        }
        // Beside it, where a landscape frame would reach, the background.
        let beside = try BrokenSkipTests.pixel(out + "/s.png", 100, 320).map(Int.init)
        #expect(!expected.contains { zip(beside, $0).allSatisfy { abs($0 - $1) <= 12 } }, "a clip colour beside it: \(beside)")
    }

    /// A damaged clip fails once: autoplay passes it again and again, and it is neither tried
    /// nor said again (it held the show for seconds on every pass) until its file changes.
    @Test func aDamagedClipFailsOnceNotOnEveryPass() throws {
        let dir = try Fixtures.temporaryFolder("damaged")
        try Fixtures.bmp(320, 240) { _, _ in (90, 90, 90) }.write(to: URL(fileURLWithPath: dir + "/a.bmp"))
        let good = try ClipFixtures.make(.h264MP4, seconds: [0, 1, 2], in: dir, name: "b")
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: good)))
        for i in stride(from: 64, to: bytes.count, by: 3) { bytes[i] = UInt8(truncatingIfNeeded: i &* 2_654_435_761 >> 7) }
        try Data(bytes).write(to: URL(fileURLWithPath: good))
        try Fixtures.bmp(320, 240) { _, _ in (30, 90, 160) }.write(to: URL(fileURLWithPath: dir + "/c.bmp"))
        let (out, r) = try CarouselBinary.render([dir], script: "wait 9000\nsnapshot s\n", options: ["--autoplay", "1"],
                                                 environment: ["XDG_CACHE_HOME": dir + "/cache"])
        #expect(r.status == 0, "\(r.stderr)")
        let visits = try Self.steps(out).filter { $0.2 == 1 }.count
        let events = try String(contentsOfFile: out + "/events.jsonl", encoding: .utf8)
        let failures = events.components(separatedBy: "\"type\":\"video_failed\",\"index\":1").count - 1
        #expect(visits >= 2, "autoplay came to the clip \(visits) times")
        #expect(failures == 1, "it failed \(failures) times in \(visits) visits")
        let lines = r.stderr.split(separator: "\n").filter { $0.contains("b.mp4") && !$0.contains("poster") }
        #expect(lines.count <= 2, "said at most once as a picture and once as a clip: \(lines)")
    }

    /// Steps of autoplay, from the event log: (ms, from, to).
    static func steps(_ out: String) throws -> [(Int, Int, Int)] {
        try String(contentsOfFile: out + "/events.jsonl", encoding: .utf8).split(separator: "\n").compactMap { line in
            guard let o = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  o["type"] as? String == "autoplay", o["action"] as? String == "next" else { return nil }
            return (o["t_ms"] as? Int ?? -1, o["from"] as? Int ?? -1, o["to"] as? Int ?? -1)
        }
    }

    @Test func underAutoplayAClipHoldsTheShowUntilItEndsOrPlaysItsLongest() throws {
        let dir = try Self.folder(.h264MP4)
        // Autoplay every second, starting on the 3 s clip: it moves on at its end, not at 1 s.
        var (out, r) = try CarouselBinary.render([dir], script: "wait 4000\nsnapshot s\n", options: ["--autoplay", "1", "--start-index", "1"])
        #expect(r.status == 0, "\(r.stderr)")
        var steps = try Self.steps(out)
        #expect(steps.first.map { $0.0 == 3000 && $0.1 == 1 && $0.2 == 2 } == true, "\(steps)")
        #expect(try String(contentsOfFile: out + "/events.jsonl", encoding: .utf8).contains("{\"t_ms\":3000,\"type\":\"video_ended\",\"index\":1}"))
        (out, r) = try CarouselBinary.render([dir], script: "wait 4000\nsnapshot s\n",
                                             options: ["--autoplay", "1", "--start-index", "1", "--video-max", "1.5"])
        steps = try Self.steps(out)
        #expect(steps.first.map { $0.0 == 1500 && $0.1 == 1 } == true, "--video-max 1.5: \(steps)")
    }

    @Test func kPausesTheClipOnItsFrameAndPlaysItOnFromThere() throws {
        let dir = try Self.folder(.h264MP4)
        // On b from 350 ms; paused 0.5 s into it (red) for 1.5 s, then on: 0.7 s later it is
        // 1.2 s in (lime), where without the pause it would be 2.7 s in (blue).
        let script = "key right\nwait 850\nkey k\nwait 1500\nsnapshot paused\nkey k\nwait 700\nsnapshot on\n"
        let (out, r) = try CarouselBinary.render([dir], script: script)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try Self.colour(out + "/paused.png") == 0)
        #expect(try Self.colour(out + "/on.png") == 1)
    }

    /// L and J move the clip 10 s on and back from the frame on screen, paused too (the
    /// frame there shows and stays), and it plays on from there, looping across its end.
    @Test func jAndLMoveTheClipAndAPausedClipShowsTheFrameSought() throws {
        let dir = try Fixtures.temporaryFolder("seek")
        // 12 s at 5 frames a second: red, white, then red to 10 s, blue, lime.
        try ClipFixtures.make(.h264MP4, seconds: [0, 3, 0, 0, 0, 0, 0, 0, 0, 0, 2, 1], rate: 5, in: dir, name: "a")
        try Fixtures.bmp(320, 240) { _, _ in (90, 90, 90) }.write(to: URL(fileURLWithPath: dir + "/b.bmp"))
        // 0.5 s: 0.4 s in (red). L: 10.4; 0.2 s later blue, 0.7 s later 11.0 (lime). J: 1.0
        // (white). K, then L: 11.2 (lime) paused for 1 s; K: 1 s later past its end, again
        // from its start (red).
        let script = "wait 500\nsnapshot s0\nkey l\nwait 200\nsnapshot s1\nwait 500\nsnapshot s2\nkey j\nwait 200\nsnapshot s3\n"
            + "key k\nkey l\nwait 1000\nsnapshot s4\nkey k\nwait 1000\nsnapshot s5\n"
        let (out, r) = try CarouselBinary.render([dir], script: script)
        #expect(r.status == 0, "\(r.stderr)")
        let seen = try (0...5).map { try Self.colour(out + "/s\($0).png") }
        #expect(seen == [0, 2, 1, 3, 1, 0], "\(seen)")
        let events = try String(contentsOfFile: out + "/events.jsonl", encoding: .utf8)
        let seeks = events.split(separator: "\n").filter { $0.contains("\"video_seek\"") }
        #expect(seeks.count == 3 && seeks[0].contains("\"position_ms\":10400") && seeks[1].contains("\"position_ms\":1000")
                && seeks[2].contains("\"position_ms\":11200"), "\(seeks)")
    }

    /// A seek past the end of a clip under autoplay ends it, and the show moves on; J on
    /// the next picture (not a clip) does nothing.
    @Test func aSeekPastTheEndUnderAutoplayEndsTheClip() throws {
        let dir = try Self.folder(.vp9WebM)
        let (out, r) = try CarouselBinary.render([dir], script: "wait 500\nkey l\nwait 1500\nkey j\nwait 200\nsnapshot s\n",
                                                 options: ["--autoplay", "5", "--start-index", "1"])
        #expect(r.status == 0, "\(r.stderr)")
        let steps = try Self.steps(out)
        #expect(steps.first.map { $0.0 < 1000 && $0.1 == 1 && $0.2 == 2 } == true, "the clip let go at once: \(steps)")
        let events = try String(contentsOfFile: out + "/events.jsonl", encoding: .utf8)
        #expect(events.components(separatedBy: "\"video_seek\"").count - 1 == 1, "\(events)")
    }

    @Test func aPortraitClipPlaysUpright() throws {
        let dir = try Fixtures.temporaryFolder("portrait")
        try ClipFixtures.make(.h264MP4, seconds: [1, 1], width: 320, height: 240, in: dir, name: "p", rotate: 90)
        let (out, r) = try CarouselBinary.render([dir], script: "wait 300\nsnapshot s\n", size: "640x640")
        #expect(r.status == 0, "\(r.stderr)")
        // Upright it is 240 wide and 320 high, fitted: taller than wide. Lime well inside
        // its upright box, the background beside it where a landscape frame would be.
        #expect(try Self.colour(out + "/s.png", 320, 140) == 1)
        #expect(try Self.colour(out + "/s.png", 320, 500) == 1)
        #expect(try BrokenSkipTests.pixel(out + "/s.png", 130, 320) != [0, 255, 0], "nothing lime at the side")
    }
}

