import CarouselCore
import CarouselMedia
import Foundation
import Testing
import TestSupport
@testable import CarouselApp

/// An animated GIF, WebP or PNG in the carousel, rendered headless: arriving on it plays its
/// frames with their own delays, as often as the file says (for ever, or once and then its
/// last frame stays); `--motion off` keeps it still; what a frame leaves transparent shows
/// what is behind the picture, not its still.
@Suite struct AnimationRenderTests {
    /// A grey picture, the animation (red, lime, blue, 400 ms each), a grey picture.
    static func folder(_ format: ClipFixtures.Animated = .gif, loop: Int = 0) throws -> String {
        let dir = try Fixtures.temporaryFolder("animation")
        try Fixtures.bmp(320, 240) { _, _ in (90, 90, 90) }.write(to: URL(fileURLWithPath: dir + "/a.bmp"))
        try ClipFixtures.animation(format, frames: [0, 1, 2], frameMs: 400, loop: loop, in: dir, name: "b")
        try Fixtures.bmp(320, 240) { _, _ in (90, 90, 90) }.write(to: URL(fileURLWithPath: dir + "/c.bmp"))
        return dir
    }

    /// On it 150 ms after it rests, then every 400 ms.
    static let script = "key right\nwait 500\nsnapshot s0\nwait 400\nsnapshot s1\nwait 400\nsnapshot s2\nwait 400\nsnapshot s3\n"

    static func seen(_ out: String) throws -> [Int?] {
        try ["s0", "s1", "s2", "s3"].map { try ClipRenderTests.colour(out + "/\($0).png") }
    }

