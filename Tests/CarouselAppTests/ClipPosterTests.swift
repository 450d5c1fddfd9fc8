import CarouselCore
@testable import CarouselMedia
import Foundation
import Testing
import TestSupport

/// Clips' posters come from a sandboxed video helper (GStreamer), like pictures from
/// theirs: fitted, upright, and what a damaged clip does stays in its helper.
@Suite struct ClipPosterTests {
    static func folder() throws -> String {
        let path = ScratchRoot.path + "/posters-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    static func commandLine(_ pid: pid_t) -> String {
        ((try? String(contentsOfFile: "/proc/\(pid)/cmdline", encoding: .utf8)) ?? "").replacingOccurrences(of: "\0", with: " ")
    }

    @Test func aClipsPosterIsFittedInAVideoHelperBesideThePictureHelpers() throws {
        let dir = try Self.folder()
        let clip = try ClipFixtures.make(.h264MP4, seconds: [1, 2, 3], width: 320, height: 240, in: dir)
        let portrait = try ClipFixtures.make(.h264MP4, seconds: [2], in: dir, name: "portrait", rotate: 90)
        let decoder = IsolatedDecodingTests.decoder()
        defer { decoder.stop() }
        let image = try decoder.decode(IsolatedDecodingTests.source(clip), fittingIn: Size(width: 160, height: 160))
        #expect(image.width == 160 && image.height == 120, "fitted: \(image.width)x\(image.height)")
        let centre = (image.height / 2 * image.width + image.width / 2) * 4
        #expect(abs(Int(image.pixels[centre + 1]) - 255) < 24 && image.pixels[centre] < 24, "the frame at 0.3 s is lime")
        // Its length comes with it: a group's hold is made from it before any player opens the clip.
        #expect(image.clipLength.map { abs($0 - 3) < 0.1 } == true, "the clip's length with its poster: \(String(describing: image.clipLength))")
        let turned = try decoder.decode(IsolatedDecodingTests.source(portrait), fittingIn: Size(width: 160, height: 160))
        #expect(turned.width == 120 && turned.height == 160, "upright: \(turned.width)x\(turned.height)")
        let helpers = decoder.helperProcesses.map(Self.commandLine)
        #expect(helpers.contains { $0.contains(" video-helper ") } && helpers.contains { $0.contains(" decode-helper ") }, "\(helpers)")
    }

    /// Refused by the filter itself (EPERM, not some other failure), on every thread of the
    /// helper, GStreamer's among them. (Today GStreamer starts none before the filter, so this
    /// holds without TSYNC too; with it, a thread a later GStreamer starts at init is filtered.)
    @Test func aVideoHelperCannotOpenAFileOrMakeASocketOnAnyThread() throws {
        let decoder = IsolatedDecodingTests.decoder()
        defer { decoder.stop() }
        let dir = try Self.folder()
        let secret = dir + "/secret.txt"
        try "secret".write(toFile: secret, atomically: true, encoding: .utf8)
        let refused = "refused: " + String(cString: strerror(EPERM))
        #expect(decoder.probeOpen(secret, inClipHelper: true) == refused)
        #expect(decoder.probeOpen(HelperMessage.socketProbe, inClipHelper: true) == refused)
        // A clip decoded: GStreamer's threads are running in the helper.
        _ = try decoder.decode(IsolatedDecodingTests.source(try ClipFixtures.make(.h264MP4, in: dir)), fittingIn: Size(width: 160, height: 160))
        let videoHelpers = decoder.helperProcesses.filter { Self.commandLine($0).contains(" video-helper ") }
        #expect(!videoHelpers.isEmpty)
        // (A sanitizer's own thread, started before the filter, is left unfiltered: it reads /proc.)
        for pid in videoHelpers where !HelperSandbox.sanitized {
            let threads = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
            #expect(threads.count > 1, "GStreamer's threads: \(threads)")
            for thread in threads {
                let status = (try? String(contentsOfFile: "/proc/\(pid)/task/\(thread)/status", encoding: .utf8)) ?? ""
                let mode = status.split(separator: "\n").first { $0.hasPrefix("Seccomp:") }.map { $0.split(separator: "\t").last ?? "" }
                #expect(mode == "2", "thread \(thread) of video helper \(pid) runs without the filter (Seccomp: \(mode ?? "?"))")
            }
        }
    }

    @Test func aDamagedClipFailsInOneLineAndTheNextOneShows() throws {
        let dir = try Self.folder()
        let good = try ClipFixtures.make(.h264MP4, in: dir)
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: good)))
        // Its box headers kept, the rest noise: the demuxer and decoder meet garbage.
        var noisy = bytes
        for i in stride(from: 64, to: noisy.count, by: 3) { noisy[i] = UInt8(truncatingIfNeeded: i &* 2_654_435_761 >> 7) }
        let damaged = dir + "/damaged.mp4"
        try Data(noisy).write(to: URL(fileURLWithPath: damaged))
        let decoder = IsolatedDecodingTests.decoder()
        defer { decoder.stop() }
        do {
            _ = try decoder.decode(IsolatedDecodingTests.source(damaged), fittingIn: Size(width: 160, height: 120))
        } catch {
            #expect(error.path == damaged && !error.reason.contains("\n"), "\(error)")
        }
        let image = try decoder.decode(IsolatedDecodingTests.source(good), fittingIn: Size(width: 160, height: 120))
        #expect(image.width == 160)
    }
}
