import CarouselBench
import CarouselCore
@testable import CarouselMedia
import Foundation
import Testing
import TestSupport

/// The small picture a camera or phone keeps inside its JPEG (EXIF's IFD1), read in the
/// decoder helper for the wall's tiles (issue 63): found where ExifTool and cameras put it,
/// in either byte order, turned as the picture is, cut to the picture's shape, and never
/// taken from outside the segment it must lie in.
@Suite struct EmbeddedThumbnailTests {
    static func folder() throws -> String {
        let dir = NSTemporaryDirectory() + "embedded-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir
    }

    /// A 600x400 photo (3:2) and its 160x120 thumbnail with black bars, as a camera makes them.
    static let photo = SyntheticPhotos.picture(width: 600, height: 400, seed: 3)
    static let thumbnail = TurboJPEGCodec.encode(CameraExif.thumbnail(of: { SyntheticPhotos.picture(width: $0, height: $1, seed: 3) }, aspect: 1.5),
                                                 quality: 80)

    /// ExifTool writes the thumbnail and the orientation (big-endian EXIF, its default): the
    /// bytes found are the thumbnail's, the orientation the picture's.
    @Test func aThumbnailExifToolWroteIsFoundWithThePicturesOrientation() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let file = dir + "/photo.jpg", thumb = dir + "/thumb.jpg"
        try Data(TurboJPEGCodec.encode(Self.photo, quality: 90)).write(to: URL(fileURLWithPath: file))
        try Data(Self.thumbnail).write(to: URL(fileURLWithPath: thumb))
        #expect(EmbeddedThumbnail.locate(jpeg: try [UInt8](Data(contentsOf: URL(fileURLWithPath: file)))) == nil, "a plain JPEG has none")
        try OutsideProgram.exiftool.run(["-q", "-overwrite_original", "-ThumbnailImage<=" + thumb, "-Orientation#=6", file])
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: file)))
        let found = try #require(EmbeddedThumbnail.locate(jpeg: Array(bytes.prefix(EmbeddedThumbnail.headBytes))))
        #expect(Array(bytes[found.range]) == Self.thumbnail)
        #expect(found.orientation == .rotatedClockwise)
        #expect(bytes[6...7].elementsEqual(Array("Ex".utf8)) || bytes.contains(0x4D), "ExifTool's own EXIF")
    }

    /// The bench's camera-like files: ExifTool reads their thumbnail back byte for byte, and so does the parser.
    @Test func theBenchsCameraFilesCarryAThumbnailExifToolReads() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let paths = try SyntheticPhotos.write(.init(count: 1, width: 600, height: 400), into: dir)
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: paths[0])))
        let byExifTool = try OutsideProgram.exiftool.runBytes(["-b", "-ThumbnailImage", paths[0]])
        let found = try #require(EmbeddedThumbnail.locate(jpeg: bytes))
        #expect(Array(bytes[found.range]) == byExifTool)
        #expect(found.orientation == .up)
    }

    /// Decoded in the helper: upright (turned as the picture), the black bars cut away so
    /// it has the picture's shape, and the picture's full size, not the thumbnail's. A
    /// picture without one, and a clip, fail at once.
    @Test func theHelperDecodesItUprightInThePicturesShape() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let file = dir + "/photo.jpg", thumb = dir + "/thumb.jpg", plain = dir + "/plain.jpg"
        try Data(TurboJPEGCodec.encode(Self.photo, quality: 90)).write(to: URL(fileURLWithPath: file))
        try Data(TurboJPEGCodec.encode(Self.photo, quality: 90)).write(to: URL(fileURLWithPath: plain))
        try Data(Self.thumbnail).write(to: URL(fileURLWithPath: thumb))
        try OutsideProgram.exiftool.run(["-q", "-overwrite_original", "-ThumbnailImage<=" + thumb, "-Orientation#=6", file])
        let helpers = IsolatedDecodingTests.decoder()
        defer { helpers.stop() }
        let decoder = EmbeddedThumbnailDecoder(helpers: helpers)
        let image = try decoder.decode(IsolatedDecodingTests.source(file), fittingIn: Size(width: 512, height: 512))
        // 160x120 with bars → 160x107 (3:2), turned: 107x160; the picture 600x400 turned: 400x600.
        #expect((image.width, image.height) == (107, 160))
        #expect(image.fullSize == Size(width: 400, height: 600))
        // No black bar is left at either end of the turned thumbnail (a bar is a column
        // black from end to end; the picture's hills are dark, never black throughout).
        for x in [0, image.width - 1] {
            let black = (0..<image.height).count { y in let (r, g, b) = MediaFixturesProbe.pixel(image, x, y); return r + g + b < 12 }
            #expect(black < image.height / 2, "column \(x) is black: a bar was left")
        }
        #expect(throws: ImageError.self) { try decoder.decode(IsolatedDecodingTests.source(plain), fittingIn: Size(width: 512, height: 512)) }
        #expect(throws: ImageError.self) { try decoder.decode(ImageSource(path: "https://example.org/a.jpg"), fittingIn: Size(width: 512, height: 512)) }
    }

    /// A phone's HEIC carries a `thmb` item (heif-enc -t, as phones write it): decoded alone,
    /// never larger than it is; a HEIC without one fails.
    @Test func aHEICsOwnThumbnailIsDecodedAlone() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let png = dir + "/photo.png", with = dir + "/with.heic", without = dir + "/without.heic"
        try PNGCodec.write(Self.photo, to: png)
        try OutsideProgram.heifEnc.run(["-t", "160", "-o", with, png])
        try OutsideProgram.heifEnc.run(["-o", without, png])
        let helpers = IsolatedDecodingTests.decoder()
        defer { helpers.stop() }
        let decoder = EmbeddedThumbnailDecoder(helpers: helpers)
        let image = try decoder.decode(IsolatedDecodingTests.source(with), fittingIn: Size(width: 512, height: 512))
        #expect((159...160).contains(image.width) && (106...107).contains(image.height), "\(image.width)x\(image.height)")
        #expect(throws: ImageError.self) { try decoder.decode(IsolatedDecodingTests.source(without), fittingIn: Size(width: 512, height: 512)) }
    }

    /// Hostile bytes: every cut and every damaged byte of the EXIF segment leaves the parser
    /// with nothing or with a range inside the segment that starts as a JPEG.
    @Test func damagedExifNeverPointsOutsideItsSegment() {
        let bytes = CameraExif.inserting(thumbnail: Self.thumbnail, orientation: 8, into: TurboJPEGCodec.encode(Self.photo, quality: 50))
        let segmentEnd = 4 + Int(bytes[4]) << 8 + Int(bytes[5])
        #expect(EmbeddedThumbnail.locate(jpeg: bytes)?.orientation == .rotatedCounterClockwise)
        var rng = SystemRandomNumberGenerator()
        for cut in stride(from: 0, to: segmentEnd + 10, by: 7) {
            if let found = EmbeddedThumbnail.locate(jpeg: Array(bytes.prefix(cut))) { #expect(found.range.upperBound <= cut) }
        }
        for _ in 0..<3000 {
            var damaged = bytes
            for _ in 0..<Int.random(in: 1...4, using: &rng) { damaged[Int.random(in: 2..<min(200, segmentEnd), using: &rng)] = UInt8.random(in: 0...255, using: &rng) }
            if let found = EmbeddedThumbnail.locate(jpeg: damaged) {
                // Inside the segment as its (perhaps damaged) length says.
                let end = 4 + Int(damaged[4]) << 8 + Int(damaged[5])
                #expect(found.range.lowerBound >= 12 && found.range.upperBound <= min(end, damaged.count))
                #expect(damaged[found.range.lowerBound] == 0xFF && damaged[found.range.lowerBound + 1] == 0xD8)
            }
        }
    }
}

/// A pixel of a decoded image, as (r, g, b).
enum MediaFixturesProbe {
    static func pixel(_ image: PixelImage, _ x: Int, _ y: Int) -> (Int, Int, Int) {
        let i = (y * image.width + x) * 4
        return (Int(image.pixels[i]), Int(image.pixels[i + 1]), Int(image.pixels[i + 2]))
    }
}
