import CarouselCore
import Foundation
import Testing
import TestSupport

/// `carousel render` with a WebDAV folder, as a user would give it: a Nextcloud-like
/// `dav://` address and the login in a netrc file, against Apache httpd with mod_dav on
/// loopback; an address with a login in it or a netrc file that is not there is one line
/// and a non-zero exit.
@Suite(.enabled(if: RequiredTools.run(missing: DAVServer.unavailableReason), "apache2 missing; run kiosk/setup"))
struct DAVRenderTests {
    @Test func aFoldersPicturesAndClipsAreShownFromTheServer() throws {
        let server = try DAVServer()
        defer { server.stop() }
        let dir = try Fixtures.temporaryFolder("dav-render")
        try server.put("/Photos/1 red.jpg", try ImmichRenderTests.jpeg("red"))
        try server.put("/Photos/Holidays 2024/2 lime.jpg", try ImmichRenderTests.jpeg("lime"))
        let clip = try ClipFixtures.make(.h264MP4, seconds: [2, 0], in: dir, name: "clip")
        try server.put("/Photos/Holidays 2024/3 clip.mp4", [UInt8](try Data(contentsOf: URL(fileURLWithPath: clip))))
        let options = ["--netrc", server.netrc, "--cache-dir", dir + "/cache", "--captions", "title"]
        let (out, r) = try CarouselBinary.render([server.address("/Photos")],
                                                 script: "snapshot a\nkey right\nwait 1000\nsnapshot b\nkey right\nwait 700\nsnapshot c\nwait 1000\nsnapshot d\n",
                                                 options: options)
        #expect(r.status == 0, "\(r.stderr)")
        let seen = try ["a", "b", "c", "d"].map { try ClipRenderTests.colour(out + "/\($0).png") }
        #expect(seen == [0, 1, 2, 0], "red, then the sub-folder's lime, then its clip's blue second and red one: \(seen)")
        let events = try String(contentsOfFile: out + "/events.jsonl", encoding: .utf8)
        #expect(events.contains("\"type\":\"video_started\""), "the clip played: \(r.stderr)")
        #expect(!r.stderr.contains(DAVServer.password) && !events.contains(DAVServer.password), "the password is in no line and no event")
        // Nothing of the user's is written: the downloads are in the cache only.
        #expect(FileManager.default.fileExists(atPath: dir + "/cache/remote/index.json"))
    }

    @Test func aLoginInTheAddressOrAMissingNetrcIsOneLine() throws {
        for (args, said) in [(["davs://anna:secret@cloud.example/Photos"], "netrc"),
                             (["--netrc", "/nonexistent/netrc", "davs://cloud.example/Photos"], "/nonexistent/netrc"),
                             (["davs:///Photos"], "not a WebDAV address")] {
            let r = try CarouselBinary.run(["render", "--script", "/dev/null", "--out", try Fixtures.temporaryFolder("dav-bad")] + args)
            #expect(r.status != 0 && r.stderr.contains(said), "\(args): \(r.stderr)")
            #expect(!r.stderr.contains("secret"), "\(r.stderr)")
            #expect(r.stderr.split(separator: "\n").filter { !$0.isEmpty && !$0.hasPrefix("Usage") && !$0.contains("See '") }.count <= 2,
                    "\(r.stderr)")
        }
    }
}
