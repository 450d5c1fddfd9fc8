@testable import CarouselApp
import CarouselMedia
import Foundation
import TestSupport
import Testing

/// The program with pictures from a web server (the tests' own, on 127.0.0.1): the show a
/// manifest lists, the cached show without the server, what an empty screen says, a kiosk
/// following a manifest's changes with one small request per refresh.
@Suite struct RemoteShowTests {
    static let names = ["a-landscape.bmp", "b-portrait.bmp", "c-square.bmp", "d-panorama.bmp"]

    /// A server holding the fixture pictures under /pics/ and a manifest listing `listed`.
    static func server(listing listed: [String], at manifest: String = "/show.toml") throws -> MisbehavingServer {
        let server = try MisbehavingServer()
        let folder = try Fixtures.imageFolder()
        for name in names {
            server.put("/pics/" + name, Array(FileManager.default.contents(atPath: folder + "/" + name) ?? Data()))
        }
        server.put(manifest, manifestText(listed))
        return server
    }

    static func manifestText(_ paths: [String]) -> [UInt8] {
        Array(paths.map { "[[item]]\npath = \"\($0)\"\n" }.joined().utf8)
    }

    static let script = "snapshot start\ndrag 400 180 240 180 200\nwait 800\nsnapshot moved\n"

    @Test func aWebManifestShowsAsTheSamePicturesInAFolderAndAgainWithoutTheServer() throws {
        let server = try Self.server(listing: Self.names.map { "pics/" + $0 })
        let cache = try Fixtures.temporaryFolder("remote-cache")
        let online = try CarouselBinary.render([server.url("/show.toml")], script: Self.script, options: ["--cache-dir", cache])
        #expect(online.result.status == 0, "\(online.result.stderr)")
        server.stop()
        let offline = try CarouselBinary.render([server.url("/show.toml")], script: Self.script, options: ["--cache-dir", cache])
        #expect(offline.result.status == 0, "\(offline.result.stderr)")
        #expect(offline.result.stderr.contains("Couldn't connect"), "said once: \(offline.result.stderr)")

        let folder = try Fixtures.imageFolder()
        let local = try CarouselBinary.render(Self.names.map { folder + "/" + $0 }, script: Self.script)
        for shot in ["start", "moved"] {
            let l = FileManager.default.contents(atPath: local.out + "/\(shot).png")
            #expect(l != nil && FileManager.default.contents(atPath: online.out + "/\(shot).png") == l, "\(shot): online as local")
            #expect(l != nil && FileManager.default.contents(atPath: offline.out + "/\(shot).png") == l, "\(shot): offline from the cache")
        }
        let events = try String(contentsOfFile: offline.out + "/events.jsonl", encoding: .utf8)
        #expect(!events.contains("load_failed"), "\(events)")
    }

    @Test func anErrorPageOrAMissingPictureFailsAloneAndTheShowGoesOn() throws {
        // /html answers 200 with an HTML page; /missing answers 404.
        let server = try Self.server(listing: ["pics/a-landscape.bmp", "/html", "/missing", "pics/c-square.bmp"])
        defer { server.stop() }
        let r = try CarouselBinary.render([server.url("/show.toml")], script: "snapshot a\nkey right\nwait 600\nsnapshot b\n",
                                          options: ["--start-index", "1", "--cache-dir", try Fixtures.temporaryFolder("remote-bad")])
        #expect(r.result.status == 0, "\(r.result.stderr)")
        let failed = try EventLines(path: r.out + "/events.jsonl").ofType("load_failed")
        let reasons = Dictionary(failed.map { (($0["source"] as? String) ?? "", ($0["reason"] as? String) ?? "") }) { a, _ in a }
        #expect(reasons[server.url("/missing")] == "HTTP 404", "\(reasons)")
        #expect(reasons[server.url("/html")]?.isEmpty == false, "an HTML page is no picture: \(reasons)")
        #expect(reasons.count == 2, "the pictures around them show: \(reasons)")
        // Said in one line, however many parts of the program met it; asked for once.
        #expect(r.result.stderr.components(separatedBy: server.url("/missing") + ": HTTP 404").count == 2, "\(r.result.stderr)")
        #expect(server.requests("/missing") == 1)
    }

