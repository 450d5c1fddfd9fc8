import CarouselCore
import CarouselMedia
import CTurboJPEG
import Foundation
import TestSupport
import Testing
import CWebP
import CarouselSources

/// Every picture people really have: phone HEIC, AVIF, JPEG XL, CMYK and odd JPEGs, deep
/// PNM. Each made by the format's reference encoder and decoded to the right size, shape
/// and colours.
@Suite struct EveryFormatTests {
    /// 64 × 32 quadrants, big enough that lossy coding keeps each colour near its own.
    static let picture = ImageScaler.resize(MediaFixtures.quadrants, width: 128, height: 64)
    static let box = Size(width: 64, height: 64)

    /// Each quadrant's centre in a 64 × 32 fitted picture is within `tolerance` of the source.
    static func showsQuadrants(_ image: PixelImage, tolerance: Int = 24) -> Bool {
        guard image.width == 64, image.height == 32 else { return false }
        return [(true, true), (false, true), (true, false), (false, false)].allSatisfy { left, top in
            MediaFixtures.near(MediaFixtures.pixel(image, left ? 16 : 48, top ? 8 : 24),
                               MediaFixtures.colour(left: left, top: top), tolerance: tolerance)
        }
    }

    @Test(arguments: [(OutsideProgram.heifEnc, "heic"), (.avifenc, "avif"), (.cjxl, "jxl")])
    func phoneAndWebFormatsDecodeToTheirSizeAndColours(tool: OutsideProgram, ext: String) throws {
        let bytes = try ReferenceEncoders.encode(Self.picture, with: tool, ext: ext)
        let header = ImageHeader.read(bytes)
        #expect(header.width == 128 && header.height == 64, "the header gives the size without decoding: \(header)")
        #expect(header.format == (ext == "heic" ? .heif : ext == "avif" ? .avif : .jxl))
        let image = try FittingDecoder().decode(bytes, name: "p." + ext, fittingIn: Self.box)
        #expect(Self.showsQuadrants(image), "\(ext): \(MediaFixtures.pixel(image, 16, 8)) …")
        #expect(image.isOpaque)
    }

    /// A misnamed file is decoded by what it is, not by its name.
    @Test func aHEICNamedJPGStillShows() throws {
        let bytes = try ReferenceEncoders.encode(Self.picture, with: .heifEnc, ext: "heic")
        let dir = try MediaFixtures.folder("misnamed")
        try MediaFixtures.write(bytes, to: dir + "/IMG_0001.jpg")
        let image = try FittingDecoder().decode(ImageSource(path: dir + "/IMG_0001.jpg"), fittingIn: Self.box)
        #expect(Self.showsQuadrants(image))
    }

    @Test func tenBitAVIFComesDownToEightBits() throws {
        let bytes = try ReferenceEncoders.encode(Self.picture, with: .avifenc, ext: "avif", extra: ["--depth", "10"])
        let image = try FittingDecoder().decode(bytes, name: "deep.avif", fittingIn: Self.box)
        #expect(Self.showsQuadrants(image))
    }

    @Test func theExtensionsArePictures() {
        for ext in ["heic", "heif", "hif", "avif", "jxl"] { #expect(SourceScanner.imageExtensions.contains(ext)) }
    }

    /// What TurboJPEG's wrapper refused: 4:4:0, 4:1:1 and arithmetic coding; and grey.
    @Test(arguments: [["-sample", "1x2"], ["-sample", "4x1"], ["-sample", "2x1,1x2,1x1"], ["-arithmetic"], ["-progressive"]])
    func jpegsTheWrapperRefusedDecode(arguments: [String]) throws {
        let jpeg = try ReferenceEncoders.cjpeg(Self.picture, arguments)
        let image = try FittingDecoder().decode(jpeg, name: "odd.jpg", fittingIn: Self.box)
        #expect(Self.showsQuadrants(image), "\(arguments)")
    }

    /// A 12-bit JPEG (medical and scientific cameras): Debian 12's libjpeg-turbo 2.1 reads
    /// only 8-bit ones, so it is refused with one line that says why, not as "corrupt".
    @Test func twelveBitJPEGSaysWhy() throws {
        var jpeg = try ReferenceEncoders.cjpeg(Self.picture, [])
        let sof = try #require(jpeg.indices.first { jpeg[$0] == 0xFF && jpeg[$0 + 1] == 0xC0 })
        jpeg[sof + 4] = 12  // the frame's sample precision
        do {
            _ = try FittingDecoder().decode(jpeg, name: "deep.jpg", fittingIn: Self.box)
            Issue.record("a 12-bit JPEG decoded with an 8-bit libjpeg-turbo")
        } catch {
            #expect(error.reason.contains("12-bit JPEG"), "\(error.reason)")
        }
    }

    @Test func greyJPEGIsGrey() throws {
        let jpeg = try ReferenceEncoders.cjpeg(Self.picture, ["-grayscale"])
        let image = try FittingDecoder().decode(jpeg, name: "grey.jpg", fittingIn: Self.box)
        let p = MediaFixtures.pixel(image, 16, 8)
        #expect(p.0 == p.1 && p.1 == p.2 && p.0 > 40 && p.0 < 140, "\(p)")
    }

    /// Adobe's inverted CMYK, as Photoshop writes it: shown as browsers show it.
    @Test func cmykJPEGIsConvertedToRGB() throws {
        let ink: (UInt8, UInt8, UInt8, UInt8) = (0, 200, 180, 30)  // a red
        let jpeg = ReferenceEncoders.cmykJPEG(width: 48, height: 32, ink: ink)
        #expect(!jpeg.isEmpty)
        let image = try FittingDecoder().decode(jpeg, name: "cmyk.jpg", fittingIn: Self.box)
        #expect(image.width == 64 && image.height == 43)
        let k = 255 - Int(ink.3)
        let expected = (UInt8((255 - Int(ink.0)) * k / 255), UInt8((255 - Int(ink.1)) * k / 255), UInt8((255 - Int(ink.2)) * k / 255))
        #expect(MediaFixtures.near(MediaFixtures.pixel(image, 32, 20), expected, tolerance: 4),
                "\(MediaFixtures.pixel(image, 32, 20)) against \(expected)")
    }

