import CarouselCore
import Testing
@testable import CarouselMedia

/// A zoom's detail: a part of the picture decoded on its own (a JPEG cropped while it
/// decodes, other formats whole then cropped) gives the pixels of that part of the whole
/// picture, upright whatever the file's orientation.
@Suite struct PartDecodingTests {
    /// The part of the full-size upright picture, shrunk to `size` the reference way.
    static func reference(_ full: PixelImage, part: Rect, size: (Int, Int)) -> PixelImage {
        let x = Int((part.minX * Double(full.width)).rounded(.down)), y = Int((part.minY * Double(full.height)).rounded(.down))
        let w = Int((part.size.width * Double(full.width)).rounded(.up)), h = Int((part.size.height * Double(full.height)).rounded(.up))
        var p = [UInt8](repeating: 0, count: w * h * 4)
        for r in 0..<h {
            let from = ((y + r) * full.width + x) * 4
            p.replaceSubrange(r * w * 4 ..< (r + 1) * w * 4, with: full.pixels[from ..< from + w * 4])
        }
        return ImageScaler.resize(PixelImage(width: w, height: h, pixels: p), width: size.0, height: size.1)
    }

    static func meanDifference(_ a: PixelImage, _ b: PixelImage) -> Double {
        var sum = 0
        for i in stride(from: 0, to: a.pixels.count, by: 4) {
            for c in 0..<3 { sum += abs(Int(a.pixels[i + c]) - Int(b.pixels[i + c])) }
        }
        return Double(sum) / Double(a.pixels.count / 4 * 3)
    }

    /// Smooth enough that DCT scaling and area averaging agree closely, varied enough that a
    /// part misplaced by a few pixels does not.
    static func picture(_ w: Int, _ h: Int) -> PixelImage {
        var p = [UInt8](repeating: 255, count: w * h * 4)
        for y in 0..<h {
            for x in 0..<w {
                let i = (y * w + x) * 4
                p[i] = UInt8(x * 255 / (w - 1))
                p[i + 1] = UInt8(y * 255 / (h - 1))
                p[i + 2] = UInt8((Double(128) + 120 * Double.sin(Double(x) / 23) * Double.cos(Double(y) / 17)).rounded())
            }
        }
        return PixelImage(width: w, height: h, pixels: p)
    }

    @Test(arguments: [1, 3, 6, 8, 5])
    func aJPEGsPartIsThatPartOfTheWholeUpright(orientation: Int) throws {
        let stored = Self.picture(1600, 1200)
        let jpeg = MediaFixtures.withExif(try ReferenceEncoders.cjpeg(stored, []), orientation: orientation)
        let decoder = FittingDecoder()
        let whole = try decoder.decode(jpeg, name: "p.jpg", fittingIn: Size(width: 1600, height: 1600))
        #expect(max(whole.width, whole.height) == 1600)
        let part = Rect(x: 0.3, y: 0.2, width: 0.25, height: 0.4)
        let image = try decoder.decode(jpeg, name: "p.jpg", part: part, fittingIn: Size(width: 300, height: 300))
        let expected = Self.reference(whole, part: part, size: (image.width, image.height))
        // Upright, the part's shape: 0.25 × 0.4 of the upright picture.
        let ratio = (0.25 * Double(whole.width)) / (0.4 * Double(whole.height))
        #expect(abs(Double(image.width) / Double(image.height) - ratio) < 0.02)
        #expect(max(image.width, image.height) == 300)
        let d = Self.meanDifference(image, expected)
        #expect(d < 3, "mean difference \(d)")
        // The same comparison a few pixels off is far worse: the test sees misplacement.
        let shifted = Self.reference(whole, part: Rect(x: 0.31, y: 0.2, width: 0.25, height: 0.4), size: (image.width, image.height))
        #expect(Self.meanDifference(image, shifted) > d + 2)
        #expect(image.fullSize == nil || image.fullSize == whole.fullSize)
    }

    @Test func aPartIsNeverLargerThanTheFilesOwnPixels() throws {
        let jpeg = try ReferenceEncoders.cjpeg(Self.picture(800, 600), [])
        let image = try FittingDecoder().decode(jpeg, name: "p.jpg", part: Rect(x: 0.5, y: 0.5, width: 0.1, height: 0.1),
                                               fittingIn: Size(width: 1920, height: 1080))
        #expect(image.width == 80 && image.height == 60, "\(image.width)x\(image.height)")
    }

    @Test func aPNGsPartIsCutFromTheWhole() throws {
        let dir = try MediaFixtures.folder("part-png")
        try PNGCodec.write(Self.picture(900, 600), to: dir + "/p.png")
        let png = try ImageFile.read(dir + "/p.png")
        let decoder = FittingDecoder()
        let whole = try decoder.decode(png, name: "p.png", fittingIn: Size(width: 900, height: 900))
        let part = Rect(x: 0.5, y: 0.25, width: 0.5, height: 0.5)
        let image = try decoder.decode(png, name: "p.png", part: part, fittingIn: Size(width: 225, height: 150))
        #expect(image.width == 225 && image.height == 150)
        #expect(Self.meanDifference(image, Self.reference(whole, part: part, size: (225, 150))) < 1)
    }

    @Test func aDamagedFilesPartFailsWithAReason() throws {
        let jpeg = try ReferenceEncoders.cjpeg(Self.picture(800, 600), [])
        #expect(throws: ImageError.self) {
            _ = try FittingDecoder().decode(Array(jpeg.prefix(jpeg.count / 2)), name: "cut.jpg",
                                            part: Rect(x: 0, y: 0.8, width: 0.5, height: 0.2), fittingIn: Size(width: 400, height: 300))
        }
    }
}
