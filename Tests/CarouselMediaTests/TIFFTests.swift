import CarouselCore
@testable import CarouselMedia
import CLCMS
import Foundation
import TestSupport
import Testing

/// TIFF through libtiff, against ImageMagick's files and Little CMS's colours: an Adobe RGB
/// picture through its profile, a CMYK press file through its own (libtiff's naive CMYK
/// conversion showed a FOGRA red as pure red), orientations 5–8 upright, and the kinds
/// SDL_image refused: 16-bit, 16-bit CMYK, BigTIFF, 32-bit float.
@Suite struct TIFFTests {
    static let box = Size(width: 64, height: 64)

    /// `pixels` (`channels` bytes a pixel, 64 x 32) written by ImageMagick as a TIFF with
    /// `options` (a profile assigned, a depth, an orientation, BigTIFF...).
    static func tiff(_ pixels: [UInt8], channels: String, _ options: [String], width: Int = 64, height: Int = 32) throws -> [UInt8] {
        let dir = try MediaFixtures.folder("tiff")
        try Data(pixels).write(to: URL(fileURLWithPath: dir + "/in.raw"))
        let out = dir + "/out.tif"
        try ReferenceEncoders.run(.convert, ["-size", "\(width)x\(height)", "-depth", "8", "\(channels):" + dir + "/in.raw"] + options + [out])
        return [UInt8](try Data(contentsOf: URL(fileURLWithPath: out)))
    }

    /// Left half `a`, right half `b`, 64 x 32.
    static func halves(_ a: [UInt8], _ b: [UInt8]) -> [UInt8] {
        (0..<32).flatMap { _ in (0..<64).flatMap { x in x < 32 ? a : b } }
    }

