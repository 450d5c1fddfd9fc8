import CarouselCore
import CarouselMedia
import Foundation
import Testing

/// `--view mosaic` through `carousel render`: the wall, a tap that opens the carousel on the
/// tile, and the way back (the script's `key back`, and the button in the corner).
@Suite(.serialized) struct WallRenderTests {
    /// The first tile's centre at 640×360: five columns of 116 px from x = 10.
    static let tour = """
        snapshot wall
        tap 68 40 mouse
        wait 500
        snapshot opened
        key right
        wait 600
        key back
        wait 300
        snapshot back
        """

    /// Up and Down scroll the vertical wall as Right and Left do; the carousel, which moves
    /// sideways, ignores them.
    @Test func upAndDownStepTheWallNotTheCarousel() throws {
        // Six times the fixtures: a wall taller than the screen.
        let fixtures = try Fixtures.imageFolder()
        let images = try Fixtures.temporaryFolder("tall-wall")
        for (n, name) in try FileManager.default.contentsOfDirectory(atPath: fixtures).sorted().enumerated() {
            for copy in 0..<6 { try FileManager.default.copyItem(atPath: fixtures + "/" + name, toPath: images + "/\(copy)-\(n)-" + name) }
        }
        let script = "key down\nwait 600\nsnapshot down\nkey up\nwait 600\nsnapshot up\n"
        let arrows = try CarouselBinary.render([images], script: script, options: ["--view", "mosaic"])
        let sideways = try CarouselBinary.render([images], script: script.replacingOccurrences(of: "key down", with: "key right")
                                                    .replacingOccurrences(of: "key up", with: "key left"), options: ["--view", "mosaic"])
        let start = try CarouselBinary.render([images], script: "snapshot start\n", options: ["--view", "mosaic"])
        for r in [arrows, sideways, start] { #expect(r.result.status == 0, "stderr: \(r.result.stderr)") }
        let down = FileManager.default.contents(atPath: arrows.out + "/down.png")
        #expect(down != nil && down == FileManager.default.contents(atPath: sideways.out + "/down.png"), "Down as Right")
        #expect(down != FileManager.default.contents(atPath: start.out + "/start.png"), "the wall moved")
        let up = FileManager.default.contents(atPath: arrows.out + "/up.png")
        #expect(up != nil && up == FileManager.default.contents(atPath: sideways.out + "/up.png"), "Up as Left")
        // The carousel: Down does nothing.
        let carousel = try CarouselBinary.render([images], script: "key down\nwait 600\nsnapshot down\n")
        let still = try CarouselBinary.render([images], script: "wait 600\nsnapshot down\n")
        let moved = FileManager.default.contents(atPath: carousel.out + "/down.png")
        #expect(moved != nil && moved == FileManager.default.contents(atPath: still.out + "/down.png"))
    }

    /// `--view grid` is a wall like the mosaic: three columns of 200 px squares at 640×360,
    /// so (320, 110) is on the first row's second tile, item 1; back returns to the grid as
    /// it was (the tile was wholly on screen, nothing to scroll).
    @Test func theGridOpensTheCarouselOnATapAndBackReturnsToIt() throws {
        let images = try Fixtures.imageFolder()
        let script = "tap 320 110 mouse\nwait 500\nkey back\nwait 300\nsnapshot back\n"
        let (out, r) = try CarouselBinary.render([images], script: script, options: ["--view", "grid", "--columns", "2,3"])
        #expect(r.status == 0, "stderr: \(r.stderr)")
        let events = try EventLines(path: out + "/events.jsonl")
        #expect(events.ofType("tap").map { $0["index"] as? Int } == [1])
        let views = events.ofType("view").map { "\($0["mode"] ?? "")@\($0["index"] ?? "")" }
        #expect(views == ["carousel@1", "grid@1"], "\(views)")
        let start = try CarouselBinary.render([images], script: "snapshot back\n", options: ["--view", "grid", "--columns", "2,3"])
        #expect(FileManager.default.contents(atPath: out + "/back.png") == FileManager.default.contents(atPath: start.out + "/back.png"),
                "back on the grid as it was")
    }

    @Test func aTapOpensTheCarouselOnTheTileAndBackReturnsToTheWall() throws {
        let images = try Fixtures.imageFolder()
        let (out, r) = try CarouselBinary.render([images], script: Self.tour, options: ["--view", "mosaic"])
        #expect(r.status == 0, "stderr: \(r.stderr)")
        let events = try EventLines(path: out + "/events.jsonl")
        #expect(events.ofType("tap").first?["index"] as? Int == 0)
        let views = events.ofType("view").map { "\($0["mode"] ?? "")@\($0["index"] ?? "")" }
        #expect(views == ["carousel@0", "mosaic@1"], "\(views)")
        // Opened: the carousel centred on the tapped picture, as `--start-index 0` draws it,
        // with the back button over it.
        let plain = try CarouselBinary.render([images], script: "snapshot plain\n")
        let opened = try SDLImageCodec.decode(path: out + "/opened.png")
        let carousel = try SDLImageCodec.decode(path: plain.out + "/plain.png")
        #expect(Self.share(of: opened, differingFrom: carousel, outside: (0, 0, 100, 100)) < 0.002)
        #expect(Self.share(of: opened, differingFrom: carousel, outside: nil) > 0.005, "the button is drawn")
        // Back: the wall again, as it was.
        let wall = try SDLImageCodec.decode(path: out + "/wall.png")
        let back = try SDLImageCodec.decode(path: out + "/back.png")
        #expect(Self.share(of: back, differingFrom: wall, outside: nil) < 0.002)
        #expect(Self.share(of: wall, differingFrom: carousel, outside: nil) > 0.2, "the wall is not the carousel")
    }

