import CarouselCore
import Testing
@testable import CarouselMedia

@Suite struct BlurredBackdropTests {
    /// Left half white, right half black.
    static func halves(_ w: Int, _ h: Int) -> PixelImage {
        var p = [UInt8](repeating: 255, count: w * h * 4)
        for y in 0..<h { for x in (w / 2)..<w { let i = (y * w + x) * 4; p[i] = 0; p[i + 1] = 0; p[i + 2] = 0 } }
        return PixelImage(width: w, height: h, pixels: p, isOpaque: true)
    }

    @Test func aBackdropIsSmallBlurredAndDarkened() throws {
        let b = try #require(BlurredBackdrop.make(from: Self.halves(1200, 800)))
        #expect(b.width == 64 && b.height == 43)                  // the picture's shape, 64 across
        let row = 20
        let values = (0..<b.width).map { Int(b.pixels[(row * b.width + $0) * 4]) }
        // Darkened: white becomes 55 %.
        #expect(values.max()! <= 141 && values.max()! >= 138)
        // Blurred: the hard edge at 32 spreads over several pixels, monotonically.
        let between = values.filter { $0 > 5 && $0 < 135 }.count
        #expect(between >= 6, "\(values)")
        #expect(zip(values, values.dropFirst()).allSatisfy { $0 >= $1 })
        #expect(b.average.r >= 69 && b.average.r <= 71)           // half white, darkened
        #expect(b.pixels.enumerated().allSatisfy { $0.offset % 4 != 3 || $0.element == 255 })
    }

    @Test func aTinyPictureStillGivesOne() throws {
        let b = try #require(BlurredBackdrop.make(from: PixelImage(width: 1, height: 3, fill: (200, 100, 50, 255))))
        #expect(b.width >= 1 && b.height == 64)
        #expect(b.average == (110, 55, 28))
    }
}
