import Foundation
import Testing
import CarouselMedia

/// `carousel render` end to end: the built binary renders scripts over fixture images and
/// the frames are compared with committed references; the event logs are checked too.
@Suite(.serialized) struct RenderGoldenTests {
    /// At 640×360 with the default `centered` layout: box 384×288, gap 19, stride 403, border 19.
    static let tour = """
        snapshot rest-first
        # a drag held still before lifting: realign back to item 0
        mouse-down 450 180
        wait 16
        mouse-move 420 180
        wait 16
        mouse-move 380 180
        wait 16
        mouse-move 300 180
        snapshot mid-drag
        wait 200
        mouse-up 300 180
        wait 600
        # short and quick: a swipe to item 1
        drag 450 180 380 180 100
        wait 600
        snapshot after-swipe
        # 250 px slowly, held: realign to the nearest, item 2
        drag 450 180 200 180 400 hold 200
        wait 600
        snapshot after-realign
        key end
        wait 600
        snapshot rest-last
        # past the last item: rubber band, then back
        mouse-down 500 180
        wait 16
        mouse-move 400 180
        wait 16
        mouse-move 300 180
        wait 16
        mouse-move 150 180
        snapshot rubber-band
        wait 200
        mouse-up 150 180
        wait 600
        """

    @Test func tourFramesMatchTheReferences() throws {
        let images = try Fixtures.imageFolder()
        let (out, r) = try CarouselBinary.render([images], script: Self.tour)
        #expect(r.status == 0, "stderr: \(r.stderr)")
        for name in ["rest-first", "mid-drag", "after-swipe", "after-realign", "rest-last", "rubber-band"] {
            if let problem = Golden.compare(out + "/\(name).png", to: name) {
                Issue.record("\(name): \(problem)")
            }
        }
    }

    @Test func tourEventsHoldTheDecisions() throws {
        let images = try Fixtures.imageFolder()
        let (out, r) = try CarouselBinary.render([images], script: Self.tour)
        #expect(r.status == 0)
        let events = try EventLines(path: out + "/events.jsonl")
        #expect(events.ofType("pool").count == 1)
        #expect(events.ofType("pool").first?["slots"] as? Int == 4)
        let releases = events.ofType("release")
        #expect(releases.map { $0["decision"] as? String } == ["realign", "swipe", "realign", "realign"])
        #expect(releases.map { $0["from"] as? Int } == [0, 0, 1, 4])
        #expect(releases.map { $0["to"] as? Int } == [0, 1, 2, 4])
        #expect(releases.map { $0["travel_px"] as? Int } == [-150, -70, -250, -350])
        #expect(events.ofType("settled").map { $0["index"] as? Int } == [0, 1, 2, 4, 4])
        let failed = events.ofType("load_failed")
        #expect(failed.count == 1, "one load_failed for the broken file, however often it is shown")
        #expect((failed.first?["source"] as? String)?.hasSuffix("e-broken.jpg") == true)
        #expect(r.stderr.components(separatedBy: "\n").filter { $0.contains("e-broken.jpg") }.count == 1)
        let times = events.lines.compactMap { $0["t_ms"] as? Int }
        #expect(times == times.sorted(), "virtual time only moves forward")
    }

    @Test(arguments: [
        ("rest-middle", ["--start-index", "2"], "640x360"),
        ("paged", ["--layout", "paged", "--start-index", "1"], "640x360"),
        ("preview", ["--layout", "preview", "--start-index", "1"], "640x360"),
        ("portrait-viewport", ["--start-index", "1"], "360x640"),
        ("wide-no-border", ["--border", "0", "--start-index", "3", "--background", "#203040"], "800x300"),
        ("border-12", ["--border", "12", "--item-width", "50%", "--gap", "10", "--start-index", "0"], "640x360"),
        ("captions-dots-neighbours", ["--captions", "title", "--dots", "--neighbour-scale", "0.85",
                                      "--neighbour-dim", "0.4", "--start-index", "1"], "640x360"),
        // The mosaic: 5 columns in landscape, 3 in portrait; the broken file keeps its place
        // as a square tile with the failure placeholder.
        ("mosaic-landscape", ["--view", "mosaic"], "640x360"),
        ("mosaic-portrait", ["--view", "mosaic", "--tile-gap", "16"], "360x640"),
        // The grid: square tiles, each picture cropped to its square; the broken file too.
        ("grid-landscape", ["--view", "grid", "--columns", "2,3"], "640x360"),
        ("grid-portrait", ["--view", "grid", "--tile-gap", "16", "--corner-radius", "10"], "360x640"),
        // Seeds 001 and 003's looks: rounded corners, a coloured border, the drop shadow.
        ("mosaic-rounded-shadow", ["--view", "mosaic", "--corner-radius", "14", "--border-color", "#ffcc00", "--shadow"], "640x360"),
        ("rounded-border-color", ["--corner-radius", "24", "--border-color", "#3080ffc0", "--shadow", "--start-index", "1",
                                  "--background", "#e0e0e0"], "640x360"),
    ])
    func layoutsMatchTheReferences(name: String, options: [String], size: String) throws {
        let images = try Fixtures.imageFolder()
        let (out, r) = try CarouselBinary.render([images], script: "snapshot \(name)\n", options: options, size: size)
        #expect(r.status == 0, "stderr: \(r.stderr)")
        if let problem = Golden.compare(out + "/\(name).png", to: name) { Issue.record("\(name): \(problem)") }
    }

