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

    /// A Live Photo on the server pairs by name as in a folder, and its halves' content
    /// identifiers are checked as a folder's are, once both are downloaded: a still and a clip
    /// of the same name from two phones (both number from IMG_0001) are not one Live Photo.
    @Test(arguments: [("C0FFEE-1", "C0FFEE-1", true), ("C0FFEE-1", "BEEF-2", false)])
    func aLivePhotosHalvesAreCheckedAsAFoldersAre(still: String, motion: String, plays: Bool) throws {
        let server = try DAVServer()
        defer { server.stop() }
        let dir = try Fixtures.temporaryFolder("dav-live")
        try server.put("/Live/IMG_0001.JPG", ClipFixtures.liveStill(try ImmichRenderTests.jpeg("lime"), identifier: still))
        let clip = try ClipFixtures.liveMotion(identifier: motion, in: dir, name: "IMG_0001.MOV")
        try server.put("/Live/IMG_0001.MOV", [UInt8](try Data(contentsOf: URL(fileURLWithPath: clip))))
        let (out, r) = try CarouselBinary.render([server.address("/Live")], script: "wait 1500\nsnapshot a\n",
                                                 options: ["--netrc", server.netrc, "--cache-dir", dir + "/cache"])
        #expect(r.status == 0, "\(r.stderr)")
        let events = try String(contentsOfFile: out + "/events.jsonl", encoding: .utf8)
        #expect(events.contains("\"type\":\"video_started\"") == plays, "\(still) / \(motion): \(events) \(r.stderr)")
        let said = r.stderr.split(separator: "\n").filter { $0.contains("content identifiers differ") }
        #expect(said.count == (plays ? 0 : 1), "one line when they differ: \(r.stderr)")
        #expect(!plays || !events.contains("\"items\":2"), "one item, not two")
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