    @Test(arguments: ClipFixtures.Animated.allCases)
    func itPlaysItsFramesAndLoopsForEver(format: ClipFixtures.Animated) throws {
        let (out, r) = try CarouselBinary.render([try Self.folder(format)], script: Self.script)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try Self.seen(out) == [0, 1, 2, 0], "\(format)")
        let events = try String(contentsOfFile: out + "/events.jsonl", encoding: .utf8)
        let decoder = ["gif": "giflib", "webp": "libwebp", "apng": "libspng (APNG)"][format.rawValue] ?? ""
        #expect(events.contains("\"type\":\"video_started\",\"index\":1,\"decoder\":\"\(decoder)\""), "\(events)")
    }

    @Test func playedOnceItsLastFrameStays() throws {
        let (out, r) = try CarouselBinary.render([try Self.folder(loop: -1)], script: Self.script)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try Self.seen(out) == [0, 1, 2, 2])
        #expect(try String(contentsOfFile: out + "/events.jsonl", encoding: .utf8).contains("\"type\":\"video_ended\",\"index\":1"))
    }

    /// `bytes` (a WebP from ffmpeg: RIFF, VP8X, ANIM…) with `profile` in an ICCP chunk after VP8X.
    static func withICC(webp bytes: [UInt8], _ profile: [UInt8]) -> [UInt8] {
        func le32(_ v: Int) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: v >> (8 * $0)) } }
        var b = bytes
        b[20] |= 0x20  // VP8X: an ICC profile follows
        let chunk = Array("ICCP".utf8) + le32(profile.count) + profile + (profile.count % 2 == 1 ? [0] : [])
        b.insert(contentsOf: chunk, at: 12 + 8 + 10)
        b.replaceSubrange(4..<8, with: le32(b.count - 8))
        return b
    }

    /// `bytes` (an APNG) with a gAMA chunk after IHDR saying `gamma` (100000: linear).
    static func withGamma(png bytes: [UInt8], _ gamma: Int) -> [UInt8] {
        func be32(_ v: Int) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: v >> (24 - 8 * $0)) } }
        var table = [UInt32](repeating: 0, count: 256)
        for n in 0..<256 { var c = UInt32(n); for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }; table[n] = c }
        let body = Array("gAMA".utf8) + be32(gamma)
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in body { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        var b = bytes
        b.insert(contentsOf: be32(4) + body + be32(Int(crc ^ 0xFFFF_FFFF)), at: 8 + 25)
        return b
    }

    /// An animated WebP with an Adobe RGB profile and an APNG saying gamma 1.0: each frame
    /// shows in the colours its still shows in (the file's own, converted), not as stored.
    @Test(arguments: [ClipFixtures.Animated.webp, .apng])
    func framesShowInTheirFilesColours(format: ClipFixtures.Animated) throws {
        let dir = try Fixtures.temporaryFolder("animation-colour")
        try Fixtures.bmp(320, 240) { _, _ in (90, 90, 90) }.write(to: URL(fileURLWithPath: dir + "/a.bmp"))
        let made = try ClipFixtures.animation(format, frames: [4, 0, 4], frameMs: 400, in: dir + "/..", name: "made-\(UUID().uuidString)")
        let stored = [UInt8](try Data(contentsOf: URL(fileURLWithPath: made)))
        let tagged = format == .webp
            ? Self.withICC(webp: stored, [UInt8](try Data(contentsOf: URL(fileURLWithPath: "/usr/share/color/icc/colord/AdobeRGB1998.icc"))))
            : Self.withGamma(png: stored, 100_000)
        let path = dir + "/b." + (format == .webp ? "webp" : "png")
        try Data(tagged).write(to: URL(fileURLWithPath: path))
        try Fixtures.bmp(320, 240) { _, _ in (90, 90, 90) }.write(to: URL(fileURLWithPath: dir + "/c.bmp"))
        // The still, as the program shows it: through the file's colour.
        let still = try FittingDecoder().decode(tagged, name: path, fittingIn: Size(width: 320, height: 240))
        let i = (120 * still.width + 160) * 4
        let expected = (Int(still.pixels[i]), Int(still.pixels[i + 1]), Int(still.pixels[i + 2]))
        #expect(abs(expected.0 - 128) + abs(expected.1 - 96) + abs(expected.2 - 64) > 15, "the file's colour moves it: \(expected)")
        let (out, r) = try CarouselBinary.render([dir], script: "key right\nwait 500\nsnapshot s0\n")
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try String(contentsOfFile: out + "/events.jsonl", encoding: .utf8).contains("video_started"), "it played")
        let shown = try BrokenSkipTests.pixel(out + "/s0.png", 320, 180).map(Int.init)
        #expect(abs(shown[0] - expected.0) <= 3 && abs(shown[1] - expected.1) <= 3 && abs(shown[2] - expected.2) <= 3,
                "\(format): the frame \(shown) against its still \(expected)")
    }

    /// An animated WebP whose EXIF says it is turned (orientation 6, as a phone's): its
    /// frames show upright as its still does, a 320 x 240 landscape as a portrait whose
    /// top half (the stored left) is blue.
    @Test func anAnimatedWebPsFramesTurnAsItsStillDoes() throws {
        let dir = try Fixtures.temporaryFolder("animation-turned")
        try Fixtures.bmp(320, 240) { _, _ in (90, 90, 90) }.write(to: URL(fileURLWithPath: dir + "/a.bmp"))
        let made = try ClipFixtures.animation(.webp, frames: [0, 1, 0], frameMs: 400, in: dir + "/..", name: "turned-\(UUID().uuidString)",
                                              leftBlue: true)
        func le32(_ v: Int) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: v >> (8 * $0)) } }
        var b = [UInt8](try Data(contentsOf: URL(fileURLWithPath: made)))
        // EXIF (little-endian TIFF, one entry: orientation 6) as a chunk at the end, flagged in VP8X.
        let exif: [UInt8] = Array("II*\0".utf8) + le32(8) + [1, 0, 0x12, 0x01, 3, 0] + le32(1) + [6, 0, 0, 0] + le32(0)
        b[20] |= 0x08
        b += Array("EXIF".utf8) + le32(exif.count) + exif
        b.replaceSubrange(4..<8, with: le32(b.count - 8))
        try Data(b).write(to: URL(fileURLWithPath: dir + "/b.webp"))
        try Fixtures.bmp(320, 240) { _, _ in (90, 90, 90) }.write(to: URL(fileURLWithPath: dir + "/c.bmp"))
        let still = try FittingDecoder().decode(b, name: "b.webp", fittingIn: Size(width: 240, height: 320))
        #expect(still.width == 240 && still.height == 320, "the still is upright: \(still.width)x\(still.height)")
        let (out, r) = try CarouselBinary.render([dir], script: "key right\nwait 500\nsnapshot s0\n")
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try String(contentsOfFile: out + "/events.jsonl", encoding: .utf8).contains("video_started"), "it played")
        // The portrait picture's upper and lower parts, in the centre column of a 640 x 360 view.
        let top = try ClipRenderTests.colour(out + "/s0.png", 320, 110), bottom = try ClipRenderTests.colour(out + "/s0.png", 320, 250)
        #expect(top == 2 && bottom == 0, "blue above red, as the still: \(String(describing: top)), \(String(describing: bottom))")
    }

    @Test func motionOffKeepsItStill() throws {
        let (out, r) = try CarouselBinary.render([try Self.folder()], script: Self.script, options: ["--motion", "off"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try Self.seen(out) == [0, 0, 0, 0])
        #expect(try !String(contentsOfFile: out + "/events.jsonl", encoding: .utf8).contains("video_started"))
    }

    /// A red first frame cleared after it (disposal 2), then a lime corner: the middle is
    /// what lies behind a picture there (as a wholly transparent picture shows it), not the
    /// red still.
    @Test func whatAFrameLeavesTransparentIsNotTheStill() throws {
        let dir = try Fixtures.temporaryFolder("animation-clear")
        try Data(HandMadeGIF.make(width: 32, height: 24, frames: [
            .fill(0, width: 32, height: 24, disposal: 2, delay: 40),
            .fill(1, width: 4, height: 4, delay: 40),
        ])).write(to: URL(fileURLWithPath: dir + "/clear.gif"))
        let empty = try Fixtures.temporaryFolder("animation-empty")
        try Data(HandMadeGIF.make(width: 32, height: 24, frames: [.fill(3, width: 32, height: 24, transparent: 3)]))
            .write(to: URL(fileURLWithPath: empty + "/empty.gif"))
        let (out, r) = try CarouselBinary.render([dir], script: "wait 200\nsnapshot first\nwait 400\nsnapshot second\n")
        #expect(r.status == 0, "\(r.stderr)")
        let (behind, r2) = try CarouselBinary.render([empty], script: "wait 200\nsnapshot s\n")
        #expect(r2.status == 0, "\(r2.stderr)")
        #expect(try ClipRenderTests.colour(out + "/first.png") == 0, "the red first frame")
        let middle = try BrokenSkipTests.pixel(out + "/second.png", 320, 180)
        let expected = try BrokenSkipTests.pixel(behind + "/s.png", 320, 180)
        #expect(middle == expected, "what lies behind the picture (\(expected)) shows where the second frame is transparent, not \(middle)")
    }
}