    /// A background picture covering the screen behind the wall, and a broken one: said
    /// once, the colour instead, the show goes on.
    @Test func aBackgroundPictureCoversTheScreenBehindTheWall() throws {
        let images = try Fixtures.imageFolder()
        let (out, r) = try CarouselBinary.render([images], script: "snapshot mosaic-background\n",
                                                 options: ["--view", "mosaic", "--tile-gap", "24", "--corner-radius", "8",
                                                           "--background-image", images + "/d-panorama.bmp"])
        #expect(r.status == 0, "stderr: \(r.stderr)")
        if let problem = Golden.compare(out + "/mosaic-background.png", to: "mosaic-background") { Issue.record("\(problem)") }
        let broken = try CarouselBinary.render([images], script: "snapshot plain\n",
                                               options: ["--background-image", images + "/e-broken.jpg"])
        #expect(broken.result.status == 0)
        #expect(broken.result.stderr.contains("--background-image \(images)/e-broken.jpg:"), "\(broken.result.stderr)")
        let missing = try CarouselBinary.render([images], script: "snapshot plain\n", options: ["--background-image", "/nonexistent.jpg"])
        #expect(missing.result.status != 0 && missing.result.stderr.contains("--background-image /nonexistent.jpg"))
    }

    /// Near-white pixels (caption text) in the band above the dots.
    static func captionPixels(_ path: String) throws -> Int {
        let image = try SDLImageCodec.decode(path: path)
        var n = 0
        for y in (image.height - 40)..<(image.height - 12) {
            for x in (image.width / 4)..<(image.width * 3 / 4) {
                let i = (y * image.width + x) * 4
                if image.pixels[i] > 235 && image.pixels[i + 1] > 235 && image.pixels[i + 2] > 235 { n += 1 }
            }
        }
        return n
    }

    @Test func theCaptionFadesWhileTheStripMovesAndReturnsAtRest() throws {
        // Box 384 wide, gap 19, stride 403: 140 px of drag is a third of an item.
        let script = """
            snapshot rest
            mouse-down 450 100
            wait 16
            mouse-move 400 100
            wait 16
            mouse-move 310 100
            snapshot moving
            wait 300
            mouse-up 310 100
            wait 600
            snapshot rest-again
            """
        let images = try Fixtures.imageFolder()
        let (out, r) = try CarouselBinary.render([images], script: script, options: ["--captions", "title", "--border", "0"])
        #expect(r.status == 0, "stderr: \(r.stderr)")
        let rest = try Self.captionPixels(out + "/rest.png")
        #expect(rest > 20, "the caption shows at rest: \(rest) white pixels")
        #expect(try Self.captionPixels(out + "/moving.png") == 0, "a third of the way to the next item it is gone")
        #expect(try Self.captionPixels(out + "/rest-again.png") > 20)
    }

    @Test(arguments: [90, 180, 270])
    func aRotatedFrameIsTheLogicalFrameTurned(degrees: Int) throws {
        let images = try Fixtures.imageFolder()
        let options = ["--start-index", "1", "--captions", "title"]
        let turned = try CarouselBinary.render([images], script: "snapshot f\n", options: options + ["--rotate", "\(degrees)"],
                                               size: "640x360")
        let logicalSize = degrees == 180 ? "640x360" : "360x640"
        let plain = try CarouselBinary.render([images], script: "snapshot f\n", options: options, size: logicalSize)
        #expect(turned.result.status == 0 && plain.result.status == 0)
        let a = try SDLImageCodec.decode(path: turned.out + "/f.png"), b = try SDLImageCodec.decode(path: plain.out + "/f.png")
        #expect(a.width == 640 && a.height == 360)
        var differing = 0
        for y in 0..<b.height {
            for x in 0..<b.width {
                // Where logical pixel (x, y) lands on the physical screen, turned clockwise.
                let (px, py): (Int, Int)
                switch degrees {
                case 90: (px, py) = (a.width - 1 - y, x)
                case 180: (px, py) = (a.width - 1 - x, a.height - 1 - y)
                default: (px, py) = (y, a.height - 1 - x)
                }
                let i = (y * b.width + x) * 4, j = (py * a.width + px) * 4
                if (0..<3).contains(where: { abs(Int(a.pixels[j + $0]) - Int(b.pixels[i + $0])) > 8 }) { differing += 1 }
            }
        }
        #expect(Double(differing) < 0.002 * Double(b.width * b.height), "\(differing) pixels differ")
    }

