@testable import CarouselApp
import CarouselCore
import CarouselMedia
import Foundation
import Testing

/// `--broken skip`, a public screen's choice: a picture that cannot be shown is left out of
/// the carousel and the wall as if it were not there, and still reported once.
@Suite struct BrokenSkipTests {
    /// a (red), b (broken), c (green), d (broken), e (blue).
    static func folder() throws -> String {
        let dir = try Fixtures.temporaryFolder("skip")
        try Fixtures.bmp(400, 300) { _, _ in (220, 40, 40) }.write(to: URL(fileURLWithPath: dir + "/a.bmp"))
        try Data("not a photo\n".utf8).write(to: URL(fileURLWithPath: dir + "/b.jpg"))
        try Fixtures.bmp(400, 300) { _, _ in (40, 200, 60) }.write(to: URL(fileURLWithPath: dir + "/c.bmp"))
        let heic = try Data(contentsOf: URL(fileURLWithPath: ImageDamage.fixtures + "/phone.heic"))
        try heic.prefix(600).write(to: URL(fileURLWithPath: dir + "/d.heic"))
        try Fixtures.bmp(400, 300) { _, _ in (40, 60, 220) }.write(to: URL(fileURLWithPath: dir + "/e.bmp"))
        return dir
    }

    static func pixel(_ path: String, _ x: Int, _ y: Int) throws -> [UInt8] {
        let image = try SDLImageCodec.decode(path: path)
        let i = (y * image.width + x) * 4
        return Array(image.pixels[i..<(i + 3)])
    }

