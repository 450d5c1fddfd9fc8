import CarouselCore
import CarouselMedia
import CarouselBench
import Foundation
import Testing
import TestSupport

@Suite struct ImageHeaderTests {
    @Test func readsSizesWithoutDecoding() {
        let jpeg = TurboJPEGCodec.encode(MediaFixtures.noisy(120, 80))
        #expect(ImageHeader.read(jpeg) == ImageHeader(format: .jpeg, width: 120, height: 80))
        #expect(ImageHeader.read(MediaFixtures.pngHeader(claiming: 640, 480)) == ImageHeader(format: .png, width: 640, height: 480))
        let gif: [UInt8] = Array("GIF89a".utf8) + [0x20, 0x03, 0x58, 0x02, 0, 0, 0]
        #expect(ImageHeader.read(gif) == ImageHeader(format: .gif, width: 800, height: 600))
        #expect(ImageHeader.read(Array("plain text, not an image".utf8)).format == .unknown)
        #expect(ImageHeader.read([]).format == .unknown)
    }

    @Test func exifBeforeTheFrameDoesNotHideTheSize() {
        let jpeg = MediaFixtures.withExif(TurboJPEGCodec.encode(MediaFixtures.noisy(40, 24)), orientation: 6)
        #expect(ImageHeader.read(jpeg) == ImageHeader(format: .jpeg, width: 40, height: 24))
    }

    /// The wall reads 16 KB of each file first; a frame header further on (behind a large
    /// colour profile, say) is found by reading more, and the EXIF turn still applies.
    @Test func aSizeBehindALargeSegmentIsStillRead() throws {
        let jpeg = MediaFixtures.withExif(TurboJPEGCodec.encode(MediaFixtures.noisy(40, 24)), orientation: 6)
        let padding = 40_000
        let app2: [UInt8] = [0xFF, 0xE2, UInt8((padding + 2) >> 8), UInt8((padding + 2) & 255)]
            + [UInt8](repeating: 0x41, count: padding)
        let exifEnd = 2 + 4 + Int(jpeg[4]) << 8 + Int(jpeg[5]) - 2
        let far = Array(jpeg[0..<exifEnd]) + app2 + Array(jpeg[exifEnd...])
        let folder = try MediaFixtures.folder("sizes")
        try Data(far).write(to: URL(fileURLWithPath: folder + "/far.jpg"))
        try Data(jpeg).write(to: URL(fileURLWithPath: folder + "/near.jpg"))
        #expect(far.count > SizeReader.firstBytes + 20_000)
        #expect(SizeReader.aspect(of: folder + "/far.jpg") == 40.0 / 24.0, "turned a quarter: taller than wide")
        #expect(SizeReader.aspect(of: folder + "/near.jpg") == 40.0 / 24.0)
    }

    @Test func shortHeadersGiveNoSizeAndNoTrap() {
        let cut = Array(MediaFixtures.pngHeader(claiming: 10, 10).prefix(18))
        #expect(ImageHeader.read(cut) == ImageHeader(format: .png, width: nil, height: nil))
        #expect(ImageHeader.read([0xFF, 0xD8, 0xFF, 0xC0, 0x00]).width == nil)
    }
}

@Suite struct DCTScaleTests {
    @Test(arguments: [
        // source, target, expected factor in eighths
        (6000, 4000, 1152, 768, 2),   // 1/4 gives 1500x1000; 1/8 would be 750 wide, too small
        (6000, 4000, 600, 400, 1),    // 1/8 gives 750x500
        (6000, 4000, 1920, 1280, 3),  // 3/8 gives 2250x1500
        (800, 600, 100, 75, 1),       // exactly 1/8
        (800, 600, 101, 75, 2),       // one pixel more needs 1/4
        (640, 480, 1280, 960, 8),     // enlarging: decode at full size
        (4000, 6000, 500, 750, 1),    // portrait, exactly 1/8
    ])
    func smallestFactorThatCoversTheTarget(_ c: (Int, Int, Int, Int, Int)) {
        let s = DCTScale.choose(source: (c.0, c.1), target: (c.2, c.3))
        #expect(s.numerator * 8 / s.denominator == c.4, "\(c.0)x\(c.1) → \(c.2)x\(c.3) chose \(s)")
        #expect(s.scaled(c.0) >= c.2 || s == .full)
    }

    @Test func decodingAtAScaleGivesTheScaledSize() throws {
        let jpeg = TurboJPEGCodec.encode(MediaFixtures.noisy(800, 600))
        let image = try TurboJPEGCodec.decode(jpeg, scale: DCTScale(1, 4), path: "x.jpg")
        #expect(image.width == 200 && image.height == 150)
    }
}