    @Test func resizingWithLargePicturesRefitsThemInsteadOfCrashing() throws {
        // Pictures larger than any box: each is fitted to fill it, so an image fitted for
        // the larger box cannot go into a smaller slot.
        let dir = try Fixtures.temporaryFolder("large")
        for (i, color) in [(200, 40, 40), (40, 160, 60), (40, 60, 200)].enumerated() {
            try Fixtures.bmp(1600, 1200) { x, _ in x < 800 ? (UInt8(color.0), UInt8(color.1), UInt8(color.2)) : (240, 240, 240) }
                .write(to: URL(fileURLWithPath: dir + "/p\(i).bmp"))
        }
        let resized = try CarouselBinary.render([dir], script: "snapshot a\nresize 320 180\nsnapshot b\nresize 640 360\nsnapshot c\n")
        let fresh = try CarouselBinary.render([dir], script: "snapshot b\n", size: "320x180")
        #expect(resized.result.status == 0, "stderr: \(resized.result.stderr)")
        func png(_ out: String, _ name: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: out + "/\(name).png")) }
        #expect(try png(resized.out, "b") == png(fresh.out, "b"), "smaller: as if it had started at that size")
        #expect(try png(resized.out, "c") == png(resized.out, "a"), "back to the first size: the same frame")
    }

    @Test func aLostRenderingDeviceGetsEveryTextureBackAndTheShowGoesOn() throws {
        let images = try Fixtures.imageFolder()
        let options = ["--start-index", "1", "--captions", "title", "--rotate", "90"]
        let withReset = try CarouselBinary.render([images], script: """
            snapshot before
            device-reset
            snapshot after
            key right
            wait 600
            snapshot next
            """, options: options)
        let without = try CarouselBinary.render([images], script: "key right\nwait 600\nsnapshot next\n", options: options)
        #expect(withReset.result.status == 0 && without.result.status == 0, "stderr: \(withReset.result.stderr)")
        func png(_ out: String, _ name: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: out + "/\(name).png")) }
        #expect(try png(withReset.out, "before") == png(withReset.out, "after"), "images, caption and turned frame all back")
        #expect(try png(withReset.out, "next") == png(without.out, "next"), "a step after the reset draws as without it")
        let pools = try EventLines(path: withReset.out + "/events.jsonl").ofType("pool")
        #expect(pools.count == 2, "the pool is rebuilt once")
        #expect(pools.map { $0["slots"] as? Int }.allSatisfy { $0 == pools.first?["slots"] as? Int })
    }

    @Test func twoRunsGiveIdenticalPixels() throws {
        let images = try Fixtures.imageFolder()
        let a = try CarouselBinary.render([images], script: Self.tour)
        let b = try CarouselBinary.render([images], script: Self.tour)
        for name in ["mid-drag", "after-swipe", "rubber-band"] {
            let x = try Data(contentsOf: URL(fileURLWithPath: a.out + "/\(name).png"))
            let y = try Data(contentsOf: URL(fileURLWithPath: b.out + "/\(name).png"))
            #expect(x == y, "\(name) differs between two runs")
        }
        let ea = try String(contentsOfFile: a.out + "/events.jsonl", encoding: .utf8)
        let eb = try String(contentsOfFile: b.out + "/events.jsonl", encoding: .utf8)
        #expect(ea.replacingOccurrences(of: a.out, with: "") == eb.replacingOccurrences(of: b.out, with: ""))
    }

    @Test func malformedScriptNamesTheLine() throws {
        let images = try Fixtures.imageFolder()
        let (_, r) = try CarouselBinary.render([images], script: "snapshot a\nwait 100\nswipe left\n")
        #expect(r.status != 0)
        #expect(r.stderr.contains("line 3: unknown action 'swipe'"), "stderr: \(r.stderr)")
        #expect(r.stderr.split(separator: "\n").count == 1, "one line: \(r.stderr)")
    }

    @Test(arguments: [
        (["--layout", "grid"], "--layout"),
        (["--item-width", "wide"], "--item-width"),
        (["--background", "pink"], "--background"),
        (["--renderer", "vulkan"], "--renderer"),
        (["--ca-file", "/nonexistent/ca.pem"], "--ca-file"),
        (["--refresh", "1"], "--refresh"),
        (["--cache-mb", "0"], "--cache-mb"),
        (["--max-download-mb", "-3"], "--max-download-mb"),
        (["--downloads", "0"], "--downloads"),
        (["--place-names", "/nonexistent/cities15000.txt"], "--place-names"),
    ])
    func badOptionValuesExitNonZeroNamingTheOption(options: [String], option: String) throws {
        let images = try Fixtures.imageFolder()
        let (_, r) = try CarouselBinary.render([images], script: "snapshot a\n", options: options)
        #expect(r.status != 0)
        #expect(r.stderr.contains(option), "stderr: \(r.stderr)")
    }

    @Test func missingSourceIsOneClearLine() throws {
        let (_, r) = try CarouselBinary.render(["/nonexistent/photos"], script: "snapshot a\n")
        #expect(r.status != 0)
        #expect(r.stderr == "carousel: /nonexistent/photos: no such file or folder\n")
    }
}

/// The JSON lines of an event log.
struct EventLines {
    var lines: [[String: Any]]

    init(path: String) throws {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        lines = try text.split(separator: "\n").map {
            try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] ?? [:]
        }
    }

    func ofType(_ type: String) -> [[String: Any]] { lines.filter { $0["type"] as? String == type } }
}