    /// `--broken skip` with a web source: a picture whose download fails (404) or is no
    /// picture (an HTML page) is left out as a broken file is, and the show is exactly the
    /// show of the pictures that work.
    @Test func brokenSkipLeavesOutFailedDownloads() throws {
        let server = try Self.server(listing: ["pics/a-landscape.bmp", "/missing", "/html", "pics/c-square.bmp"])
        defer { server.stop() }
        let script = "snapshot s0\nkey right\nwait 600\nsnapshot s1\nkey right\nwait 600\nsnapshot s2\n"
        let web = try CarouselBinary.render([server.url("/show.toml")], script: script,
                                            options: ["--broken", "skip", "--cache-dir", try Fixtures.temporaryFolder("remote-skip")])
        #expect(web.result.status == 0, "\(web.result.stderr)")
        let events = try EventLines(path: web.out + "/events.jsonl")
        #expect(events.ofType("load_failed").count == 2)
        #expect(events.ofType("catalog_changed").map { $0["removed"] as? Int ?? 0 }.reduce(0, +) == 2)
        let folder = try Fixtures.imageFolder()
        let local = try CarouselBinary.render(["a-landscape.bmp", "c-square.bmp"].map { folder + "/" + $0 }, script: script)
        for shot in ["s0", "s1", "s2"] {
            let l = FileManager.default.contents(atPath: local.out + "/\(shot).png")
            #expect(l != nil && FileManager.default.contents(atPath: web.out + "/\(shot).png") == l, "\(shot): as the two pictures that work")
        }
    }

    /// A clip and an animated GIF from a web server play as they do from a folder, from
    /// their cached copies (downloaded whole for their posters): online, and again offline.
    @Test func webClipsAndAnimationsPlayFromTheCacheOnlineAndOffline() throws {
        let dir = try Fixtures.temporaryFolder("web-clips")
        let clip = try ClipFixtures.make(.h264MP4, seconds: [0, 1, 2], in: dir, name: "b")
        let gif = try ClipFixtures.animation(.gif, frames: [0, 1, 2], frameMs: 400, in: dir, name: "c")
        let server = try Self.server(listing: ["pics/a-landscape.bmp", "clips/b.mp4", "clips/c.gif"])
        server.put("/clips/b.mp4", Array(FileManager.default.contents(atPath: clip) ?? Data()))
        server.put("/clips/c.gif", Array(FileManager.default.contents(atPath: gif) ?? Data()))
        let cache = try Fixtures.temporaryFolder("web-clips-cache")
        // On b from 350 ms: its second 0 red, then 1 lime; on c from 2 s: 0.5 s in, lime.
        let script = "key right\nwait 500\nsnapshot b0\nwait 1000\nsnapshot b1\nkey right\nwait 850\nsnapshot c1\n"
        for online in [true, false] {
            if !online { server.stop() }
            let r = try CarouselBinary.render([server.url("/show.toml")], script: script, options: ["--cache-dir", cache])
            #expect(r.result.status == 0, "\(r.result.stderr)")
            let seen = try ["b0", "b1", "c1"].map { try ClipRenderTests.colour(r.out + "/\($0).png") }
            #expect(seen == [0, 1, 1], "online \(online): \(seen)")
            let events = try EventLines(path: r.out + "/events.jsonl")
            #expect(events.ofType("video_started").count == 2, "online \(online)")
            #expect(r.result.stderr.contains(server.url("/clips/b.mp4") + ": playing with "), "named by its URL: \(r.result.stderr)")
        }
    }

