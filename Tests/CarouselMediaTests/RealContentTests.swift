import CarouselCore
import CarouselMedia
import Foundation
import Testing

/// Real pictures from outside the project, as Debian ships them in libjxl-testdata
/// (installed by kiosk/setup for the tests): one photo saved by ImageMagick as every kind of
/// JPEG, and camera raws from raw.pixls.us and photos from wesaturate.com exported twice,
/// as 8-bit sRGB and as 16-bit linear BT.709, BT.2020 or ACEScg with the profile embedded.
@Suite struct RealContentTests {
    static let root = "/usr/share/libjxl-testdata/"

    static func read(_ path: String) throws -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: root + path) else {
            throw ImageError(path: root + path, reason: "is missing: kiosk/setup installs libjxl-testdata for the tests")
        }
        return [UInt8](data)
    }

    static func files(in folder: String, ending suffix: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: root + folder).filter { $0.hasSuffix(suffix) }.sorted()
    }

    /// Mean and largest absolute difference of two RGBA pictures' colour channels.
    static func difference(_ a: PixelImage, _ b: PixelImage) -> (mean: Double, max: Int) {
        guard a.width == b.width, a.height == b.height else { return (.infinity, 255) }
        var total = 0, largest = 0
        for i in stride(from: 0, to: a.pixels.count, by: 4) {
            for c in 0..<3 {
                let d = abs(Int(a.pixels[i + c]) - Int(b.pixels[i + c]))
                total += d
                largest = max(largest, d)
            }
        }
        return (Double(total) / Double(a.width * a.height * 3), largest)
    }

    /// The same photo as 4:2:0, progressive, restart markers, 4:2:2, 4:4:0, 4:4:4 (also
    /// with 1×2 factors), asymmetric, luma subsampled, RGB (no YCbCr) and RGB with blue
    /// subsampled: each shows the photo its PNG shows, at a quarter size (DCT-scaled).
    @Test func everyKindOfJPEGShowsThePhoto() throws {
        let box = Size(width: 567, height: 378)
        let reference = try FittingDecoder().decode(Self.read("jxl/flower/flower.png"), name: "flower.png", fittingIn: box)
        let names = try Self.files(in: "jxl/flower", ending: ".jpg").filter { $0.hasPrefix("flower.png.im_q85_") }
        #expect(names.count == 12, "\(names)")
        for name in names {
            let image = try FittingDecoder().decode(Self.read("jxl/flower/" + name), name: name, fittingIn: box)
            var expected = reference
            if name.contains("gray") {
                // Grey JPEG: BT.709 luma of the photo (ImageMagick's grey), in every channel.
                let p = reference.pixels
                for i in stride(from: 0, to: p.count, by: 4) {
                    let r = Double(p[i]) * 0.2126, g = Double(p[i + 1]) * 0.7152, b = Double(p[i + 2]) * 0.0722
                    let y = UInt8(min(255, (r + g + b).rounded()))
                    (expected.pixels[i], expected.pixels[i + 1], expected.pixels[i + 2]) = (y, y, y)
                }
            }
            let d = Self.difference(image, expected)
            // Quality 85 and subsampled chroma: about one level on average, edges more.
            #expect(d.mean < 1.6 && d.max <= 48, "\(name): \(d)")
        }
    }

    /// A 16-bit linear export shows as its 8-bit sRGB export does: converted from its 16-bit
    /// samples (taken down to 8 bits first, its shadows banded up to 17 levels off).
    @Test func deepLinearExportsShowAsTheirSRGBExports() throws {
        var pairs = 0
        for folder in ["external/raw.pixls/", "external/wesaturate/64px/"] {
            let files = try Self.files(in: folder, ending: ".png")
            for file in files where file.contains("srgb8") {
                let box = Size(width: 64, height: 64)
                let srgb = try FittingDecoder().decode(Self.read(folder + file), name: file, fittingIn: box)
                let stem = file.components(separatedBy: "srgb8")[0]
                for other in files where other.hasPrefix(stem) && other != file {
                    let deep = try FittingDecoder().decode(Self.read(folder + other), name: other, fittingIn: box)
                    let d = Self.difference(deep, srgb)
                    // One bright pixel of the Nikon D300's is 8 levels off: outside sRGB in BT.2020.
                    #expect(d.mean < 0.7 && d.max <= 8, "\(other) against \(file): \(d)")
                    pairs += 1
                }
            }
        }
        #expect(pairs == 16)
    }
}