/// Animated pictures in the wall's tiles, rendered headless: the first on screen play, at
/// most `TileAnimations.budget` at once (two here), each cut to its tile; the rest show
/// their stills. Read from the thumbnail cache, a tile still knows it moves.
@Suite struct WallAnimationRenderTests {
    /// Grey pictures with three animations (red, lime, blue, 400 ms each) at items 1, 3 and 5.
    static func folder() throws -> String {
        let dir = try Fixtures.temporaryFolder("wall-animation")
        for name in ["a", "c", "e", "g", "h"] {
            try Fixtures.bmp(320, 240) { _, _ in (90, 90, 90) }.write(to: URL(fileURLWithPath: dir + "/\(name).bmp"))
        }
        for name in ["b", "d", "f"] { try ClipFixtures.animation(.gif, frames: [0, 1, 2], frameMs: 400, in: dir, name: name) }
        return dir
    }

    static let script = "wait 150\nsnapshot s0\nwait 400\nsnapshot s1\nwait 400\nsnapshot s2\n"
    static let options = ["--view", "mosaic", "--columns", "4,4"]
    /// The centres of tiles 1, 3 and 5 of that wall at 960×540.
    static let centres = [(361, 95), (835, 95), (361, 275)]

    /// Each tile's colours at the three snapshots.
    static func seen(_ out: String) throws -> [[Int?]] {
        try centres.map { c in try ["s0", "s1", "s2"].map { try ClipRenderTests.colour(out + "/\($0).png", c.0, c.1) } }
    }

    static func started(_ out: String) throws -> Int {
        try String(contentsOfFile: out + "/events.jsonl", encoding: .utf8).components(separatedBy: "\"video_started\"").count - 1
    }

    @Test func theFirstAnimatedTilesPlayWithinTheBudget() throws {
        #expect(TileAnimations.budget == 2, "this machine has two cores or more")
        let (out, r) = try CarouselBinary.render([try Self.folder()], script: Self.script, options: Self.options, size: "960x540")
        #expect(r.status == 0, "\(r.stderr)")
        let seen = try Self.seen(out)
        #expect(seen[0] == [0, 1, 2] && seen[1] == [0, 1, 2], "the first two play: \(seen)")
        #expect(seen[2] == [0, 0, 0], "the third shows its still: \(seen)")
        #expect(try Self.started(out) == 2)
    }

    @Test func fromTheThumbnailCacheATileStillKnowsItMoves() throws {
        let dir = try Self.folder()
        let cache = try Fixtures.temporaryFolder("wall-animation-thumbnails")
        let options = Self.options + ["--thumbnail-cache", cache]
        for run in ["made", "read"] {
            let (out, r) = try CarouselBinary.render([dir], script: Self.script, options: options, size: "960x540")
            #expect(r.status == 0, "\(r.stderr)")
            let seen = try Self.seen(out)
            #expect(seen[0] == [0, 1, 2] && seen[1] == [0, 1, 2] && seen[2] == [0, 0, 0], "thumbnails \(run): \(seen)")
            #expect(try Self.started(out) == 2, "thumbnails \(run)")
        }
        let thumbnails = try FileManager.default.subpathsOfDirectory(atPath: cache).filter { $0.hasSuffix(".png") }
        let marked = try thumbnails.filter { try Data(contentsOf: URL(fileURLWithPath: cache + "/" + $0)).range(of: Data("X-KioskCarousel-Animated".utf8)) != nil }
        #expect(marked.count == 3 && thumbnails.count == 8, "\(marked.count) of \(thumbnails.count) thumbnails marked")
    }

    @Test func motionOffKeepsTheTilesStill() throws {
        let (out, r) = try CarouselBinary.render([try Self.folder()], script: Self.script, options: Self.options + ["--motion", "off"],
                                                 size: "960x540")
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try Self.seen(out).allSatisfy { $0 == [0, 0, 0] })
        #expect(try Self.started(out) == 0)
    }
}