    @Test func httpsIsTrustedWithTheCAFileGivenAndRefusedWithout() throws {
        let folder = try Fixtures.imageFolder()
        try Data(Self.manifestText(["c-square.bmp"])).write(to: URL(fileURLWithPath: folder + "/show.toml"))
        let server = try TLSTestServer(serving: folder)
        defer { server.stop() }
        let trusted = try CarouselBinary.render([server.url("/show.toml")], script: "snapshot one\n",
                                                options: ["--ca-file", server.caFile, "--cache-dir", try Fixtures.temporaryFolder("tls-ok")])
        #expect(trusted.result.status == 0, "\(trusted.result.stderr)")
        let local = try CarouselBinary.render([folder + "/c-square.bmp"], script: "snapshot one\n")
        let l = FileManager.default.contents(atPath: local.out + "/one.png")
        #expect(l != nil && FileManager.default.contents(atPath: trusted.out + "/one.png") == l, "\(trusted.result.stderr)")

        let refused = try CarouselBinary.render([server.url("/show.toml")], script: "snapshot none\n",
                                                options: ["--cache-dir", try Fixtures.temporaryFolder("tls-refused")])
        #expect(refused.result.status == 0)
        #expect(refused.result.stderr.lowercased().contains("certificate"), "\(refused.result.stderr)")
        #expect(FileManager.default.contents(atPath: refused.out + "/none.png") != l)
    }

    @Test func theWallReadsTheSizesOfWebPicturesToo() throws {
        let server = try Self.server(listing: Self.names.map { "pics/" + $0 } + ["pics/missing.bmp"])
        defer { server.stop() }
        let web = try CarouselBinary.render([server.url("/show.toml")], script: "snapshot wall\n",
                                            options: ["--view", "mosaic", "--cache-dir", try Fixtures.temporaryFolder("remote-wall")])
        #expect(web.result.status == 0, "\(web.result.stderr)")
        // The same wall as the same pictures in a folder, the missing one a failed tile there too.
        let folder = try Fixtures.imageFolder()
        try Data("not a picture".utf8).write(to: URL(fileURLWithPath: folder + "/missing.bmp"))
        let local = try CarouselBinary.render(Self.names.map { folder + "/" + $0 } + [folder + "/missing.bmp"],
                                              script: "snapshot wall\n", options: ["--view", "mosaic"])
        let l = FileManager.default.contents(atPath: local.out + "/wall.png")
        #expect(l != nil && FileManager.default.contents(atPath: web.out + "/wall.png") == l)
    }

    @Test func withNothingCachedAndNoServerTheScreenSaysWhatItWaitsFor() throws {
        let server = try MisbehavingServer()
        let url = server.url("/show.toml")
        server.stop()
        let r = try CarouselBinary.render([url], script: "snapshot empty\n",
                                          options: ["--cache-dir", try Fixtures.temporaryFolder("remote-empty")])
        #expect(r.result.status == 0, "\(r.result.stderr)")
        // Not a black screen: the message is the only thing on it, and "Waiting for pictures
        // from http://…" lights more than twice the pixels of an empty folder's "No images found".
        let empty = try CarouselBinary.render([try Fixtures.temporaryFolder("empty")], script: "snapshot empty\n")
        let waiting = try Self.litPixels(r.out + "/empty.png"), none = try Self.litPixels(empty.out + "/empty.png")
        #expect(none > 100 && waiting > 2 * none, "\(waiting) pixels lit, \(none) for no images")
        let options = try SourceOptions.parse([url, "/a/folder"])
        #expect(options.emptyMessage == "Waiting for pictures from \(url)", "\(options.emptyMessage)")
        let other = try CarouselBinary.render(["/nonexistent-but-tolerated"], script: "snapshot empty\n")
        #expect(other.result.status != 0, "a local path that is not there is an error; a web one is waited for")
    }

