import CarouselCore
@testable import CarouselMedia
import Foundation
import Testing
import TestSupport

/// A Motion Photo in the carousel, rendered headless: arriving on it plays its own clip
/// over the still once, then the still shows again (`--motion once`); `loop` plays it over
/// and over, `off` never; moving away and back plays it again.
@Suite struct MotionPhotoRenderTests {
    /// A folder of a grey picture, a Motion Photo (a white still, a 2 s clip red then lime),
    /// and a grey picture.
    static func folder(_ form: ClipFixtures.MotionForm) throws -> String {
        let dir = try Fixtures.temporaryFolder("motion")
        try Fixtures.bmp(320, 240) { _, _ in (90, 90, 90) }.write(to: URL(fileURLWithPath: dir + "/a.bmp"))
        let clip = try ClipFixtures.make(.h264MP4, seconds: [0, 1], in: try Fixtures.temporaryFolder("motion-clip"), name: "m")
        let still = TurboJPEGCodec.encode(PixelImage(width: 320, height: 240, fill: (255, 255, 255, 255)))
        let photo = ClipFixtures.motionPhoto(still: still, clip: [UInt8](try Data(contentsOf: URL(fileURLWithPath: clip))), form: form)
        try Data(photo).write(to: URL(fileURLWithPath: dir + "/b.jpg"))
        try Fixtures.bmp(320, 240) { _, _ in (90, 90, 90) }.write(to: URL(fileURLWithPath: dir + "/c.bmp"))
        return dir
    }

    static let script = "key right\nwait 500\nsnapshot s0\nwait 1000\nsnapshot s1\nwait 1500\nsnapshot s2\n"

    @Test(arguments: ClipFixtures.MotionForm.allCases)
    func onArrivalTheClipPlaysOnceThenTheStillStays(form: ClipFixtures.MotionForm) throws {
        let dir = try Self.folder(form)
        let (out, r) = try CarouselBinary.render([dir], script: Self.script + "key right\nwait 500\nkey left\nwait 500\nsnapshot back\n")
        #expect(r.status == 0, "\(r.stderr)")
        // 150 ms into the clip red, 1.15 s lime, past its end the white still.
        let seen = try ["s0", "s1", "s2", "back"].map { try ClipRenderTests.colour(out + "/\($0).png") }
        #expect(seen == [0, 1, 3, 0], "\(form): \(seen)")
        let events = try String(contentsOfFile: out + "/events.jsonl", encoding: .utf8)
        #expect(events.components(separatedBy: "\"type\":\"video_started\",\"index\":1").count - 1 == 2, "\(events)")
        #expect(events.contains("\"type\":\"video_ended\",\"index\":1"), "\(events)")
    }

    @Test func aLivePhotoPlaysItsMotionOnceAndItsMOVIsNoItemOfItsOwn() throws {
        let dir = try Fixtures.temporaryFolder("live")
        try Fixtures.bmp(320, 240) { _, _ in (90, 90, 90) }.write(to: URL(fileURLWithPath: dir + "/a.bmp"))
        let still = TurboJPEGCodec.encode(PixelImage(width: 320, height: 240, fill: (255, 255, 255, 255)))
        try Data(still).write(to: URL(fileURLWithPath: dir + "/b.JPG"))
        try ClipFixtures.make(.hevcMOV, seconds: [0, 1], in: dir, name: "b")
        try Fixtures.bmp(320, 240) { _, _ in (90, 90, 90) }.write(to: URL(fileURLWithPath: dir + "/c.bmp"))
        let (out, r) = try CarouselBinary.render([dir], script: Self.script + "key right\nwait 500\nsnapshot next\n")
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try ["s0", "s1", "s2"].map { try ClipRenderTests.colour(out + "/\($0).png") } == [0, 1, 3])
        // Three items: the grey c.bmp follows the Live Photo, not its MOV.
        #expect(try BrokenSkipTests.pixel(out + "/next.png", 320, 180) == [90, 90, 90])
        #expect(try String(contentsOfFile: out + "/events.jsonl", encoding: .utf8).contains("\"type\":\"video_ended\",\"index\":1"))
    }

    /// A clip of another shape than its still (16:9 over 4:3) is fitted in the still's
    /// place, not stretched over it: the still shows above and below it.
    @Test func aClipOfAnotherShapeIsFittedOverTheStill() throws {
        let dir = try Fixtures.temporaryFolder("motion-shape")
        let clip = try ClipFixtures.make(.h264MP4, seconds: [0, 0], width: 320, height: 180,
                                         in: try Fixtures.temporaryFolder("motion-shape-clip"), name: "m")
        let still = TurboJPEGCodec.encode(PixelImage(width: 320, height: 240, fill: (255, 255, 255, 255)))
        let photo = ClipFixtures.motionPhoto(still: still, clip: [UInt8](try Data(contentsOf: URL(fileURLWithPath: clip))), form: .container)
        try Data(photo).write(to: URL(fileURLWithPath: dir + "/b.jpg"))
        let (out, r) = try CarouselBinary.render([dir], script: "wait 500\nsnapshot s\n", size: "1280x720")
        #expect(r.status == 0, "\(r.stderr)")
        // The 4:3 still's place runs from about y 110 to 610; the 16:9 clip in it from about 172 to 547.
        #expect(try ClipRenderTests.colour(out + "/s.png", 640, 360) == 0, "the clip in the middle")
        #expect(try ClipRenderTests.colour(out + "/s.png", 640, 125) == 3, "the still above it")
        #expect(try ClipRenderTests.colour(out + "/s.png", 640, 595) == 3, "the still below it")
    }

    @Test func loopPlaysItOverAndOffNever() throws {
        let dir = try Self.folder(.container)
        var (out, r) = try CarouselBinary.render([dir], script: Self.script, options: ["--motion", "loop"])
        #expect(r.status == 0, "\(r.stderr)")
        // 3.15 s in: the second pass's red (2 s clip).
        #expect(try ["s0", "s1", "s2"].map { try ClipRenderTests.colour(out + "/\($0).png") } == [0, 1, 0])
        (out, r) = try CarouselBinary.render([dir], script: Self.script, options: ["--motion", "off"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try ["s0", "s1", "s2"].map { try ClipRenderTests.colour(out + "/\($0).png") } == [3, 3, 3])
        #expect(try !String(contentsOfFile: out + "/events.jsonl", encoding: .utf8).contains("video_started"))
    }

    @Test func underAutoplayTheMotionDoesNotHoldTheShow() throws {
        let dir = try Self.folder(.container)
        // Autoplay every second from the Motion Photo: it moves on at 1 s, mid-clip.
        let (out, r) = try CarouselBinary.render([dir], script: "wait 1500\nsnapshot s\n", options: ["--autoplay", "1", "--start-index", "1"])
        #expect(r.status == 0, "\(r.stderr)")
        let steps = try ClipRenderTests.steps(out)
        #expect(steps.first.map { $0.0 == 1000 && $0.1 == 1 } == true, "\(steps)")
    }
}
