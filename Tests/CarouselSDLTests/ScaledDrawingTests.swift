@testable import CarouselSDL
import CarouselCore
import Testing

/// A picture drawn scaled and partly off the screen, by the software renderer in
/// bands: every screen pixel shows a texture pixel it lies on, none is left blank.
@Suite(.serialized) @MainActor struct ScaledDrawingTests {
    /// Texture pixel (x, y) has red x × 12, green y × 16, blue 77: each one told apart.
    static func texel(_ x: Int, _ y: Int) -> (UInt8, UInt8, UInt8) { (UInt8(x * 12), UInt8(y * 16), 77) }

    @Test(arguments: [(-13.4, -9.7, 7.3), (-1000.6, -700.2, 61.7), (40.3, 20.6, 4.4), (-2.5, 4.0, 0.6)])
    func aScaledPictureShowsItsOwnPixelsEverywhere(x: Double, y: Double, scale: Double) throws {
        let (screenW, screenH) = (97, 61)
        let screen = try SoftwareScreen(width: screenW, height: screenH)
        let renderer = screen.renderer
        #expect(renderer.isSoftware)
        let (w, h) = (20, 15)
        var pixels = [UInt8]()
        for ty in 0..<h { for tx in 0..<w { let c = Self.texel(tx, ty); pixels += [c.0, c.1, c.2, 255] } }
        let texture = try renderer.makeTexture(width: w, height: h)
        try texture.update(with: PixelImage(width: w, height: h, pixels: pixels, isOpaque: true))
        texture.setBlending(false)
        renderer.clear(Color(r: 0, g: 0, b: 255))
        let destination = Rect(x: x, y: y, width: Double(w) * scale, height: Double(h) * scale)
        renderer.draw(texture, source: (w, h), in: destination)
        renderer.finish()
        let frame = try renderer.readPixels(width: screenW, height: screenH)
        var wrong: [String] = []
        for py in 0..<screenH {
            for px in 0..<screenW {
                let i = (py * screenW + px) * 4
                let got = (frame.pixels[i], frame.pixels[i + 1], frame.pixels[i + 2])
                // The texture pixels this screen pixel overlaps (none: the background).
                let xs = Int(((Double(px) - x) / scale).rounded(.down))...Int(((Double(px) + 0.999 - x) / scale).rounded(.down))
                let ys = Int(((Double(py) - y) / scale).rounded(.down))...Int(((Double(py) + 0.999 - y) / scale).rounded(.down))
                let candidates = xs.flatMap { tx in ys.map { ty in (tx, ty) } }.filter { $0.0 >= 0 && $0.0 < w && $0.1 >= 0 && $0.1 < h }
                // A screen pixel only partly on the picture may show either.
                let inside = Double(px) >= x && Double(px + 1) <= x + destination.size.width
                    && Double(py) >= y && Double(py + 1) <= y + destination.size.height
                let ok = candidates.contains { Self.texel($0.0, $0.1) == got } || (!inside && got == (0, 0, 255))
                if !ok { wrong.append("(\(px),\(py)) \(got)") }
            }
        }
        #expect(wrong.isEmpty, "\(wrong.count) pixels wrong, first: \(wrong.prefix(5))")
        withExtendedLifetime((screen, texture)) {}
    }

    /// The bands along one axis cover the screen pixels asked, in order, without a gap, and
    /// each texture pixel lands where its place says, within a pixel.
    @Test func bandsCoverTheScreenPixelsInOrder() {
        var random = SeededRandom(seed: 11)
        for _ in 0..<2000 {
            let count = 1 + Int(random.next() % 50)
            let step = 0.3 + Double(random.next() % 10_000) / 100
            let start = -Double(random.next() % 5000) / 10
            let end = start + Double(count) * step
            let from = max(0, Int(start.rounded(.down)))
            let to = min(400, Int(end.rounded(.down)))
            guard to > from else { continue }
            let bands = SDLRenderer.bands(count: count, start: start, step: step, from: from, to: to)
            #expect(bands.first?.pixels.lowerBound == from && bands.last?.pixels.upperBound == to)
            for (a, b) in zip(bands, bands.dropFirst()) {
                #expect(a.pixels.upperBound == b.pixels.lowerBound && a.texels.upperBound == b.texels.lowerBound)
            }
            for band in bands {
                #expect(band.texels.lowerBound >= 0 && band.texels.upperBound <= count && !band.texels.isEmpty && !band.pixels.isEmpty)
                // Where the band starts is within a pixel of where its first texture pixel is.
                let ideal = start + Double(band.texels.lowerBound) * step
                #expect(Double(band.pixels.lowerBound) >= ideal - 1 && Double(band.pixels.lowerBound) <= max(ideal, Double(from)) + 1)
            }
        }
    }
}
