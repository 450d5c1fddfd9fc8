import Foundation
import Testing
import TestSupport

/// `--video-decoder auto|software|NAME`: which decoder plays a clip, as its log line says.
/// (A hardware decoder through the sandbox: HardwareDecoderSeamTests and kiosk/vm-test's
/// vicodec.) A VP9 WebM has two decoders here: libvpx's vp9dec (primary) and libav's
/// avdec_vp9 (ranked below it).
@Suite struct VideoDecoderOptionTests {
    static func played(with option: String?) throws -> CarouselBinary.Result {
        let dir = try Fixtures.temporaryFolder("video-decoder")
        let clip = try ClipFixtures.make(.vp9WebM, seconds: [1, 1], width: 320, height: 240, in: dir)
        return try CarouselBinary.render([clip], script: "wait 1200\nsnapshot a\n", options: option.map { ["--video-decoder", $0] } ?? [],
                                   size: "320x240").result
    }

    @Test func theDecoderNamedPlaysTheClipAndAnUnknownOneIsSaid() throws {
        let auto = try Self.played(with: nil)
        #expect(auto.stderr.contains("playing with vp9dec"), "\(auto.stderr)")
        let named = try Self.played(with: "avdec_vp9")
        #expect(named.stderr.contains("playing with avdec_vp9"), "\(named.stderr)")
        let software = try Self.played(with: "software")
        #expect(software.stderr.contains("playing with vp9dec"), "\(software.stderr)")
        let unknown = try Self.played(with: "nosuchdec")
        #expect(unknown.status == 0 && unknown.stderr.contains("--video-decoder names nosuchdec, which GStreamer does not have"),
                "the show goes on and says why: \(unknown.stderr)")
    }

    @Test func aValueThatCannotBeADecoderIsRefused() throws {
        for bad in ["Bad Name", "../x", "", String(repeating: "a", count: 65)] {
            let r = try CarouselBinary.run(["render", "--video-decoder", bad, "--script", "/dev/null", "--out", "/tmp/never"])
            #expect(r.status != 0 && r.stderr.contains("--video-decoder"), "\(bad): \(r.status) \(r.stderr)")
        }
    }
}