    @Test func sixteenBitPNMScalesItsSamples() throws {
        // P6 with maxval 65535: (65535, 32768, 0) is (255, 128, 0); P5 with maxval 1023.
        var p6 = Array("P6\n# a comment\n2 1\n65535\n".utf8)
        p6 += [0xFF, 0xFF, 0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xFF, 0xFF]
        let colour = try FittingDecoder().decode(p6, name: "deep.ppm", fittingIn: Size(width: 2, height: 1))
        #expect(MediaFixtures.pixel(colour, 0, 0) == (255, 128, 0))
        #expect(MediaFixtures.pixel(colour, 1, 0) == (0, 0, 255))
        let p5 = Array("P5 2 1 1023\n".utf8) + [0x03, 0xFF, 0x02, 0x00]
        let grey = try FittingDecoder().decode(p5, name: "deep.pgm", fittingIn: Size(width: 2, height: 1))
        #expect(MediaFixtures.pixel(grey, 0, 0) == (255, 255, 255))
        #expect(MediaFixtures.pixel(grey, 1, 0) == (128, 128, 128))
        let plain = Array("P3 1 1 15\n15 0 7\n".utf8)
        #expect(MediaFixtures.pixel(try FittingDecoder().decode(plain, name: "p.ppm", fittingIn: Size(width: 1, height: 1)), 0, 0) == (255, 0, 119))
        let cut = Array("P6 4 4 65535\n".utf8) + [1, 2, 3]
        #expect(throws: ImageError.self) { try FittingDecoder().decode(cut, name: "cut.ppm", fittingIn: Self.box) }
    }

