import CarouselCore
@testable import CarouselMedia
import Foundation
import TestSupport
import Testing

/// BMP, DIB and TGA read here, against ImageMagick (the reference) on the same files (turned
/// as a TGA's origin says; 16-bit grey with alpha against the pattern written): the
/// variants ImageMagick writes, and those the test writes by hand that SDL_image refused
/// (bit fields of 10 bits, 5-6-5, a headerless DIB, TGA stored right to left or top-down,
/// 16-bit grey with alpha, 16-bit colours and colour maps, run-length packets across rows).
@Suite struct BMPTGATests {
    static let width = 23, height = 17

    /// A pattern with every channel moving (and alpha, when asked), 23 x 17: odd, so rows are padded.
    static func pattern(alpha: Bool = false) -> [UInt8] {
        (0..<(width * height)).flatMap { n -> [UInt8] in
            let x = n % width, y = n / width
            return [UInt8(x * 11), UInt8(y * 15), UInt8((x * 7 + y * 9) % 256), alpha ? UInt8((x + y) * 6) : 255]
        }
    }

    /// ImageMagick's reading of `file` (named as `format` says), as RGBA, turned as its
    /// origin says (ImageMagick keeps a TGA's rows as stored and notes the orientation).
    static func magick(_ file: String, as format: String? = nil) throws -> [UInt8] {
        let out = file + ".rgba"
        try ReferenceEncoders.run(.convert, [(format.map { $0 + ":" } ?? "") + file, "-auto-orient", "-depth", "8", "rgba:" + out])
        return [UInt8](try Data(contentsOf: URL(fileURLWithPath: out)))
    }

    /// The pattern written by ImageMagick with `options` into `name` (`FORMAT:file`, or a
    /// file named as its format is); the file's path.
    static func written(_ name: String, _ options: [String], alpha: Bool = false) throws -> String {
        let dir = try MediaFixtures.folder("bmptga")
        try Data(pattern(alpha: alpha)).write(to: URL(fileURLWithPath: dir + "/in.rgba"))
        let parts = name.split(separator: ":", maxSplits: 1).map(String.init)
        let file = dir + "/" + parts.last!
        let out = parts.count == 2 ? parts[0] + ":" + file : file
        try ReferenceEncoders.run(.convert, ["-size", "\(width)x\(height)", "-depth", "8", "rgba:" + dir + "/in.rgba"] + options + [out])
        return file
    }

    /// Ours against ImageMagick's: every pixel within `tolerance`, colour compared where it is not transparent.
    static func expectSame(_ ours: PixelImage, _ reference: [UInt8], tolerance: Int = 1, _ what: String) {
        #expect(ours.width * ours.height * 4 == reference.count, "\(what): \(ours.width)x\(ours.height)")
        guard ours.pixels.count == reference.count else { return }
        var worst = 0, at = -1
        for i in stride(from: 0, to: reference.count, by: 4) {
            let a = Int(ours.pixels[i + 3]), b = Int(reference[i + 3])
            var d = abs(a - b)
            if b > 0 { for c in 0..<3 { d = max(d, abs(Int(ours.pixels[i + c]) - Int(reference[i + c]))) } }
            if d > worst { (worst, at) = (d, i / 4) }
        }
        #expect(worst <= tolerance, "\(what): \(worst) levels off at pixel (\(at % max(1, ours.width)), \(at / max(1, ours.width)))")
    }

