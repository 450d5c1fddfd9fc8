import CarouselCore
import CarouselMedia
import Foundation
import Testing

/// Kiosks are fed straight from cameras and USB sticks: every kind of broken file must give
/// a placeholder, one event and one log line, and the show goes on.
@Suite struct BrokenFilesTests {
    @Test func aFolderOfBrokenFilesRendersPlaceholdersAndGoesOn() throws {
        let dir = try Fixtures.temporaryFolder("broken")
        let fm = FileManager.default
        let good = TurboJPEGCodec.encode(PixelImage(width: 400, height: 300, fill: (40, 120, 200, 255)))
        try Data(good).write(to: URL(fileURLWithPath: dir + "/01-good.jpg"))
        try Data().write(to: URL(fileURLWithPath: dir + "/02-empty.jpg"))
        try Data(good.prefix(good.count / 3)).write(to: URL(fileURLWithPath: dir + "/03-truncated.jpg"))
        try Data([0xFF, 0xD8, 0xFF, 0xDB, 0x00, 0x03, 0x00] + [UInt8](repeating: 0xAB, count: 200))
            .write(to: URL(fileURLWithPath: dir + "/04-corrupt.jpg"))
        try Data("not a photo\n".utf8).write(to: URL(fileURLWithPath: dir + "/05-text.jpg"))
        var huge: [UInt8] = [0xFF, 0xD8, 0xFF, 0xC0, 0x00, 0x11, 0x08, 0xEA, 0x60, 0xEA, 0x60, 0x03]
        huge += [UInt8](repeating: 0x11, count: 100)
        try Data(huge).write(to: URL(fileURLWithPath: dir + "/06-huge.jpg"))
        try fm.createSymbolicLink(atPath: dir + "/07-loop.jpg", withDestinationPath: dir + "/07-loop.jpg")
        try Fixtures.bmp(300, 400) { _, _ in (60, 190, 90) }.write(to: URL(fileURLWithPath: dir + "/08-good.bmp"))
        // Deleted after the scan: a manifest still lists it.
        let elsewhere = try Fixtures.temporaryFolder("manifest")
        try "[[item]]\npath = \"gone.jpg\"\n".write(toFile: elsewhere + "/show.toml", atomically: true, encoding: .utf8)
        let before = try fm.contentsOfDirectory(atPath: dir).sorted()

        let script = "snapshot first\n" + String(repeating: "key right\nwait 500\n", count: 9) + "snapshot last\n"
        let (out, r) = try CarouselBinary.render([dir, elsewhere + "/show.toml"], script: script, size: "1280x400")
        #expect(r.status == 0, "stderr: \(r.stderr)")

        let events = try EventLines(path: out + "/events.jsonl")
        let failed = Dictionary(uniqueKeysWithValues: events.ofType("load_failed").map {
            (($0["source"] as? String ?? "").split(separator: "/").last.map(String.init) ?? "", $0["reason"] as? String ?? "")
        })
        #expect(failed == [
            "02-empty.jpg": "is empty (0 bytes)",
            "04-corrupt.jpg": failed["04-corrupt.jpg"].flatMap { $0.hasPrefix("is not a readable JPEG") ? $0 : nil } ?? "?",
            "05-text.jpg": failed["05-text.jpg"].flatMap { $0.hasPrefix("cannot be decoded") ? $0 : nil } ?? "?",
            "06-huge.jpg": "claims 60000x60000 pixels, over the 100 megapixel limit",
            "07-loop.jpg": "is a symbolic link loop",
            "gone.jpg": "no longer exists (deleted or moved after the scan)",
        ])
        #expect(events.ofType("load_failed").count == 6, "one event per broken file")
        // The truncated JPEG shows what arrived (--broken show, the default here), said once.
        let notes = events.ofType("load_note").filter { ($0["source"] as? String ?? "").hasSuffix("/03-truncated.jpg") }
        #expect(notes.count == 1 && (notes.first?["note"] as? String ?? "").hasPrefix("is truncated (the JPEG data ends early): the top "),
                "\(events.ofType("load_note"))")
        #expect(r.stderr.split(separator: "\n").filter { $0.contains("03-truncated.jpg") }.count == 1)
        for name in failed.keys {
            #expect(r.stderr.split(separator: "\n").filter { $0.contains(name) }.count == 1, "one log line for \(name)")
        }
        #expect(events.ofType("settled").last?["index"] as? Int == 8, "the carousel went on to the last item")
        #expect(try fm.contentsOfDirectory(atPath: dir).sorted() == before, "nothing written into the image folder")
        #expect(fm.fileExists(atPath: out + "/first.png") && fm.fileExists(atPath: out + "/last.png"))
    }

    /// A JPEG cut at 60 %: under --broken show its top shows, the rest transparent as in a
    /// transparent PNG (the item's card where it has one, else, as here, the view's
    /// background); under --broken skip it is left out as it always was.
    @Test func aTruncatedJPEGShowsItsTopOrIsLeftOut() throws {
        let dir = try Fixtures.temporaryFolder("truncated")
        try Fixtures.bmp(400, 300) { _, _ in (60, 190, 90) }.write(to: URL(fileURLWithPath: dir + "/a.bmp"))
        let whole = TurboJPEGCodec.encode(PixelImage(width: 400, height: 300, fill: (220, 40, 40, 255)), quality: 100)
        try Data(whole.prefix(whole.count * 6 / 10)).write(to: URL(fileURLWithPath: dir + "/b.jpg"))
        try Fixtures.bmp(400, 300) { _, _ in (60, 190, 90) }.write(to: URL(fileURLWithPath: dir + "/c.bmp"))
        let (shown, r) = try CarouselBinary.render([dir], script: "snapshot s\n", options: ["--start-index", "1", "--background", "#203040", "--border", "0"],
                                                   size: "640x360")
        #expect(r.status == 0, "\(r.stderr)")
        let top = try BrokenSkipTests.pixel(shown + "/s.png", 320, 110), bottom = try BrokenSkipTests.pixel(shown + "/s.png", 320, 260)
        #expect(top[0] > 180 && top[1] < 90, "its top, red: \(top)")
        #expect(abs(Int(bottom[0]) - 0x20) <= 4 && abs(Int(bottom[2]) - 0x40) <= 4, "below the cut, the background: \(bottom)")
        let (skipped, s) = try CarouselBinary.render([dir], script: "snapshot s\n", options: ["--start-index", "1", "--broken", "skip"],
                                                     size: "640x360")
        #expect(s.status == 0, "\(s.stderr)")
        let events = try EventLines(path: skipped + "/events.jsonl")
        #expect(events.ofType("load_failed").map { $0["reason"] as? String } == ["is truncated (the JPEG data ends early)"])
        #expect(events.ofType("catalog_changed").map { $0["removed"] as? Int ?? 0 }.reduce(0, +) == 1)
    }

    /// The GIF that crashed SDL_image 2.6.3 and the PNG that hung it, between good pictures:
    /// `carousel render` steps over them, each fails once, and the pictures around them show.
    @Test func theFilesThatBrokeSDLImageFailOnceAndTheirNeighboursShow() throws {
        let dir = try Fixtures.temporaryFolder("hostile")
        try Fixtures.bmp(800, 300) { _, _ in (220, 40, 40) }.write(to: URL(fileURLWithPath: dir + "/a.bmp"))
        try FileManager.default.copyItem(atPath: ImageDamage.hostile + "/crashes-sdl-image-2.6.3.gif", toPath: dir + "/b.gif")
        try FileManager.default.copyItem(atPath: ImageDamage.hostile + "/hangs-sdl-image-2.6.3.png", toPath: dir + "/c.png")
        try Fixtures.bmp(800, 300) { _, _ in (40, 200, 60) }.write(to: URL(fileURLWithPath: dir + "/d.bmp"))
        let script = "key right\nwait 500\nsnapshot on-gif\nkey right\nwait 500\nsnapshot on-png\nkey right\nwait 500\n"
        let (out, r) = try CarouselBinary.render([dir], script: script, size: "1280x400")
        #expect(r.status == 0, "stderr: \(r.stderr)")
        let events = try EventLines(path: out + "/events.jsonl")
        let failed = events.ofType("load_failed").compactMap { ($0["source"] as? String)?.split(separator: "/").last.map(String.init) }
        #expect(failed.sorted() == ["b.gif", "c.png"], "\(events.ofType("load_failed"))")
        #expect(events.ofType("settled").last?["index"] as? Int == 3)
        // Centred on the GIF, red a.bmp shows on the left; on the PNG, green d.bmp on the right.
        let onGIF = try SDLImageCodec.decode(path: out + "/on-gif.png"), onPNG = try SDLImageCodec.decode(path: out + "/on-png.png")
        func pixel(_ image: PixelImage, _ x: Int, _ y: Int) -> [UInt8] {
            let i = (y * image.width + x) * 4
            return Array(image.pixels[i..<(i + 3)])
        }
        #expect(pixel(onGIF, 100, 200) == [220, 40, 40], "left of the GIF: \(pixel(onGIF, 100, 200))")
        #expect(pixel(onPNG, 1180, 200) == [40, 200, 60], "right of the PNG: \(pixel(onPNG, 1180, 200))")
    }
}