@Suite struct ExifOrientationTests {
    @Test(arguments: ExifOrientation.allCases)
    func cameraPhotosStandUpright(_ orientation: ExifOrientation) throws {
        let upright = MediaFixtures.quadrants
        // What a camera would store: the upright picture turned the other way.
        let stored = upright.oriented(orientation.inverse)
        let file = try MediaFixtures.folder("exif") + "/o\(orientation.rawValue).jpg"
        let big = orientation.rawValue % 2 == 0
        try MediaFixtures.write(MediaFixtures.withExif(TurboJPEGCodec.encode(stored, quality: 95),
                                                       orientation: orientation.rawValue, bigEndian: big), to: file)
        let shown = try FittingDecoder().decode(ImageSource(path: file), fittingIn: Size(width: 64, height: 64))
        #expect(shown.width == 64 && shown.height == 32, "orientation \(orientation.rawValue) gave \(shown.width)x\(shown.height)")
        for (x, y, left, top) in [(8, 4, true, true), (56, 4, false, true), (8, 28, true, false), (56, 28, false, false)] {
            let got = MediaFixtures.pixel(shown, x, y)
            #expect(MediaFixtures.near(got, MediaFixtures.colour(left: left, top: top)),
                    "orientation \(orientation.rawValue) at (\(x), \(y)): \(got)")
        }
    }

    @Test func readsTheTagInBothByteOrders() {
        let jpeg = TurboJPEGCodec.encode(MediaFixtures.noisy(16, 16))
        #expect(ExifOrientation.read(jpeg: jpeg) == .up)
        #expect(ExifOrientation.read(jpeg: MediaFixtures.withExif(jpeg, orientation: 6, bigEndian: true)) == .rotatedClockwise)
        #expect(ExifOrientation.read(jpeg: MediaFixtures.withExif(jpeg, orientation: 8, bigEndian: false)) == .rotatedCounterClockwise)
        #expect(ExifOrientation.read(jpeg: MediaFixtures.withExif(jpeg, orientation: 99)) == .up)
    }
}

@Suite struct BrokenInputTests {
    let decoder = FittingDecoder()
    let box = Size(width: 300, height: 200)

    func reason(_ path: String) -> String? {
        do { _ = try decoder.decode(ImageSource(path: path), fittingIn: box); return nil } catch { return error.reason }
    }

    @Test func everyBrokenFileHasAReasonAndNothingTraps() throws {
        let dir = try MediaFixtures.folder("broken")
        let good = TurboJPEGCodec.encode(MediaFixtures.noisy(320, 240))
        try MediaFixtures.write([], to: dir + "/empty.jpg")
        try MediaFixtures.write(Array(good.prefix(good.count / 2)), to: dir + "/truncated.jpg")
        try MediaFixtures.write([0xFF, 0xD8, 0xFF, 0xDB, 0x00, 0x03, 0x00] + [UInt8](repeating: 0xAB, count: 300), to: dir + "/corrupt.jpg")
        try MediaFixtures.write(Array("Dear diary, this is not a photo.\n".utf8), to: dir + "/text.jpg")
        // A copy cut off at its first bytes: the JPEG start marker and nothing more.
        try MediaFixtures.write([0xFF, 0xD8, 0xFF], to: dir + "/start-only.jpg")
        try MediaFixtures.write(Array(good.prefix(20)), to: dir + "/cut-early.jpg")
        try MediaFixtures.write(MediaFixtures.jpegHeader(claiming: 60000, 60000), to: dir + "/huge.jpg")
        try MediaFixtures.write(MediaFixtures.pngHeader(claiming: 60000, 60000), to: dir + "/huge.png")
        try FileManager.default.createSymbolicLink(atPath: dir + "/loop.jpg", withDestinationPath: dir + "/loop.jpg")
        try FileManager.default.createDirectory(atPath: dir + "/folder.jpg", withIntermediateDirectories: false)

        #expect(reason(dir + "/empty.jpg") == "is empty (0 bytes)")
        #expect(reason(dir + "/truncated.jpg") == "is truncated (the JPEG data ends early)")
        #expect(reason(dir + "/corrupt.jpg")?.hasPrefix("is not a readable JPEG") == true)
        #expect(reason(dir + "/text.jpg")?.hasPrefix("cannot be decoded") == true)
        #expect(reason(dir + "/start-only.jpg") == "is truncated (the JPEG data ends early)")
        #expect(reason(dir + "/cut-early.jpg") == "is truncated (the JPEG data ends early)")
        #expect(reason(dir + "/huge.jpg") == "claims 60000x60000 pixels, over the 100 megapixel limit")
        #expect(reason(dir + "/huge.png") == "claims 60000x60000 pixels, over the 100 megapixel limit")
        #expect(reason(dir + "/loop.jpg") == "is a symbolic link loop")
        #expect(reason(dir + "/folder.jpg") == "is not a regular file")
        #expect(reason(dir + "/gone.jpg") == "no longer exists (deleted or moved after the scan)")
    }

