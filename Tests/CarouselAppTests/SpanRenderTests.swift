import CarouselCore
import CarouselMedia
import Foundation
import Testing

/// `--span`: each panel of a wall draws its part of one canvas, so the panels' frames put
/// side by side, the bezels taken out, are the frame of one large render of the same script.
@Suite struct SpanRenderTests {
    /// (options, the wall, the bezel, a script in canvas coordinates).
    static let cases: [(String, [String], (cols: Int, rows: Int), (x: Int, y: Int), String)] = [
        ("carousel", ["--captions", "title"], (2, 1), (20, 0),
         "snapshot a\ndrag 560 90 260 90 200 touch\nwait 80\nsnapshot b\nwait 900\nsnapshot c\n"),
        ("mosaic", ["--view", "mosaic", "--columns", "2,3"], (2, 2), (10, 16),
         "snapshot a\ndrag 300 300 300 120 300 touch\nwait 50\nsnapshot b\nwait 2000\nsnapshot c\n"),
        ("paged", ["--layout", "paged", "--fill", "color"], (3, 1), (0, 0),
         "snapshot a\nkey right\nwait 150\nsnapshot b\nwait 1000\nsnapshot c\n"),
    ]

    @Test(arguments: 0..<cases.count)
    func thePanelsTogetherAreOneLargeRender(_ index: Int) throws {
        let (name, options, wall, bezel, script) = Self.cases[index]
        let folder = try Fixtures.imageFolder()
        let panel = (w: 240, h: 160)
        let canvas = (w: wall.cols * panel.w + (wall.cols - 1) * bezel.x, h: wall.rows * panel.h + (wall.rows - 1) * bezel.y)
        let whole = try CarouselBinary.render([folder], script: script, options: options, size: "\(canvas.w)x\(canvas.h)")
        #expect(whole.result.status == 0, "\(whole.result.stderr)")
        for row in 0..<wall.rows {
            for column in 0..<wall.cols {
                let part = try CarouselBinary.render([folder], script: script,
                                                     options: options + ["--span", "\(wall.cols)x\(wall.rows):\(column),\(row)",
                                                                         "--bezel", "\(bezel.x),\(bezel.y)"],
                                                     size: "\(panel.w)x\(panel.h)")
                #expect(part.result.status == 0, "\(part.result.stderr)")
                for shot in ["a", "b", "c"] {
                    let big = try SDLImageCodec.decode(path: whole.out + "/\(shot).png")
                    let small = try SDLImageCodec.decode(path: part.out + "/\(shot).png")
                    #expect(small.width == panel.w && small.height == panel.h)
                    let (x0, y0) = (column * (panel.w + bezel.x), row * (panel.h + bezel.y))
                    var differing = 0
                    for y in 0..<panel.h {
                        for x in 0..<panel.w {
                            let a = ((y0 + y) * big.width + x0 + x) * 4, b = (y * small.width + x) * 4
                            if big.pixels[a..<a + 3] != small.pixels[b..<b + 3] { differing += 1 }
                        }
                    }
                    #expect(differing == 0, "\(name) panel \(column),\(row) frame \(shot): \(differing) pixels differ from the large render's")
                }
            }
        }
    }

    @Test func badSpansAreRefusedWithOneLine() throws {
        let folder = try Fixtures.imageFolder()
        for (args, said) in [(["--span", "2x2"], "--span must be COLSxROWS:C,R"),
                             (["--span", "2x1:2,0"], "--span must be COLSxROWS:C,R"),
                             (["--bezel", "10"], "--bezel is for --span"),
                             (["--span", "2x1:0,0", "--bezel", "abc"], "--bezel must be PX or PX,PX")] {
            let r = try CarouselBinary.run([folder] + args, environment: ["SDL_VIDEODRIVER": "dummy"])
            #expect(r.status == 64 && r.stderr.contains(said), "\(args): \(r.stderr)")
        }
    }
}