    @Test func anEmptyManifestIsSaidAsAnEmptyFolderOnceTheServerAnswers() throws {
        let server = try Self.server(listing: [])
        defer { server.stop() }
        let url = server.url("/show.toml")
        let options = try SourceOptions.parse([url, "--cache-dir", try Fixtures.temporaryFolder("remote-none-listed")])
        #expect(options.emptyMessage == "Waiting for pictures from \(url)", "before it answers: \(options.emptyMessage)")
        let found = try options.scan(waitForWeb: true, note: { _ in }).sources
        #expect(found.isEmpty && server.requests("/show.toml") == 1)
        #expect(options.emptyMessage == "No images found in \(url)", "after: \(options.emptyMessage)")
    }

    static func litPixels(_ path: String) throws -> Int {
        let image = try SDLImageCodec.decode(path: path)
        let background = Array(image.pixels[0..<4])
        var lit = 0
        for i in stride(from: 0, to: image.pixels.count, by: 4) where Array(image.pixels[i..<i + 4]) != background { lit += 1 }
        return lit
    }

    @Test func theHostnameInAURLGivesEachScreenItsOwnShow() throws {
        let host = ProcessInfo.processInfo.hostName.split(separator: ".").first.map(String.init) ?? ""
        let server = try Self.server(listing: ["../../pics/c-square.bmp"], at: "/kiosks/\(host)/show.toml")
        defer { server.stop() }
        let r = try CarouselBinary.render([server.url("/kiosks/{hostname}/show.toml")], script: "snapshot one\n",
                                          options: ["--cache-dir", try Fixtures.temporaryFolder("remote-host")])
        #expect(r.result.status == 0, "\(r.result.stderr)")
        #expect(server.requests("/pics/c-square.bmp") == 1, "\(r.result.stderr)")
        let bad = try CarouselBinary.render([server.url("/kiosks/{room}/show.toml")], script: "snapshot one\n")
        #expect(bad.result.status != 0 && bad.result.stderr.contains("{room}"), "\(bad.result.stderr)")
    }

    @Test func aKioskFollowsItsManifestWithOneSmallRequestPerRefresh() throws {
        let server = try Self.server(listing: ["pics/a-landscape.bmp", "pics/missing.bmp", "pics/c-square.bmp"])
        defer { server.stop() }
        server.put("/pics/missing.bmp", nil)
        let app = try RunningCarousel(args: [server.url("/show.toml"), "--refresh", "5", "--start-index", "1",
                                             "--cache-dir", try Fixtures.temporaryFolder("remote-kiosk")],
                                      display: "", environment: ["SDL_VIDEODRIVER": "dummy"])
        defer { app.process.terminate() }
        #expect(app.waitFor("source_status", count: 1), "\(app.log)")
        #expect(app.ofType("source_status").first?["state"] as? String == "online")
        // The missing picture fails alone, with the server's answer.
        #expect(app.waitFor("load_failed", count: 1), "\(app.log)")
        let failed = app.ofType("load_failed").first
        #expect((failed?["source"] as? String)?.hasSuffix("/pics/missing.bmp") == true && failed?["reason"] as? String == "HTTP 400",
                "\(String(describing: failed))")
        #expect(app.ofType("download_failed").contains { ($0["url"] as? String)?.hasSuffix("/missing.bmp") == true })
        // An unchanged manifest: one 304 per refresh, no picture asked again.
        let deadline = Date().addingTimeInterval(12)
        while server.notModifiedAnswers("/show.toml") < 1 && Date() < deadline { Thread.sleep(forTimeInterval: 0.1) }
        #expect(server.notModifiedAnswers("/show.toml") >= 1 && server.requests("/show.toml") - server.notModifiedAnswers("/show.toml") == 1)
        #expect(server.requests("/pics/a-landscape.bmp") == 1)
        // A changed one is applied at rest, as a folder's change is.
        server.put("/show.toml", Self.manifestText(["pics/a-landscape.bmp", "pics/c-square.bmp", "pics/d-panorama.bmp"]))
        #expect(app.waitFor("catalog_changed", count: 1, timeout: 12), "\(app.log)")
        let change = app.ofType("catalog_changed").first
        #expect(change?["added"] as? Int == 1 && change?["removed"] as? Int == 1, "\(String(describing: change))")
    }
}