    @Test func theLimitIsConfigurable() throws {
        let dir = try MediaFixtures.folder("limit")
        try MediaFixtures.write(TurboJPEGCodec.encode(MediaFixtures.noisy(400, 300)), to: dir + "/a.jpg")
        let strict = FittingDecoder(maxPixels: 100_000)
        #expect(throws: ImageError(path: dir + "/a.jpg", reason: "claims 400x300 pixels, over the 0.1 megapixel limit")) {
            try strict.decode(ImageSource(path: dir + "/a.jpg"), fittingIn: box)
        }
        #expect(try decoder.decode(ImageSource(path: dir + "/a.jpg"), fittingIn: box).width == 267)
    }

    /// A GIF whose first frame lies far outside its small screen makes a picture as large as
    /// that extent: judged by the same limit as the header's size, before it is made.
    @Test func aGIFFrameFarOutsideItsScreenIsJudgedByTheLimit() throws {
        let gif = HandMadeGIF.make(width: 2, height: 1, frames: [.fill(0, x: 20_000, y: 20_000, width: 1, height: 1)])
        #expect(throws: ImageError(path: "far.gif", reason: "claims 20001x20001 pixels, over the 100 megapixel limit")) {
            try FittingDecoder(maxPixels: 100_000_000).decode(gif, name: "far.gif", fittingIn: box)
        }
        let near = HandMadeGIF.make(width: 2, height: 1, frames: [.fill(0, x: 3, width: 1, height: 1)])
        #expect(try FittingDecoder(maxPixels: 100_000_000).decode(near, name: "near.gif", fittingIn: box).width > 0)
    }

    @Test(.enabled(if: geteuid() != 0, "root reads any file, so permissions cannot be tested as root"))
    func unreadableFilesSayPermissionDenied() throws {
        let dir = try MediaFixtures.folder("perm")
        try MediaFixtures.write(TurboJPEGCodec.encode(MediaFixtures.noisy(40, 30)), to: dir + "/locked.jpg")
        chmod(dir + "/locked.jpg", 0)
        #expect(reason(dir + "/locked.jpg") == "cannot be read (permission denied)")
    }

    @Test func otherFormatsGoThroughSDLImageAndAreFitted() throws {
        let dir = try MediaFixtures.folder("formats")
        try PNGCodec.write(MediaFixtures.quadrants, to: dir + "/q.png")
        let image = try decoder.decode(ImageSource(path: dir + "/q.png"), fittingIn: box)
        #expect(image.width == 300 && image.height == 150)
        #expect(MediaFixtures.near(MediaFixtures.pixel(image, 20, 20), MediaFixtures.colour(left: true, top: true)))
    }
}

@Suite struct OpacityTests {
    @Test func jpegsAreOpaqueAndOtherImagesAreChecked() throws {
        let photo = SyntheticPhotos.picture(width: 64, height: 48, seed: 3)
        let jpeg = try FittingDecoder().decode(try {
            let path = try MediaFixtures.folder("opaque") + "/p.jpg"
            try MediaFixtures.write(TurboJPEGCodec.encode(photo), to: path)
            return ImageSource(path: path)
        }(), fittingIn: Size(width: 32, height: 24))
        #expect(jpeg.isOpaque, "a JPEG has no alpha, through fitting too")
        var pixels = [UInt8](repeating: 255, count: 4 * 4)
        #expect(PixelImage.allOpaque(pixels))
        pixels[7] = 254
        #expect(!PixelImage.allOpaque(pixels))
    }
}

@Suite struct SizeReaderHoldTests {
    final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var n = 0
        func bump() { lock.withLock { n += 1 } }
        var value: Int { lock.withLock { n } }
    }

    /// A reader over files that take 1 ms each to find: held, it looks at no file more and
    /// hands over what it had read; released, it reads on.
    @Test func aHeldReaderReadsNothingUntilReleased() {
        let looked = Counter()
        let reader = SizeReader(paths: (0..<3000).map { "/nowhere/\($0).jpg" }, locate: { path in
            looked.bump()
            usleep(1000)
            return path
        })
        defer { reader.stop() }
        usleep(30_000)
        reader.setHeld(true)
        // The file being read when it was held is finished, and all read so far handed over.
        var handed = reader.take().count
        let deadline = Date().addingTimeInterval(10)
        while handed < looked.value && Date() < deadline {
            usleep(10_000)
            handed += reader.take().count
        }
        let held = looked.value
        #expect(handed == held, "what was read before the hold is handed over")
        usleep(200_000)
        #expect(looked.value == held, "no file looked at while held")
        #expect(!reader.isDone)
        reader.setHeld(false)
        while looked.value <= held + 10 && Date() < deadline.addingTimeInterval(10) { usleep(10_000) }
        #expect(looked.value > held + 10, "reading went on once released")
    }
}
