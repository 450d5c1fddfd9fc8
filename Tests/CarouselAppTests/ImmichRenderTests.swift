import CarouselCore
import Foundation
import Testing
import TestSupport

/// `carousel render` and the command line with an Immich library, as a user would give it:
/// an album's pictures downloaded from the (fake) server and shown; a missing key file or an
/// --immich- option without --immich is one line and a non-zero exit.
@Suite struct ImmichRenderTests {
    /// A JPEG of one colour, 320 x 240, by ImageMagick.
    static func jpeg(_ colour: String) throws -> [UInt8] {
        let dir = try Fixtures.temporaryFolder("immich-jpeg")
        let p = Process()
        p.executableURL = try OutsideProgram.convert.url
        p.arguments = ["-size", "320x240", "xc:\(colour)", dir + "/a.jpg"]
        try p.run()
        p.waitUntilExit()
        return [UInt8](try Data(contentsOf: URL(fileURLWithPath: dir + "/a.jpg")))
    }

    /// A fake server with the album "Garden" (`album`), a folder holding the key's file, and
    /// the options that show the album from it.
    static func garden(_ name: String) throws -> (server: FakeImmich, dir: String, options: [String]) {
        let key = name + "-key-" + UUID().uuidString
        let server = try FakeImmich(key: key)
        server.addAlbum(id: album, name: "Garden")
        let dir = try Fixtures.temporaryFolder("immich-" + name)
        try key.write(toFile: dir + "/immich.key", atomically: true, encoding: .utf8)
        return (server, dir, ["--immich", server.url, "--immich-key-file", dir + "/immich.key", "--immich-album", "Garden",
                              "--cache-dir", dir + "/cache"])
    }

    static let album = "00000000-0000-4000-8000-000000000001"

