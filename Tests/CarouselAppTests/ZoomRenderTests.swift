import CarouselCore
import CarouselMedia
import Foundation
import TestSupport
import Testing

/// `carousel render` zooming a large JPEG: a pinch to the largest scale shows the picture's
/// own pixels, decoded again in part, which the fitted picture scaled up cannot show; a
/// double tap and the keys zoom and return.
@Suite(.serialized) struct ZoomRenderTests {
    /// A 3000×2000 JPEG of 4-pixel black and red squares: fitted to a slot it is an even
    /// dark red; only its own pixels show the squares.
    static func checkerboard() throws -> String {
        let dir = try Fixtures.temporaryFolder("zoom")
        let (w, h) = (3000, 2000)
        var ppm = Data("P6\n\(w) \(h)\n255\n".utf8)
        var row = [UInt8](repeating: 0, count: w * 3)
        for y in 0..<h {
            for x in 0..<w {
                let v: UInt8 = (x / 4 + y / 4) % 2 == 0 ? 0 : 255
                row[x * 3] = v; row[x * 3 + 1] = 0; row[x * 3 + 2] = 0
            }
            ppm.append(contentsOf: row)
        }
        try ppm.write(to: URL(fileURLWithPath: dir + "/in.ppm"))
        try FileManager.default.createDirectory(atPath: dir + "/pics", withIntermediateDirectories: true)
        let p = Process()
        p.executableURL = try OutsideProgram.cjpeg.url
        p.arguments = ["-quality", "95", "-outfile", dir + "/pics/board.jpg", dir + "/in.ppm"]
        try p.run()
        p.waitUntilExit()
        #expect(p.terminationStatus == 0)
        return dir + "/pics"
    }

    /// Dark-to-light changes of red along the middle row of a snapshot, in its middle half;
    /// and whether every light pixel there is red (not blue: the detail's bytes in order).
    static func transitions(_ path: String) throws -> Int {
        let image = try PNGCodec.decode(try ImageFile.read(path), fittingIn: Size(width: 4096, height: 4096), path: path)
        let y = image.height / 2
        var count = 0, last: Bool? = nil
        for x in (image.width / 4)..<(image.width * 3 / 4) {
            let i = (y * image.width + x) * 4
            let v = Int(image.pixels[i])
            if v > 195 { #expect(image.pixels[i + 2] < 60, "a light pixel that is not red at \(x)") }
            guard v < 60 || v > 195 else { continue }
            let dark = v < 60
            if let l = last, l != dark { count += 1 }
            last = dark
        }
        return count
    }

    @Test func aPinchToTheLargestScaleShowsThePicturesOwnPixels() throws {
        let pics = try Self.checkerboard()
        let script = """
            wait 100
            snapshot fit
            pinch 320 180 20 300
            wait 600
            snapshot zoomed
            double-tap 320 180
            wait 500
            snapshot back
            key plus
            wait 400
            """
        let (out, r) = try CarouselBinary.render([pics], script: script)
        #expect(r.status == 0, "stderr: \(r.stderr)")
        // Fitted, the squares average to grey; at 1:1 they alternate every 4 pixels.
        #expect(try Self.transitions(out + "/fit.png") < 5)
        let zoomed = try Self.transitions(out + "/zoomed.png")
        #expect(zoomed > 60, "\(zoomed) changes along the middle row")
        #expect(try Self.transitions(out + "/back.png") < 5)
        if let problem = Golden.compare(out + "/zoomed.png", to: "zoomed-detail") { Issue.record("zoomed-detail: \(problem)") }
        let events = try EventLines(path: out + "/events.jsonl")
        let zooms = events.ofType("zoom")
        #expect(zooms.map { $0["index"] as? Int } == [0, 0, 0])
        // 3000 px shown in a 346 px picture (the 384×288 box less its border): 8.7× at most.
        let scales = zooms.compactMap { ($0["scale"] as? Double) ?? ($0["scale"] as? Int).map(Double.init) }
        #expect(scales.count == 3 && scales[0] > 8 && scales[1] == 1 && scales[2] == 1.5)
    }
}
