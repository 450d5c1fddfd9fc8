import CarouselCore
import Foundation
@testable import CarouselMedia
import Testing
import TestSupport
@testable import CarouselSources

/// `--pair-portraits` over a show: shapes from the files' headers or the listing, dates from
/// the files or the listing, and what stays out of pairs.
@Suite struct PortraitPairingTests {
    static func picture(_ path: String, _ size: String) throws {
        let p = Process()
        p.executableURL = try OutsideProgram.convert.url
        p.arguments = ["-size", size, "xc:gray", path]
        try p.run()
        p.waitUntilExit()
        #expect(p.terminationStatus == 0, "ImageMagick's convert (kiosk/setup installs it)")
    }

    @Test func filesPairByTheirHeadersWebPicturesByTheirListingAndClipsNever() throws {
        let dir = ScratchRoot.path + "/pairing-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        try Self.picture(dir + "/a.jpg", "300x400")
        try Self.picture(dir + "/b.png", "400x300")
        try Self.picture(dir + "/c.webp", "200x400")
        try "not a picture".write(toFile: dir + "/d.jpg", atomically: true, encoding: .utf8)
        let clip = try ClipFixtures.make(.h264MP4, seconds: [0], width: 64, height: 96, rate: 10, in: dir)
        var live = ImageSource(path: dir + "/a.jpg", motion: dir + "/a.mov")
        live.stamp = FileStamp.of(live.path)
        var web = ImageSource(path: "https://content.example/e.jpg", taken: "2024-05-01T10:00")
        web.aspect = 1.5
        var web2 = ImageSource(path: "https://content.example/g.jpg")
        web2.aspect = 1.25
        let unlisted = ImageSource(path: "https://content.example/f.jpg")
        let show = [live, ImageSource(path: dir + "/b.png"), ImageSource(path: clip), ImageSource(path: dir + "/d.jpg"),
                    ImageSource(path: dir + "/c.webp"), unlisted, web, web2]
        let paired = PortraitPairing.pair(show, screen: .landscape)
        #expect(paired.map(\.path) == [dir + "/a.jpg", dir + "/b.png", clip, dir + "/d.jpg", unlisted.path, web.path])
        #expect(paired.map { $0.partners.map(\.path) } == [[dir + "/c.webp"], [], [], [], [], [web2.path]])
        #expect(paired[0].aspect == 4.0 / 3 && paired[0].partners.first?.aspect == 2)
        #expect(paired[0].motion == nil, "a pair shows its stills")
        #expect(paired[0].file != live.file, "a pair decodes to other pixels than its first alone")
        // On a portrait screen the landscape one would pair, and has no partner here.
        #expect(PortraitPairing.pair(show, screen: .portrait).allSatisfy { $0.partners.isEmpty })
    }
}