    /// `image`, the 32x64 fit of `picture` turned a quarter clockwise: the stored
    /// bottom-left quarter comes to the top-left, and so on.
    static func expectTurnedClockwise(_ image: PixelImage, _ label: String) {
        let corners = [((8, 16), (true, false)), ((24, 16), (true, true)), ((8, 48), (false, false)), ((24, 48), (false, true))]
        for ((x, y), (left, top)) in corners {
            #expect(MediaFixtures.near(MediaFixtures.pixel(image, x, y), MediaFixtures.colour(left: left, top: top), tolerance: 24),
                    "\(label) at \(x),\(y): \(MediaFixtures.pixel(image, x, y))")
        }
    }

    /// A WebP from a phone or an editor carries its orientation in an `EXIF` chunk after
    /// the picture (with or without an `Exif\0\0` before its TIFF header): turned upright
    /// once, fitted upright, and the wall's size reader gives the upright shape too.
    @Test(arguments: [false, true])
    func aWebPIsTurnedUprightByItsExif(exifPrefix: Bool) throws {
        var output: UnsafeMutablePointer<UInt8>? = nil
        let size = Self.picture.pixels.withUnsafeBufferPointer {
            WebPEncodeRGBA($0.baseAddress, 128, 64, 128 * 4, 95, &output)
        }
        defer { WebPFree(output) }
        let simple = Array(UnsafeBufferPointer(start: output, count: size))
        func le(_ v: Int, _ n: Int) -> [UInt8] { (0..<n).map { UInt8(truncatingIfNeeded: v >> (8 * $0)) } }
        // IFD0 of one entry: orientation 6 (turn a quarter clockwise to show).
        let tiff = Array("II".utf8) + le(42, 2) + le(8, 4) + le(1, 2) + le(0x0112, 2) + le(3, 2) + le(1, 4) + le(6, 4) + le(0, 4)
        let exif = (exifPrefix ? Array("Exif\0\0".utf8) : []) + tiff
        let vp8x = Array("VP8X".utf8) + le(10, 4) + [0x08, 0, 0, 0] + le(127, 3) + le(63, 3)
        var body = Array("WEBP".utf8) + vp8x + Array(simple[12...]) + Array("EXIF".utf8) + le(exif.count, 4) + exif
        if exif.count % 2 == 1 { body.append(0) }
        let bytes = Array("RIFF".utf8) + le(body.count, 4) + body
        #expect(ExifOrientation.read(webp: bytes) == .rotatedClockwise)
        let image = try FittingDecoder().decode(bytes, name: "turned.webp", fittingIn: Self.box)
        #expect(image.width == 32 && image.height == 64, "\(image.width)x\(image.height)")
        guard image.width == 32, image.height == 64 else { return }
        Self.expectTurnedClockwise(image, "webp")
        let dir = try MediaFixtures.folder("webp-exif")
        try MediaFixtures.write(bytes, to: dir + "/turned.webp")
        #expect(SizeReader.aspect(of: dir + "/turned.webp") == 2, "the wall's tile is upright")
        #expect(ExifOrientation.read(webp: simple) == .up)
    }

    /// Netpbm allows a comment anywhere before the raster, touching a number too: it ends
    /// the number, and the line break ending it is the whitespace after it (gdk-pixbuf's
    /// `valid.1.ppm` has one after its height, and one after the maximum value).
    @Test func aCommentTouchingANumberEndsIt() throws {
        let p6 = Array("P6\n2 1#c\n255\n".utf8) + [255, 0, 0, 0, 0, 255]
        let image = try FittingDecoder().decode(p6, name: "touching.ppm", fittingIn: Size(width: 2, height: 1))
        #expect(image.width == 2 && image.height == 1)
        #expect(MediaFixtures.pixel(image, 0, 0) == (255, 0, 0) && MediaFixtures.pixel(image, 1, 0) == (0, 0, 255))
        // After the maximum value: the comment's line break is the one whitespace before the raster.
        let p5 = Array("P5 1 1 255#max\n".utf8) + [128]
        #expect(MediaFixtures.pixel(try FittingDecoder().decode(p5, name: "max.pgm", fittingIn: Size(width: 1, height: 1)), 0, 0) == (128, 128, 128))
        #expect(ImageHeader.read(p6).width == 2 && ImageHeader.read(p6).height == 1)
        // A number still needs its digits: a comment alone is no size.
        #expect(throws: ImageError.self) { try FittingDecoder().decode(Array("P6\n#c\n 1 255\n".utf8) + [1, 2, 3], name: "no.ppm", fittingIn: Self.box) }
    }

    /// A phone's photo: the pixels stored as the sensor saw them, the file saying how to
    /// turn them upright. A HEIC has an `irot` and an EXIF orientation that says the same
    /// (iPhones write both); a JPEG XL made from such a JPEG keeps both its orientation field
    /// and the EXIF. Each is turned a quarter clockwise once: not twice by EXIF as well
    /// (upside down, still landscape), not left sideways.
    @Test(arguments: ["heic", "jxl"])
    func aPhonesPhotoIsTurnedUprightOnce(ext: String) throws {
        let dir = try MediaFixtures.folder("turned")
        let jpeg = MediaFixtures.withExif(try ReferenceEncoders.cjpeg(Self.picture, []), orientation: 6)
        try MediaFixtures.write(jpeg, to: dir + "/in.jpg")
        let out = dir + "/out." + ext
        var bytes: [UInt8]
        if ext == "heic" {
            try ReferenceEncoders.run(.heifEnc, ["-q", "95", "-o", out, dir + "/in.jpg"])
            let stored = try [UInt8](Data(contentsOf: URL(fileURLWithPath: out)))
            #expect(try FittingDecoder().decode(stored, name: "exif-only.heic", fittingIn: Self.box).width == 64,
                    "HEIF's EXIF orientation alone turns nothing (MIAF: irot and imir are the only transforms)")
            bytes = try HEIFRotationEdit.addingRotation(stored, quarters: 3)
        } else {
            try ReferenceEncoders.run(.cjxl, [dir + "/in.jpg", out])
            bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: out)))
        }
        let header = ImageHeader.read(bytes)
        #expect(header.width == 64 && header.height == 128, "the header gives the upright size: \(header)")
        let image = try FittingDecoder().decode(bytes, name: "turned." + ext, fittingIn: Self.box)
        #expect(image.width == 32 && image.height == 64, "\(image.width)x\(image.height)")
        guard image.width == 32, image.height == 64 else { return }
        Self.expectTurnedClockwise(image, ext)
    }

    /// A HEIC or AVIF turned a quarter by `irot`, with `irot` listed after its `ispe` or
    /// before it (a Sony ILCE-7M4's order, for which libheif 1.15 reports the stored size
    /// but hands back turned pixels): upright and taller than wide, never squashed into the
    /// stored shape, and its header says so too.
    @Test(arguments: [(OutsideProgram.heifEnc, "heic"), (.avifenc, "avif")], [false, true])
    func aTurnedHEIFIsFittedUprightWhateverItsBoxOrder(encoder: (OutsideProgram, String), irotFirst: Bool) throws {
        // No alpha, as a camera's: libheif 1.15 cannot decode an alpha item left stored
        // beside a primary turned in this order ("Unsupported color conversion").
        let stored = try ReferenceEncoders.encode(Self.picture, with: encoder.0, ext: encoder.1,
                                                  extra: encoder.0 == .heifEnc ? ["--no-alpha"] : [])
        let bytes = try HEIFRotationEdit.addingRotation(stored, quarters: 3, first: irotFirst)
        let header = ImageHeader.read(bytes)
        #expect(header.width == 64 && header.height == 128, "\(header)")
        let image = try FittingDecoder().decode(bytes, name: "turned." + encoder.1, fittingIn: Self.box)
        #expect(image.width == 32 && image.height == 64, "\(encoder.1), irot first \(irotFirst): \(image.width)x\(image.height)")
        guard image.width == 32, image.height == 64 else { return }
        Self.expectTurnedClockwise(image, "\(encoder.1), irot first \(irotFirst)")
    }

    /// The wall places a tile by the header alone: a HEIF turned a quarter by irot and a
    /// JPEG XL whose orientation field turns it are taller than wide.
    @Test func headersGiveTheUprightSize() {
        func box(_ type: String, _ body: [UInt8]) -> [UInt8] {
            let n = body.count + 8
            return [UInt8(n >> 24), UInt8(n >> 16 & 255), UInt8(n >> 8 & 255), UInt8(n & 255)] + Array(type.utf8) + body
        }
        let ftyp = box("ftyp", Array("heic".utf8) + [0, 0, 0, 0] + Array("mif1heic".utf8))
        let ispe = box("ispe", [0, 0, 0, 0, 0, 0, 0x0F, 0xC0, 0, 0, 0x0B, 0xD0])  // 4032 x 3024
        let irot = box("irot", [1])  // 90° counter-clockwise
        let ipma = box("ipma", [0, 0, 0, 0, 0, 0, 0, 1, 0, 1, 2, 0x81, 0x02])  // item 1: properties 1 and 2
        let meta = box("meta", [0, 0, 0, 0] + box("pitm", [0, 0, 0, 0, 0, 1]) + box("iprp", box("ipco", ispe + irot) + ipma))
        let heif = ftyp + meta
        #expect(ImageHeader.read(heif) == ImageHeader(format: .heif, width: 3024, height: 4032))
        let unturned = ftyp + box("meta", [0, 0, 0, 0] + box("pitm", [0, 0, 0, 0, 0, 1]) + box("iprp", box("ipco", ispe + irot) + box("ipma", [0, 0, 0, 0, 0, 0, 0, 1, 0, 1, 1, 0x81])))
        #expect(ImageHeader.read(unturned) == ImageHeader(format: .heif, width: 4032, height: 3024))
        // JPEG XL: not small, height 480 in 9 bits, ratio 4:3, not all default, extra
        // fields, orientation 6 (stored 5): upright 480 x 640.
        var bits: [Int] = [0, 0, 0]
        bits += (0..<9).map { (479 >> $0) & 1 }
        bits += [1, 1, 0]  // ratio 3: 4/3
        bits += [0, 1] + [1, 0, 1]  // not all default, extra fields, orientation - 1 = 5
        var bytes: [UInt8] = [0xFF, 0x0A]
        for i in stride(from: 0, to: bits.count, by: 8) {
            var b: UInt8 = 0
            for k in 0..<8 where i + k < bits.count { b |= UInt8(bits[i + k]) << UInt8(k) }
            bytes.append(b)
        }
        #expect(ImageHeader.read(bytes) == ImageHeader(format: .jxl, width: 480, height: 640))
    }
}