    @Test func anAdobeRGBPictureIsShownThroughItsProfile() throws {
        let adobe = try LittleCMS.file("AdobeRGB1998.icc")
        let rgb: [UInt8] = [200, 60, 50, 40, 170, 90]
        let file = try Self.tiff(Self.halves(Array(rgb[0..<3]), Array(rgb[3..<6])), channels: "rgb",
                                 ["-profile", LittleCMS.folder + "AdobeRGB1998.icc"])
        let shown = try FittingDecoder().decode(file, name: "adobe.tif", fittingIn: Self.box)
        #expect(shown.width == 64 && shown.height == 32)
        let expected = LittleCMS.transform([rgb[0], rgb[1], rgb[2], 255, rgb[3], rgb[4], rgb[5], 255], from: adobe, to: nil)
        for (n, x) in [8, 48].enumerated() {
            let got = MediaFixtures.pixel(shown, x, 16)
            #expect(MediaFixtures.near(got, (expected[n * 4], expected[n * 4 + 1], expected[n * 4 + 2]), tolerance: 2),
                    "\(got) against Little CMS \(expected[(n * 4)..<(n * 4 + 3)])")
        }
    }

    @Test(arguments: [8, 16])
    func aCMYKPressFileIsShownThroughItsOwnProfile(depth: Int) throws {
        let profile = try LittleCMS.file("default_cmyk.icc", in: "/usr/share/color/icc/ghostscript/")
        let ink: [UInt8] = [10, 200, 180, 30, 160, 20, 40, 0]  // a red, a cyan
        let file = try Self.tiff(Self.halves(Array(ink[0..<4]), Array(ink[4..<8])), channels: "cmyk",
                                 ["-profile", "/usr/share/color/icc/ghostscript/default_cmyk.icc", "-depth", "\(depth)"])
        let shown = try FittingDecoder().decode(file, name: "press.tif", fittingIn: Self.box)
        let expected = LittleCMS.fromCMYK(ink, profile: profile, intent: UInt32(INTENT_PERCEPTUAL))
        for (n, x) in [8, 48].enumerated() {
            let got = MediaFixtures.pixel(shown, x, 16)
            #expect(MediaFixtures.near(got, (expected[n * 4], expected[n * 4 + 1], expected[n * 4 + 2]), tolerance: 5),
                    "\(depth)-bit: \(got) against Little CMS \(expected[(n * 4)..<(n * 4 + 3)])")
        }
    }

    /// Orientations 1–8, set by ImageMagick's -orient (the tag only): upright as EXIF's.
    @Test(arguments: [("TopLeft", 1), ("TopRight", 2), ("BottomRight", 3), ("BottomLeft", 4),
                      ("LeftTop", 5), ("RightTop", 6), ("RightBottom", 7), ("LeftBottom", 8)])
    func everyOrientationIsTurnedUpright(name: String, tag: Int) throws {
        // Four quadrants of their own colours, so any turn or mirror shows.
        let colours: [[UInt8]] = [[220, 30, 30], [30, 200, 40], [30, 40, 220], [240, 240, 40]]
        var pixels: [UInt8] = []
        for y in 0..<32 { for x in 0..<64 { pixels += colours[(y < 16 ? 0 : 2) + (x < 32 ? 0 : 1)] } }
        let file = try Self.tiff(pixels, channels: "rgb", ["-orient", name])
        let shown = try FittingDecoder().decode(file, name: "turned.tif", fittingIn: Size(width: 64, height: 64))
        let stored = PixelImage(width: 64, height: 32, pixels: pixels.enumerated().flatMap { $0.offset % 3 == 2 ? [$0.element, 255] : [$0.element] })
        let upright = stored.oriented(ExifOrientation(rawValue: tag)!)
        #expect(shown.width == upright.width && shown.height == upright.height, "\(name): \(shown.width)x\(shown.height)")
        for (x, y) in [(4, 4), (upright.width - 5, 4), (4, upright.height - 5), (upright.width - 5, upright.height - 5)] {
            let want = MediaFixtures.pixel(upright, x, y)
            #expect(MediaFixtures.near(MediaFixtures.pixel(shown, x, y), (UInt8(want.0), UInt8(want.1), UInt8(want.2)), tolerance: 3), "\(name) at \(x),\(y)")
        }
    }

    /// What SDL_image refused: 16 and 12 bits a sample, BigTIFF, 32-bit float (clamped from 0–1).
    @Test(arguments: [["-depth", "16"], ["-depth", "12"], ["-define", "tiff:format=bigtiff"],
                      ["-depth", "32", "-define", "quantum:format=floating-point", "-compress", "zip"], ["-compress", "lzw"], ["-compress", "zip"]])
    func theKindsThatWereRefusedShow(options: [String]) throws {
        let file = try Self.tiff(Self.halves([200, 60, 50], [40, 170, 90]), channels: "rgb", options)
        let shown = try FittingDecoder().decode(file, name: "kind.tif", fittingIn: Self.box)
        #expect(MediaFixtures.near(MediaFixtures.pixel(shown, 8, 16), (200, 60, 50), tolerance: 2), "\(options)")
        #expect(MediaFixtures.near(MediaFixtures.pixel(shown, 48, 16), (40, 170, 90), tolerance: 2), "\(options)")
    }

    /// A half-transparent picture keeps its colour: libtiff premultiplies alpha, which is
    /// undone (it showed half as dark).
    @Test func alphaIsStraight() throws {
        let file = try Self.tiff(Array((0..<(64 * 32)).flatMap { _ in [UInt8]([200, 60, 50, 128]) }), channels: "rgba", [])
        let shown = try FittingDecoder().decode(file, name: "alpha.tif", fittingIn: Self.box)
        let i = (16 * shown.width + 8) * 4
        #expect(!shown.isOpaque && abs(Int(shown.pixels[i + 3]) - 128) <= 1)
        #expect(MediaFixtures.near(MediaFixtures.pixel(shown, 8, 16), (200, 60, 50), tolerance: 2), "\(MediaFixtures.pixel(shown, 8, 16))")
    }

    /// Cut and damaged copies fail with one line or show; nothing traps (the fuzz target
    /// tiff goes further).
    @Test func damagedCopiesFailInOneLine() throws {
        let file = try Self.tiff(Self.halves([200, 60, 50], [40, 170, 90]), channels: "rgb", ["-compress", "lzw"])
        for n in stride(from: 0, to: file.count, by: max(1, file.count / 200)) {
            do { _ = try FittingDecoder().decode(Array(file.prefix(n)), name: "cut.tif", fittingIn: Self.box) } catch {
                #expect(!error.reason.contains("\n"), "\(error.reason)")
            }
        }
        var random = SystemRandomNumberGenerator()
        for _ in 0..<300 {
            var bytes = file
            for _ in 0..<6 { bytes[Int.random(in: 0..<bytes.count, using: &random)] = UInt8.random(in: 0...255, using: &random) }
            _ = try? FittingDecoder().decode(bytes, name: "damaged.tif", fittingIn: Self.box)
        }
    }
}