    @Test func theCarouselStepsFromPictureToPictureOverTheBrokenOnes() throws {
        let dir = try Self.folder()
        let script = "snapshot s0\nkey right\nwait 600\nsnapshot s1\nkey right\nwait 600\nsnapshot s2\nkey right\nwait 600\nsnapshot s3\n"
        let (out, r) = try CarouselBinary.render([dir], script: script, options: ["--broken", "skip"], size: "1280x400")
        #expect(r.status == 0, "stderr: \(r.stderr)")
        let events = try EventLines(path: out + "/events.jsonl")
        // Each failure still reported once, as an event and one line.
        let failed = events.ofType("load_failed").compactMap { ($0["source"] as? String)?.split(separator: "/").last.map(String.init) }
        #expect(failed.sorted() == ["b.jpg", "d.heic"])
        for name in ["b.jpg", "d.heic"] { #expect(r.stderr.split(separator: "\n").filter { $0.contains(name) }.count == 1) }
        // Leaving them out is a change of what shows, in the log like a file deleted.
        let changes = events.ofType("catalog_changed")
        #expect(changes.map { $0["removed"] as? Int ?? 0 }.reduce(0, +) == 2, "\(changes)")
        // Three pictures, indices 0 to 2: red, green, blue in the centre; a fourth step stays.
        #expect(events.ofType("settled").compactMap { $0["index"] as? Int } == [1, 2])
        #expect(try Self.pixel(out + "/s0.png", 640, 200) == [220, 40, 40])
        #expect(try Self.pixel(out + "/s1.png", 640, 200) == [40, 200, 60])
        #expect(try Self.pixel(out + "/s2.png", 640, 200) == [40, 60, 220])
        #expect(try Self.pixel(out + "/s3.png", 640, 200) == [40, 60, 220])
        // Never a failed placeholder: every frame's neighbours are pictures or background.
        for frame in ["s0", "s1", "s2"] {
            let image = try SDLImageCodec.decode(path: out + "/\(frame).png")
            #expect(!Self.hasFailedPlaceholder(image), "\(frame) shows a failed placeholder")
        }
    }

    /// The failed placeholder's colour (ViewStyle.failedPlaceholder) anywhere.
    static func hasFailedPlaceholder(_ image: PixelImage) -> Bool {
        stride(from: 0, to: image.pixels.count, by: 4).contains { i in
            image.pixels[i] == 0x4a && image.pixels[i + 1] == 0x30 && image.pixels[i + 2] == 0x30
        }
    }

    @Test func showKeepsTheLabelledPlaceholder() throws {
        let dir = try Self.folder()
        let (out, r) = try CarouselBinary.render([dir], script: "key right\nwait 600\nsnapshot s1\n", options: ["--broken", "show"], size: "1280x400")
        #expect(r.status == 0)
        let events = try EventLines(path: out + "/events.jsonl")
        #expect(events.ofType("catalog_changed").isEmpty)
        #expect(Self.hasFailedPlaceholder(try SDLImageCodec.decode(path: out + "/s1.png")), "b.jpg centred as a failed placeholder")
    }

    /// The wall leaves them out too, and a tap opens the picture tapped (indices of what shows).
    @Test func theWallLeavesThemOutAndTapsOpenWhatShows() throws {
        let dir = try Self.folder()
        let script = "snapshot wall\ntap 640 200\nwait 800\nsnapshot opened\n"
        let (out, r) = try CarouselBinary.render([dir], script: script, options: ["--broken", "skip", "--view", "mosaic", "--columns", "3,3"], size: "1280x720")
        #expect(r.status == 0, "stderr: \(r.stderr)")
        let events = try EventLines(path: out + "/events.jsonl")
        #expect(events.ofType("load_failed").count == 2)
        #expect(!Self.hasFailedPlaceholder(try SDLImageCodec.decode(path: out + "/wall.png")))
        // Three tiles in a row of three: the middle one is c (green), item 1 of what shows.
        let opened = events.ofType("view").first { $0["mode"] as? String == "carousel" }
        #expect(opened?["index"] as? Int == 1, "\(events.ofType("view"))")
        #expect(try Self.pixel(out + "/opened.png", 640, 360) == [40, 200, 60])
    }

    /// Shown as placeholders, a broken picture is said once, also when the wall opens the
    /// carousel on it and the carousel decodes it again (twice before: one event and one
    /// line from each view).
    @Test func aBrokenPictureOpenedFromTheWallIsSaidOnce() throws {
        let dir = try Self.folder()
        let script = "tap 640 200\nwait 800\nsnapshot opened\nkey back\nwait 800\ntap 640 200\nwait 800\n"
        let (out, r) = try CarouselBinary.render([dir], script: script, options: ["--broken", "show", "--view", "mosaic", "--columns", "3,3"],
                                                 size: "1280x720")
        #expect(r.status == 0, "stderr: \(r.stderr)")
        let events = try EventLines(path: out + "/events.jsonl")
        let opened = events.ofType("view").first { $0["mode"] as? String == "carousel" }
        #expect(opened?["index"] as? Int == 1, "b.jpg opened: \(events.ofType("view"))")
        #expect(Self.hasFailedPlaceholder(try SDLImageCodec.decode(path: out + "/opened.png")))
        let failed = events.ofType("load_failed").compactMap { $0["source"] as? String }
        #expect(failed.filter { $0.hasSuffix("/b.jpg") }.count == 1, "\(failed)")
        #expect(r.stderr.components(separatedBy: "b.jpg: ").count - 1 == 1, "one line: \(r.stderr)")
    }

    @Test func aShowOfOnlyBrokenPicturesSaysSo() throws {
        let dir = try Fixtures.temporaryFolder("allbroken")
        try Data("not a photo\n".utf8).write(to: URL(fileURLWithPath: dir + "/x.jpg"))
        let (out, r) = try CarouselBinary.render([dir], script: "snapshot s\n", options: ["--broken", "skip"], size: "640x360")
        #expect(r.status == 0)
        let image = try SDLImageCodec.decode(path: out + "/s.png")
        #expect(!Self.hasFailedPlaceholder(image))
        // The message is drawn in light text on the background.
        #expect(stride(from: 0, to: image.pixels.count, by: 4).contains { image.pixels[$0] > 150 }, "no message drawn")
    }

    /// A broken file is tried again once it changes (a new size or time), not before.
    @Test func aChangedFileIsLetInAgain() {
        let broken = BrokenPictures()
        let old = ImageSource(path: "/p/b.jpg", stamp: FileStamp(size: 12, modified: 100))
        let good = ImageSource(path: "/p/a.jpg", stamp: FileStamp(size: 900, modified: 90))
        broken.record(old)
        #expect(broken.takeNews() && !broken.takeNews())
        #expect(broken.admit([good, old]) == [good])
        #expect(broken.admit([good, old]) == [good], "still out at the next rescan")
        let fixed = ImageSource(path: "/p/b.jpg", stamp: FileStamp(size: 4000, modified: 160))
        #expect(broken.admit([good, fixed]) == [good, fixed])
        #expect(broken.count == 0)
        broken.record(fixed)
        #expect(broken.takeNews())
    }

    @Test func badValuesAreRefused() throws {
        let r = try CarouselBinary.run(["render", "--script", "/dev/null", "--out", "/tmp/x", "--broken", "hide"])
        #expect(r.status == 64)
        #expect(r.stderr.contains("--broken"))
        let p = try CarouselBinary.run(["render", "--script", "/dev/null", "--out", "/tmp/x", "--display-profile", ImageDamage.fixtures + "/baseline.jpg"])
        #expect(p.status == 64)
        #expect(p.stderr.contains("--display-profile") && p.stderr.contains("not an ICC profile"))
    }
}