    /// The tapped tile grows into the carousel's picture over a quarter of a second, the
    /// wall darkening behind it, and shrinks back onto its tile on the way back.
    @Test func theTileGrowsIntoTheCarouselAndShrinksBack() throws {
        let images = try Fixtures.imageFolder()
        let script = "tap 68 40 mouse\nwait 83\nsnapshot morph-open\nwait 500\nkey back\nwait 116\nsnapshot morph-close\n"
        let (out, r) = try CarouselBinary.render([images], script: script, options: ["--view", "mosaic"])
        #expect(r.status == 0, "stderr: \(r.stderr)")
        for name in ["morph-open", "morph-close"] {
            if let problem = Golden.compare(out + "/\(name).png", to: name) { Issue.record("\(name): \(problem)") }
        }
        let wall = try SDLImageCodec.decode(path: try CarouselBinary.render([images], script: "snapshot wall\n",
                                                                             options: ["--view", "mosaic"]).out + "/wall.png")
        let plain = try SDLImageCodec.decode(path: try CarouselBinary.render([images], script: "snapshot plain\n").out + "/plain.png")
        for name in ["morph-open", "morph-close"] {
            let frame = try SDLImageCodec.decode(path: out + "/\(name).png")
            #expect(Self.share(of: frame, differingFrom: wall, outside: nil) > 0.05, "\(name) is not the wall")
            #expect(Self.share(of: frame, differingFrom: plain, outside: nil) > 0.05, "\(name) is not the carousel")
        }
    }

    @Test func aSecondTapOpensTheCarouselKeptFromTheFirstOnItsOwnTile() throws {
        let images = try Fixtures.imageFolder()
        // Tile 0, back, then tile 2 (the third column): the carousel closed first opens again.
        let script = "tap 68 40 mouse\nwait 500\nkey back\nwait 100\ntap 320 40 mouse\nwait 500\nsnapshot again\n"
        let (out, r) = try CarouselBinary.render([images], script: script, options: ["--view", "mosaic"])
        #expect(r.status == 0, "stderr: \(r.stderr)")
        let views = try EventLines(path: out + "/events.jsonl").ofType("view").map { "\($0["mode"] ?? "")@\($0["index"] ?? "")" }
        #expect(views == ["carousel@0", "mosaic@0", "carousel@2"], "\(views)")
        let plain = try CarouselBinary.render([images], script: "snapshot plain\n", options: ["--start-index", "2"])
        let again = try SDLImageCodec.decode(path: out + "/again.png")
        let carousel = try SDLImageCodec.decode(path: plain.out + "/plain.png")
        #expect(Self.share(of: again, differingFrom: carousel, outside: (0, 0, 100, 100)) < 0.002)
    }

    @Test func theButtonInTheCornerGoesBackAndEscapeOnTheWallEndsTheScript() throws {
        let images = try Fixtures.imageFolder()
        let script = """
            tap 68 40 mouse
            wait 500
            tap 40 40 mouse
            wait 100
            snapshot back
            """
        let (out, r) = try CarouselBinary.render([images], script: script, options: ["--view", "mosaic"])
        #expect(r.status == 0, "stderr: \(r.stderr)")
        let views = try EventLines(path: out + "/events.jsonl").ofType("view").map { $0["mode"] as? String ?? "" }
        #expect(views == ["carousel", "mosaic"], "\(views)")
        #expect(try EventLines(path: out + "/events.jsonl").ofType("tap").count == 1, "the button's tap is not the carousel's")
    }

    @Test func idleHomeTakesAnOpenedPictureBackToTheWall() throws {
        let images = try Fixtures.imageFolder()
        let script = """
            tap 68 40 mouse
            wait 2000
            snapshot still-open
            wait 2000
            snapshot back
            """
        let (out, r) = try CarouselBinary.render([images], script: script, options: ["--view", "mosaic", "--idle-home", "3"])
        #expect(r.status == 0, "stderr: \(r.stderr)")
        let views = try EventLines(path: out + "/events.jsonl").ofType("view")
        #expect(views.map { $0["mode"] as? String ?? "" } == ["carousel", "mosaic"], "\(views)")
        // Back 3 s after the tap's lift (t 50 ms), not at the next snapshot.
        #expect(views.last?["t_ms"] as? Int == 3050, "\(views)")
        #expect(try EventLines(path: out + "/events.jsonl").ofType("autoplay").isEmpty, "the carousel did not slide home first")
    }

    @Test func anEmptyWallSaysSo() throws {
        let empty = try Fixtures.temporaryFolder("empty-wall")
        let (out, r) = try CarouselBinary.render([empty], script: "snapshot empty\n", options: ["--view", "mosaic"])
        #expect(r.status == 0, "stderr: \(r.stderr)")
        let image = try SDLImageCodec.decode(path: out + "/empty.png")
        let light = stride(from: 0, to: image.pixels.count, by: 4).filter { image.pixels[$0] > 150 }.count
        #expect(light > 50, "the message is drawn: \(light) light pixels (a bare background has none)")
    }

    /// The share of pixels that differ by more than 6 in a channel, leaving out a rectangle.
    static func share(of a: PixelImage, differingFrom b: PixelImage, outside r: (Int, Int, Int, Int)?) -> Double {
        guard a.width == b.width, a.height == b.height else { return 1 }
        var differing = 0, counted = 0
        for y in 0..<a.height {
            for x in 0..<a.width {
                if let r, x >= r.0, x < r.0 + r.2, y >= r.1, y < r.1 + r.3 { continue }
                counted += 1
                let i = (y * a.width + x) * 4
                if (0..<3).contains(where: { abs(Int(a.pixels[i + $0]) - Int(b.pixels[i + $0])) > 6 }) { differing += 1 }
            }
        }
        return Double(differing) / Double(max(counted, 1))
    }
}
