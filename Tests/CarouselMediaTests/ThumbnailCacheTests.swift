import CarouselCore
import Foundation
import Testing
@testable import CarouselMedia

/// The freedesktop thumbnail cache: names, metadata, stale entries, an unwritable folder,
/// atomic writes, and decoding through it.
@Suite struct ThumbnailCacheTests {
    func folder(_ label: String) throws -> String {
        try MediaFixtures.folder("thumbs-\(label)")
    }

    @Test func md5GivesTheRFCsDigests() {
        #expect(MD5.hex([]) == "d41d8cd98f00b204e9800998ecf8427e")
        #expect(MD5.hex(Array("abc".utf8)) == "900150983cd24fb0d6963f7d28e17f72")
        #expect(MD5.hex(Array("The quick brown fox jumps over the lazy dog".utf8)) == "9e107d9d372bb6826bd81d3542a419d6")
        #expect(MD5.hex(Array(repeating: 0x61, count: 1000)) == "cabe45dcc9ae5b66ba86600cca6b8ba8")
    }

    @Test func namesFollowTheStandard() {
        #expect(ThumbnailCache.uri(for: "/home/kiosk/Photos/a b/ü.jpg") == "file:///home/kiosk/Photos/a%20b/%C3%BC.jpg")
        #expect(ThumbnailCache.uri(for: "/p/x#1?.jpg") == "file:///p/x%231%3F.jpg")
        let cache = ThumbnailCache(directory: "/c/thumbnails")
        // The standard's own example: MD5("file:///home/jens/photos/me.png").
        #expect(cache.path(for: "/home/jens/photos/me.png", size: .large)
                == "/c/thumbnails/large/c6ee772d9e49320e97ec29a7eb5b1697.png")
        #expect(cache.path(for: "/a.jpg", size: .xLarge).contains("/x-large/"))
        #expect(ThumbnailCache.Size.atLeast(372) == .xLarge && ThumbnailCache.Size.atLeast(752) == .xxLarge
                && ThumbnailCache.Size.atLeast(200) == .large && ThumbnailCache.Size.atLeast(5000) == .xxLarge)
        #expect(ThumbnailCache.standardDirectory(environment: ["XDG_CACHE_HOME": "/x", "HOME": "/h"]) == "/x/thumbnails")
        #expect(ThumbnailCache.standardDirectory(environment: ["HOME": "/h"]) == "/h/.cache/thumbnails")
    }

    @Test func aStoredThumbnailIsFoundWithItsMetadataUntilThePictureChanges() throws {
        let dir = try folder("store"), pictures = try folder("pictures")
        let picture = pictures + "/p.jpg"
        try Data([1, 2, 3]).write(to: URL(fileURLWithPath: picture))
        let stamp = try #require(FileStamp.of(picture))
        let cache = ThumbnailCache(directory: dir)
        #expect(cache.lookUp(picture, stamp: stamp, size: .xLarge) == nil)
        cache.store(PixelImage(width: 40, height: 30, fill: (200, 10, 10, 255)), for: picture, stamp: stamp, size: .xLarge)
        let found = try #require(cache.lookUp(picture, stamp: stamp, size: .xLarge))
        #expect(found == cache.path(for: picture, size: .xLarge))
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: found)))
        let texts = try #require(PNGText.read(bytes))
        #expect(texts["Thumb::URI"] == "file://" + picture && texts["Thumb::MTime"] == String(stamp.modified / 1_000_000_000))
        #expect((try? PNGCodec.decode(bytes, fittingIn: Size(width: 40, height: 30), path: found))?.width == 40, "still a PNG")
        let attributes = try FileManager.default.attributesOfItem(atPath: found)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        #expect((try FileManager.default.attributesOfItem(atPath: dir + "/x-large")[.posixPermissions] as? Int) == 0o700)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir + "/x-large").count == 1, "no temporary file left")
        // The picture replaced: its thumbnail is stale, and is made again.
        let later = FileStamp(size: stamp.size, modified: stamp.modified + 5_000_000_000)
        #expect(cache.lookUp(picture, stamp: later, size: .xLarge) == nil)
        cache.store(PixelImage(width: 40, height: 30, fill: (0, 0, 200, 255)), for: picture, stamp: later, size: .xLarge)
        #expect(cache.lookUp(picture, stamp: later, size: .xLarge) != nil)
        #expect(cache.hits == 2 && cache.misses == 2)
    }

    @Test func anUnwritableCacheIsSaidOnceAndNothingFails() throws {
        let warnings = Warnings()
        let cache = ThumbnailCache(directory: "/dev/null/thumbnails", warn: { warnings.add($0) })
        for i in 0..<3 {
            cache.store(PixelImage(width: 4, height: 4, fill: (1, 2, 3, 255)), for: "/p\(i).jpg",
                        stamp: FileStamp(size: 1, modified: 0), size: .large)
        }
        #expect(warnings.lines.count == 1 && warnings.lines[0].contains("/dev/null/thumbnails"), "\(warnings.lines)")
        #expect(cache.lookUp("/p0.jpg", stamp: FileStamp(size: 1, modified: 0), size: .large) == nil)
    }

    @Test func damagedTextChunksAreAMissNotACrash() throws {
        let plain = try PNGCodec.encode(PixelImage(width: 3, height: 2, fill: (1, 2, 3, 255)), path: "test")
        let png = PNGText.inserting([("Thumb::MTime", "12")], into: plain)
        #expect(PNGText.read(plain) == [:])
        #expect(PNGText.read(png)?["Thumb::MTime"] == "12")
        for cut in 0..<png.count { _ = PNGText.read(Array(png[0..<cut])) }
        var random = SeededRandom(seed: 1)
        for _ in 0..<2000 {
            var bytes = png
            bytes[Int(random.next() % UInt64(bytes.count))] = UInt8(random.next() & 0xff)
            _ = PNGText.read(bytes)
        }
        #expect(PNGText.read(Array("not a png".utf8)) == nil)
    }

    /// Decodes `source` at the box asked, counting which paths were decoded.
    final class Counting: ImageDecoding, @unchecked Sendable {
        private let lock = NSLock()
        private(set) var decoded: [String] = []
        func decode(_ source: ImageSource, fittingIn box: Size) throws(ImageError) -> PixelImage {
            lock.withLock { decoded.append(source.path) }
            let s = AspectFit.size(of: Size(width: 1200, height: 800), in: box)
            return PixelImage(width: Int(s.width), height: Int(s.height), fill: (9, 9, 9, 255))
        }
    }

    @Test func theWallDecodesEachPictureOnceThenItsThumbnail() throws {
        let dir = try folder("decoder"), pictures = try folder("pictures")
        let picture = pictures + "/big.jpg"
        try Data([1]).write(to: URL(fileURLWithPath: picture))
        let inner = Counting()
        let decoder = ThumbnailingDecoder(inner: inner, cache: ThumbnailCache(directory: dir), size: .xLarge)
        let first = try decoder.decode(ImageSource(path: picture), fittingIn: Size(width: 300, height: 450))
        #expect(first.width == 300 && first.height == 200, "fitted to the tile from the 512 px thumbnail")
        #expect(inner.decoded == [picture])
        let second = try decoder.decode(ImageSource(path: picture), fittingIn: Size(width: 300, height: 450))
        #expect(second.width == 300)
        #expect(inner.decoded.count == 2 && inner.decoded[1].hasPrefix(dir + "/x-large/"), "the thumbnail, not the picture")
    }

    /// Makes each picture as its name says: "tall" 2:3, else 3:2; records the boxes asked for.
    final class Shaped: ImageDecoding, @unchecked Sendable {
        private let lock = NSLock()
        private(set) var boxes: [Double] = []
        func decode(_ source: ImageSource, fittingIn box: Size) throws(ImageError) -> PixelImage {
            lock.withLock { boxes.append(box.width) }
            let shape = source.path.contains("tall") ? Size(width: 800, height: 1200) : Size(width: 1200, height: 800)
            let s = AspectFit.size(of: shape, in: box)
            return PixelImage(width: Int(s.width), height: Int(s.height), fill: (9, 9, 9, 255))
        }
    }

    /// A tile is a column wide and up to one and a half high: a portrait fills it, so its
    /// thumbnail is the size above the column's; a landscape keeps the column's size.
    @Test func aPortraitInATallTileGetsTheNextThumbnailSizeUp() throws {
        let dir = try folder("portrait"), pictures = try folder("portrait-pictures")
        let (tall, wide) = (pictures + "/tall.png", pictures + "/wide.png")
        try Data(MediaFixtures.pngHeader(claiming: 800, 1200)).write(to: URL(fileURLWithPath: tall))
        try Data(MediaFixtures.pngHeader(claiming: 1200, 800)).write(to: URL(fileURLWithPath: wide))
        let inner = Shaped()
        let decoder = ThumbnailingDecoder(inner: inner, cache: ThumbnailCache(directory: dir), size: .large)
        let box = Size(width: 232, height: 348)
        let portrait = try decoder.decode(ImageSource(path: tall), fittingIn: box)
        let landscape = try decoder.decode(ImageSource(path: wide), fittingIn: box)
        #expect(inner.boxes == [512, 256], "made at 512 px (348 > 256) and at 256 px")
        #expect((portrait.width, portrait.height) == (232, 348) && (landscape.width, landscape.height) == (232, 155))
        #expect(FileManager.default.fileExists(atPath: ThumbnailCache(directory: dir).path(for: tall, size: .xLarge)))
        #expect(FileManager.default.fileExists(atPath: ThumbnailCache(directory: dir).path(for: wide, size: .large)))
    }

    /// The carousel's previews: a thumbnail the wall (or a file manager) made is decoded;
    /// a picture without one fails at once and is never decoded at full size for it.
    @Test func previewsComeOnlyFromThumbnailsAlreadyThere() throws {
        let dir = try folder("previews"), pictures = try folder("preview-pictures")
        let (with, without) = (pictures + "/seen.jpg", pictures + "/unseen.jpg")
        for p in [with, without] { try Data([1]).write(to: URL(fileURLWithPath: p)) }
        let cache = ThumbnailCache(directory: dir)
        cache.store(PixelImage(width: 256, height: 171, fill: (1, 2, 3, 255)), for: with, stamp: FileStamp.of(with)!, size: .large)
        let inner = Counting()
        let previews = CachedThumbnailDecoder(inner: inner, cache: cache)
        let shown = try previews.decode(ImageSource(path: with), fittingIn: Size(width: 512, height: 512))
        #expect(shown.width > 0)
        #expect(inner.decoded.count == 1 && inner.decoded[0].hasPrefix(dir + "/large/"), "the thumbnail: \(inner.decoded)")
        #expect(throws: ImageError.self) { try previews.decode(ImageSource(path: without), fittingIn: Size(width: 512, height: 512)) }
        #expect(inner.decoded.count == 1, "a picture without a thumbnail was decoded: \(inner.decoded)")
        #expect(cache.hits == 0 && cache.misses == 0, "previews are not the wall's hits and misses")
    }

    final class Warnings: @unchecked Sendable {
        private let lock = NSLock()
        private var stored: [String] = []
        func add(_ s: String) { lock.withLock { stored.append(s) } }
        var lines: [String] { lock.withLock { stored } }
    }
}