    @Test func anAlbumsPicturesAreShownFromTheServer() throws {
        let (server, _, options) = try Self.garden("render")
        defer { server.stop() }
        for (n, colour) in ["red", "lime", "blue"].enumerated() {
            var a = FakeImmich.Asset(id: "00000000-0000-4000-8000-00000000001\(n)", name: "\(colour).jpg",
                                     preview: try Self.jpeg(colour), original: try Self.jpeg(colour))
            a.albums = n < 2 ? [Self.album] : []
            server.add(a)
        }
        let (out, r) = try CarouselBinary.render([], script: "snapshot a\nkey right\nwait 1000\nsnapshot b\n", options: options)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try ClipRenderTests.colour(out + "/a.png") == 0, "the album's first picture, red")
        #expect(try ClipRenderTests.colour(out + "/b.png") == 1, "then its second, lime")
        let events = try String(contentsOfFile: out + "/events.jsonl", encoding: .utf8)
        #expect(!r.stderr.contains(server.key) && !events.contains(server.key), "the key is in no line and no event")
        #expect(server.requests("/api/search/metadata") >= 1 && server.keys == [server.key])
    }

    /// An album Grandma owns and shared with the frame's account and an aunt (issue 60):
    /// given by name, it shows whole from the frame's account, each member's picture.
    @Test func anAlbumSharedWithTheFramesAccountShowsEveryMembersPictures() throws {
        let (server, _, options) = try Self.garden("shared")
        defer { server.stop() }
        let shared = "00000000-0000-4000-8000-000000000002"
        server.addAlbum(id: shared, name: "Grandma's garden", owner: "u2", members: [FakeImmich.me, "u3"])
        for (n, (colour, owner)) in [("red", "u2"), ("lime", "u3"), ("blue", FakeImmich.me)].enumerated() {
            var a = FakeImmich.Asset(id: "00000000-0000-4000-8000-00000000003\(n)", name: "\(colour).jpg",
                                     preview: try Self.jpeg(colour), original: try Self.jpeg(colour))
            a.owner = owner
            a.albums = [shared]
            a.takenOn = "0\(n + 1)-10"
            server.add(a)
        }
        let args = options.map { $0 == "Garden" ? "grandma's garden" : $0 }
        let (out, r) = try CarouselBinary.render([], script: "snapshot a\nkey right\nwait 1000\nsnapshot b\nkey right\nwait 1000\nsnapshot c\n",
                                                 options: args)
        #expect(r.status == 0, "\(r.stderr)")
        let shown = try ["a", "b", "c"].map { try ClipRenderTests.colour(out + "/\($0).png") }
        #expect(Set(shown) == [0, 1, 2], "red, lime and blue, each member's: \(shown)\n\(r.stderr)")
    }

    /// A video in the album plays as a clip, downloaded with the key: its frames in its colours.
    @Test func anAlbumsVideoPlaysAsAClip() throws {
        let (server, dir, options) = try Self.garden("video")
        defer { server.stop() }
        let clip = try ClipFixtures.make(.h264MP4, seconds: [1, 2], in: dir, name: "clip")
        var a = FakeImmich.Asset(id: "00000000-0000-4000-8000-000000000020", name: "PXL_1.mp4", preview: try Self.jpeg("gray"),
                                 original: [UInt8](try Data(contentsOf: URL(fileURLWithPath: clip))))
        a.video = a.original
        a.albums = [Self.album]
        server.add(a)
        let (out, r) = try CarouselBinary.render([], script: "wait 500\nsnapshot s0\nwait 1000\nsnapshot s1\n", options: options)
        #expect(r.status == 0, "\(r.stderr)")
        let events = try String(contentsOfFile: out + "/events.jsonl", encoding: .utf8)
        #expect(events.contains("\"type\":\"video_started\""), "the video played: \(r.stderr)")
        #expect(try ClipRenderTests.colour(out + "/s0.png") == 1 && ClipRenderTests.colour(out + "/s1.png") == 2,
                "its seconds in their colours")
    }

    /// A Live Photo's motion (its hidden video asset) plays over its still on arrival, once.
    @Test func aLivePhotosMotionPlaysOnArrival() throws {
        let (server, dir, options) = try Self.garden("live")
        defer { server.stop() }
        let clip = try ClipFixtures.make(.h264MP4, seconds: [0, 1], in: dir, name: "motion")
        var a = FakeImmich.Asset(id: "00000000-0000-4000-8000-000000000030", name: "IMG_1234.HEIC", preview: try Self.jpeg("gray"),
                                 original: try Self.jpeg("gray"))
        a.livePhoto = ("00000000-0000-4000-8000-000000000031", [UInt8](try Data(contentsOf: URL(fileURLWithPath: clip))))
        a.albums = [Self.album]
        server.add(a)
        let (out, r) = try CarouselBinary.render([], script: "wait 300\nsnapshot s0\nwait 1000\nsnapshot s1\nwait 2000\nsnapshot s2\n",
                                                 options: options)
        #expect(r.status == 0, "\(r.stderr)")
        let events = try String(contentsOfFile: out + "/events.jsonl", encoding: .utf8)
        #expect(events.contains("\"type\":\"video_started\"") && events.contains("\"type\":\"video_ended\""), "it played once: \(events)")
        let seen = try ["s0", "s1", "s2"].map { try ClipRenderTests.colour(out + "/\($0).png") }
        #expect(seen == [0, 1, nil], "red, lime, then the grey still: \(seen)")
    }

    /// Immich's own facts in the caption (when, where, who), drawn as a title saying the same
    /// would be; `--taken` keeps the pictures Immich dates then.
    @Test func whenWhereAndWhoFromImmichCaptionAndFilter() throws {
        let (server, dir, options) = try Self.garden("facts")
        defer { server.stop() }
        server.addPerson(id: "00000000-0000-4000-8000-000000000099", name: "Grandma")
        let red = try Self.jpeg("red"), lime = try Self.jpeg("lime")
        for (n, (picture, year)) in [(red, 2019), (lime, 2023)].enumerated() {
            var a = FakeImmich.Asset(id: "00000000-0000-4000-8000-00000000004\(n)", name: "IMG_\(n).jpg", preview: picture, original: picture)
            a.albums = [Self.album]
            a.year = year
            a.takenOn = "07-14"
            a.people = n == 0 ? ["00000000-0000-4000-8000-000000000099"] : []
            server.add(a)
        }
        try Data(red).write(to: URL(fileURLWithPath: dir + "/red.jpg"))
        try "[[item]]\npath = \"red.jpg\"\ntitle = \"Sunday 14 July 2019 · Lisbon, Portugal · Grandma\"\n"
            .write(toFile: dir + "/said.toml", atomically: true, encoding: .utf8)
        let script = "wait 200\nsnapshot a\nkey right\nwait 800\nsnapshot b\n"
        let (formatted, r1) = try CarouselBinary.render([], script: script,
                                                        options: options + ["--taken", "2019", "--caption-format", "{date:%A %-d %B %Y} · {place} · {people}"],
                                                        environment: ["LANG": "C.UTF-8"])
        let (titled, r2) = try CarouselBinary.render([dir + "/said.toml"], script: script, options: ["--captions", "title"])
        #expect(r1.status == 0 && r2.status == 0, "\(r1.stderr) \(r2.stderr)")
        let ours = try ClockRenderTests.image(formatted, "a"), expected = try ClockRenderTests.image(titled, "a")
        #expect(ClockRenderTests.difference(ours, expected) == nil, "the caption differs from the title saying it")
        #expect(try ClipRenderTests.colour(formatted + "/b.png") == 0, "only 2019's picture, red, is in the show")
    }

    @Test func aMissingKeyFileOrAnOptionWithoutTheServerIsOneLine() throws {
        for (args, said) in [(["--immich", "http://127.0.0.1:9"], "--immich-key-file"),
                             (["--immich", "http://127.0.0.1:9", "--immich-key-file", "/nonexistent/key"], "/nonexistent/key"),
                             (["--immich-album", "Garden"], "need --immich"),
                             (["--immich", "ftp://x", "--immich-key-file", "/etc/hostname"], "http:// or https://")] {
            let r = try CarouselBinary.run(["render", "--script", "/dev/null", "--out", try Fixtures.temporaryFolder("immich-bad")] + args)
            #expect(r.status != 0 && r.stderr.contains(said), "\(args): \(r.stderr)")
            #expect(r.stderr.split(separator: "\n").filter { !$0.isEmpty && !$0.hasPrefix("Usage") && !$0.contains("See '") }.count <= 2,
                    "\(r.stderr)")
        }
    }
}