    static func decode(_ file: String) throws -> PixelImage {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: file)))
        // Through the decoder the helper runs (its choice of codec too), at the picture's own size.
        return try FittingDecoder().decode(bytes, name: file, fittingIn: Size(width: Double(width), height: Double(height)))
    }

    @Test(arguments: [
        ("BMP3:24.bmp", ["-type", "TrueColor"]), ("BMP3:8.bmp", ["-type", "Palette", "-colors", "200"]),
        ("BMP3:rle8.bmp", ["-type", "Palette", "-colors", "200", "-compress", "RLE"]),
        ("BMP3:4.bmp", ["-type", "Palette", "-colors", "16"]), ("BMP3:1.bmp", ["-type", "Bilevel"]),
        ("BMP2:os2.bmp", ["-type", "TrueColor"]), ("BMP:v5-alpha.bmp", ["-type", "TrueColorAlpha"]),
        ("DIB:headerless.dib", ["-type", "TrueColor"]),
    ])
    func bmpAsImageMagickWritesIt(name: String, options: [String]) throws {
        let path = try Self.written(name, options, alpha: name.contains("alpha"))
        Self.expectSame(try Self.decode(path), try Self.magick(path, as: name.hasPrefix("DIB") ? "DIB" : nil), name)
    }

    /// A BITMAPINFOHEADER BMP of `bits` with `masks` (BI_BITFIELDS), written by hand.
    static func bitfields(_ bits: Int, masks: [UInt32], pixel: (Int, Int) -> UInt32) -> [UInt8] {
        let stride = (width * bits + 31) / 32 * 4
        let offset = 14 + 40 + 12
        var b: [UInt8] = Array("BM".utf8) + le32(offset + stride * height) + [0, 0, 0, 0] + le32(offset)
        b += le32(40) + le32(width) + le32(height) + [1, 0, UInt8(bits), 0] + le32(3) + le32(stride * height) + le32(2835) + le32(2835) + le32(0) + le32(0)
        for m in masks { b += le32(Int(m)) }
        for fileRow in 0..<height {
            var row: [UInt8] = []
            for x in 0..<width {
                let v = pixel(x, height - 1 - fileRow)
                row += (0..<(bits / 8)).map { UInt8(truncatingIfNeeded: v >> (8 * UInt32($0))) }
            }
            b += row + [UInt8](repeating: 0, count: stride - row.count)
        }
        return b
    }

    static func le32(_ v: Int) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: v >> (8 * $0)) } }

    @Test func bitFieldsOfTenBitsAndFiveSixFive() throws {
        let dir = try MediaFixtures.folder("bitfields")
        // bmpsuite's rgb32bf: red in the top ten bits, green the next ten, blue the next ten.
        let wide = Self.bitfields(32, masks: [0xFFC0_0000, 0x003F_F000, 0x0000_0FFC]) { x, y in
            UInt32(x * 44) << 22 | UInt32(y * 60) << 12 | UInt32((x * 7 + y * 9) * 3 % 1024) << 2
        }
        let narrow = Self.bitfields(16, masks: [0xF800, 0x07E0, 0x001F]) { x, y in UInt32(x) << 11 | UInt32(y * 3) << 5 | UInt32((x + y) % 32) }
        for (name, bytes) in [("rgb32bf.bmp", wide), ("rgb16-565.bmp", narrow)] {
            let path = dir + "/" + name
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            Self.expectSame(try Self.decode(path), try Self.magick(path), name)
        }
    }

    /// OS/2 2.x's header cut after the bit depth (16 bytes, as bmpsuite's pal8os2v2-16): the
    /// fields left out are zero, the palette's entries 4 bytes: the same picture as the whole
    /// header gives (ImageMagick reads bmpsuite's file only because its first palette entry,
    /// which it takes for the compression, is black).
    @Test func os2HeaderCutShortReadsAsTheWholeOne() throws {
        let path = try Self.written("BMP3:pal8.bmp", ["-type", "Palette", "-colors", "200", "-compress", "None"])
        let whole = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        var short = Array(whole[..<14]) + Self.le32(16) + Array(whole[18..<30]) + Array(whole[(14 + 40)...])
        let offset = Int(whole[10]) | Int(whole[11]) << 8 | Int(whole[12]) << 16
        short.replaceSubrange(2..<6, with: Self.le32(short.count))
        short.replaceSubrange(10..<14, with: Self.le32(offset - 24))
        let file = path.replacingOccurrences(of: "pal8.bmp", with: "pal8os2v2-16.bmp")
        try Data(short).write(to: URL(fileURLWithPath: file))
        Self.expectSame(try Self.decode(file), try Self.magick(path), tolerance: 0, "a 16-byte OS/2 2.x header")
    }

    /// RLE4 with a delta: the pixels it skips are transparent (as browsers show them).
    @Test func rle4WithADeltaLeavesTheSkippedPixelsTransparent() throws {
        let w = 8, h = 2
        var b: [UInt8] = Array("BM".utf8) + Self.le32(0) + [0, 0, 0, 0] + Self.le32(14 + 40 + 64)
        b += Self.le32(40) + Self.le32(w) + Self.le32(h) + [1, 0, 4, 0] + Self.le32(2) + Self.le32(0) + Self.le32(0) + Self.le32(0)
            + Self.le32(16) + Self.le32(0)
        for i in 0..<16 { b += [UInt8(i * 16), 0, UInt8(255 - i * 16), 0] }
        // Bottom row: 4 of index 1/2 alternating, then a delta of 2 right; end of line; top row: 8 of 3.
        b += [4, 0x12, 0, 2, 2, 0, 0, 0, 8, 0x33, 0, 1]
        let image = try BMPCodec.decode(b, path: "rle4.bmp") { _, _ in }
        let bottom = Array(image.pixels[(w * 4)...])
        // Index i is red 255 - 16 i, blue 16 i.
        #expect(bottom[3] == 255 && bottom[0] == 239 && bottom[4] == 223 && bottom[8] == 239, "indices 1, 2, 1: \(bottom.prefix(12))")
        #expect(bottom[4 * 4 + 3] == 0 && bottom[4 * 5 + 3] == 0, "skipped by the delta: transparent")
        #expect(bottom[4 * 7 + 3] == 0, "left by the end of the line: transparent")
        #expect((0..<w).allSatisfy { image.pixels[$0 * 4 + 3] == 255 && image.pixels[$0 * 4] == 207 }, "the top row, index 3")
    }

    @Test(arguments: [
        ("24.tga", ["-type", "TrueColor"]), ("32-alpha.tga", ["-type", "TrueColorAlpha"]),
        ("rle24.tga", ["-type", "TrueColor", "-compress", "RLE"]), ("rle32.tga", ["-type", "TrueColorAlpha", "-compress", "RLE"]),
        ("grey.tga", ["-type", "Grayscale"]), ("rle-grey.tga", ["-type", "Grayscale", "-compress", "RLE"]),
        ("palette.tga", ["-type", "Palette", "-colors", "200"]), ("rle-palette.tga", ["-type", "Palette", "-colors", "200", "-compress", "RLE"]),
    ])
    func tgaAsImageMagickWritesIt(name: String, options: [String]) throws {
        let file = try Self.written(name, options, alpha: name.contains("alpha"))
        Self.expectSame(try Self.decode(file), try Self.magick(file), name)
    }

    /// The 18-byte header of an uncompressed TGA of the pattern's size.
    static func tgaHeader(type: UInt8, bits: UInt8, descriptor: UInt8, map: (first: Int, length: Int, bits: UInt8)? = nil) -> [UInt8] {
        [0, map == nil ? 0 : 1, type] + [UInt8(truncatingIfNeeded: map?.first ?? 0), UInt8((map?.first ?? 0) >> 8),
                                         UInt8(truncatingIfNeeded: map?.length ?? 0), UInt8((map?.length ?? 0) >> 8), map?.bits ?? 0]
            + [0, 0, 0, 0, UInt8(width), 0, UInt8(height), 0, bits, descriptor]
    }

    @Test func tgaStoredRightToLeftOrTopDownShowsAsStoredLeftToRightBottomUp() throws {
        let dir = try MediaFixtures.folder("tga-origin")
        let pattern = Self.pattern()
        // Pixel (x, y) of the picture, as BGR.
        func bgr(_ x: Int, _ y: Int) -> [UInt8] { let i = (y * Self.width + x) * 4; return [pattern[i + 2], pattern[i + 1], pattern[i]] }
        for (rightToLeft, topDown) in [(false, false), (true, false), (false, true), (true, true)] {
            var b = Self.tgaHeader(type: 2, bits: 24, descriptor: (rightToLeft ? 16 : 0) | (topDown ? 32 : 0))
            for fileRow in 0..<Self.height {
                let y = topDown ? fileRow : Self.height - 1 - fileRow
                for column in 0..<Self.width { b += bgr(rightToLeft ? Self.width - 1 - column : column, y) }
            }
            let path = dir + "/origin-\(rightToLeft)-\(topDown).tga"
            try Data(b).write(to: URL(fileURLWithPath: path))
            let ours = try Self.decode(path)
            Self.expectSame(ours, pattern, tolerance: 0, "right to left \(rightToLeft), top-down \(topDown)")
            Self.expectSame(ours, try Self.magick(path), tolerance: 0, "as ImageMagick, right to left \(rightToLeft), top-down \(topDown)")
        }
    }

    @Test func greyWithAlphaSixteenBitColoursAndMapsAndRunsAcrossRows() throws {
        let dir = try MediaFixtures.folder("tga-kinds")
        let pattern = Self.pattern(alpha: true)
        let n = Self.width * Self.height
        var files: [(String, [UInt8])] = []
        // Grey and alpha, 16 bits a pixel, bottom-up.
        var grey = Self.tgaHeader(type: 3, bits: 16, descriptor: 8)
        for fileRow in 0..<Self.height { for x in 0..<Self.width { let i = ((Self.height - 1 - fileRow) * Self.width + x) * 4; grey += [pattern[i], pattern[i + 3]] } }
        files.append(("grey-alpha.tga", grey))
        // 16-bit colour, 5-5-5 with its attribute bit as alpha.
        var sixteen = Self.tgaHeader(type: 2, bits: 16, descriptor: 1 | 32)
        for i in 0..<n {
            let (r, g, b) = (Int(pattern[i * 4]) >> 3, Int(pattern[i * 4 + 1]) >> 3, Int(pattern[i * 4 + 2]) >> 3)
            let v = (i % 3 == 0 ? 0 : 0x8000) | r << 10 | g << 5 | b
            sixteen += [UInt8(v & 255), UInt8(v >> 8)]
        }
        files.append(("rgb16.tga", sixteen))
        // A colour map of 16-bit entries starting at index 5, 8-bit indices.
        var mapped = Self.tgaHeader(type: 1, bits: 8, descriptor: 32, map: (5, 32, 16))
        for k in 0..<32 { let v = 0x8000 | (k << 10) | ((31 - k) << 5) | (k / 2); mapped += [UInt8(v & 255), UInt8(v >> 8)] }
        for i in 0..<n { mapped.append(UInt8(5 + i % 32)) }
        files.append(("map16.tga", mapped))
        // Run-length packets crossing rows: runs of 40 (longer than a row of 23), raw packets of 7.
        var runs = Self.tgaHeader(type: 10, bits: 24, descriptor: 32)
        var left = n, k = 0
        while left > 0 {
            let count = min(left, k % 2 == 0 ? 40 : 7)
            if k % 2 == 0 { runs += [UInt8(0x80 | (count - 1)), UInt8(k * 20 % 256), 90, 200] }
            else { runs.append(UInt8(count - 1)); for j in 0..<count { runs += [UInt8(j * 30), UInt8(k * 9 % 256), 10] } }
            left -= count; k += 1
        }
        files.append(("rle-across.tga", runs))
        for (name, bytes) in files {
            let path = dir + "/" + name
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            if name == "grey-alpha.tga" {
                // ImageMagick 6.9.11 takes 16-bit grey for a palette and shows noise; GIMP
                // (which writes such files) and the TGA 2.0 spec read grey and then alpha.
                var expected: [UInt8] = []
                for i in 0..<n {
                    let g: UInt8 = pattern[i * 4]
                    expected += [g, g, g, pattern[i * 4 + 3]]
                }
                Self.expectSame(try Self.decode(path), expected, tolerance: 0, name)
            } else {
                Self.expectSame(try Self.decode(path), try Self.magick(path), tolerance: 1, name)
            }
        }
    }

    /// A file whose pixels end early fails in one line, or under `--broken show` shows what
    /// arrived and says how much (as a truncated JPEG does).
    @Test func aCutFileFailsOrShowsWhatArrived() throws {
        let bmp = [UInt8](try Data(contentsOf: URL(fileURLWithPath: try Self.written("BMP3:cut.bmp", ["-type", "TrueColor"]))))
        let tga = [UInt8](try Data(contentsOf: URL(fileURLWithPath: try Self.written("cut.tga", ["-type", "TrueColor"]))))
        for (name, bytes) in [("cut.bmp", bmp), ("cut.tga", tga)] {
            let cut = Array(bytes.prefix(bytes.count * 6 / 10))
            var decoder = FittingDecoder()
            do {
                _ = try decoder.decode(cut, name: name, fittingIn: Size(width: 23, height: 17))
                Issue.record("\(name): a cut file was shown without --broken show")
            } catch {
                #expect(error.reason.hasPrefix("is truncated") && !error.reason.contains("\n"), "\(error.reason)")
            }
            decoder.showsPartial = true
            let shown = try decoder.decode(cut, name: name, fittingIn: Size(width: 23, height: 17))
            #expect(shown.note?.contains("is truncated") == true && shown.note?.contains("% of its") == true, "\(String(describing: shown.note))")
            let alphas = Set(stride(from: 3, to: shown.pixels.count, by: 4).map { shown.pixels[$0] })
            #expect(!shown.isOpaque && alphas.contains(255) && alphas.contains(0), "\(name): part shown, the rest transparent")
        }
    }

    /// Cut, damaged and hostile headers: one line each, never a trap; a size over the limit
    /// refused before anything is allocated.
    @Test func brokenFilesFailInOneLine() throws {
        let good = [UInt8](try Data(contentsOf: URL(fileURLWithPath: try Self.written("BMP3:x.bmp", ["-type", "TrueColor"]))))
        for n in [0, 2, 14, 30, 54] {
            #expect(throws: ImageError.self) { try BMPCodec.decode(Array(good.prefix(n)), path: "cut.bmp") { _, _ in } }
        }
        var huge = good
        huge.replaceSubrange(18..<26, with: Self.le32(60_000) + Self.le32(60_000))
        do {
            _ = try FittingDecoder().decode(huge, name: "huge.bmp", fittingIn: Size(width: 100, height: 100))
            Issue.record("a 60000x60000 BMP was decoded")
        } catch {
            #expect(error.reason.contains("megapixel") || error.reason.contains("MP"), "\(error.reason)")
        }
        let tga = Self.tgaHeader(type: 2, bits: 24, descriptor: 0)
        #expect(throws: ImageError.self) { try TGACodec.decode(tga, path: "empty.tga") { _, _ in } }
        #expect(throws: ImageError.self) { try TGACodec.decode([0, 0, 7] + Array(tga[3...]) + [1, 2, 3], path: "type7.tga") { _, _ in } }
    }
}
