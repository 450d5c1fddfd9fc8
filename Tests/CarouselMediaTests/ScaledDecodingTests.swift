import CarouselCore
import CWebP
import Foundation
import Testing
@testable import CarouselMedia
import CarouselBench

/// PNG and WebP are fitted while they decode, never built at full size: the pixels must be
/// those of decoding at full size and shrinking afterwards.
@Suite struct ScaledDecodingTests {
    /// (source width, height, box width, height): landscape and portrait, shrinking by
    /// whole and odd factors, and enlarging.
    static let cases: [(Int, Int, Int, Int)] = [
        (640, 480, 200, 150), (480, 640, 200, 150), (1001, 333, 300, 300), (333, 1001, 300, 300),
        (97, 61, 40, 40), (50, 30, 200, 150),
    ]

    static func box(_ c: (Int, Int, Int, Int)) -> Size { Size(width: Double(c.2), height: Double(c.3)) }

    /// Full size, then `ImageScaler` to the fitted size.
    static func reference(_ full: PixelImage, in box: Size) -> PixelImage {
        let fitted = AspectFit.size(of: full.size, in: box)
        return ImageScaler.resize(full, width: Int(fitted.width), height: Int(fitted.height))
    }

    /// The largest difference of any channel, the mean over all, and the share of channels
    /// more than 3 levels apart.
    static func difference(_ a: PixelImage, _ b: PixelImage) -> (max: Int, mean: Double, beyond3: Double) {
        var worst = 0, sum = 0, beyond = 0
        for i in 0..<a.pixels.count {
            let d = abs(Int(a.pixels[i]) - Int(b.pixels[i]))
            worst = max(worst, d)
            sum += d
            if d > 3 { beyond += 1 }
        }
        let n = Double(a.pixels.count)
        return (worst, Double(sum) / n, Double(beyond) / n)
    }

    @Test(arguments: cases)
    func pngRowByRowIsFullSizeThenShrunk(_ c: (Int, Int, Int, Int)) throws {
        var photo = MediaFixtures.noisy(c.0, c.1)
        for i in stride(from: 3, to: photo.pixels.count, by: 28) { photo.pixels[i] = UInt8(i % 256) }  // some alpha
        let path = try MediaFixtures.folder("png") + "/p.png"
        try PNGCodec.write(photo, to: path)
        let bytes = try ImageFile.read(path)
        let scaled = try PNGCodec.decode(bytes, fittingIn: Self.box(c), path: path)
        let full = try PNGCodec.decode(bytes, fittingIn: Size(width: Double(c.0), height: Double(c.1)), path: path)
        #expect(full.width == c.0 && full.height == c.1)
        let expected = Self.reference(full, in: Self.box(c))
        #expect(scaled.width == expected.width && scaled.height == expected.height)
        #expect(scaled.pixels == expected.pixels, "differs: \(Self.difference(scaled, expected))")
    }

    @Test(arguments: cases)
    func webpScaledWhileDecodingIsFullSizeThenShrunk(_ c: (Int, Int, Int, Int)) throws {
        let photo = SyntheticPhotos.picture(width: c.0, height: c.1, seed: 7)
        var output: UnsafeMutablePointer<UInt8>? = nil
        let size = photo.pixels.withUnsafeBufferPointer {
            WebPEncodeRGBA($0.baseAddress, Int32(c.0), Int32(c.1), Int32(c.0 * 4), 90, &output)
        }
        defer { WebPFree(output) }
        let bytes = Array(UnsafeBufferPointer(start: output, count: size))
        let scaled = try WebPCodec.decode(bytes, fittingIn: Self.box(c), path: "w.webp")
        let full = try WebPCodec.decode(bytes, fittingIn: Size(width: Double(c.0), height: Double(c.1)), path: "w.webp")
        let expected = Self.reference(full, in: Self.box(c))
        #expect(scaled.width == expected.width && scaled.height == expected.height)
        // libwebp shrinks the Y, U and V planes before turning them into RGB (U and V at half
        // size), so a colour edge comes out a little different: measured up to 18 levels on
        // single channels, 0.3 to 1.0 on average, and at most 7 % of channels more than 3
        // levels apart on these photo-like pictures. A shift, flip or wrong size is far more.
        let d = Self.difference(scaled, expected)
        #expect(d.mean < 1.5 && d.beyond3 < 0.1, "differs by up to \(d.max), \(d.mean) on average, \(d.beyond3 * 100) % by more than 3")
    }
}
