import CarouselCore
@testable import CarouselMedia
import Foundation
import Testing
import TestSupport

/// Clips decoded by GStreamer in this process, as a video helper decodes them: every
/// container and codec a phone or an editor writes, frames at the right times in the right
/// colours, the poster, and damaged clips refused in one line.
@Suite(.serialized) struct GStreamerClipTests {
    /// The RGB of the centre pixel of a YUV frame, by its matrix.
    static func centre(of frame: GStreamerClip.Frame, info: GStreamerClip.Info) -> (Int, Int, Int)? {
        guard let luma = frame.plane(0), let chroma = frame.plane(1) else { return nil }
        let x = info.width / 2, y = info.height / 2
        let Y = Double(luma.base[y * luma.pitch + x])
        let U: Double, V: Double
        if info.layout == .nv12 {
            U = Double(chroma.base[(y / 2) * chroma.pitch + (x / 2) * 2]); V = Double(chroma.base[(y / 2) * chroma.pitch + (x / 2) * 2 + 1])
        } else {
            guard let v = frame.plane(2) else { return nil }
            U = Double(chroma.base[(y / 2) * chroma.pitch + x / 2]); V = Double(v.base[(y / 2) * v.pitch + x / 2])
        }
        let full = info.matrix == .full601
        let (kr, kb) = info.matrix == .bt709 ? (0.2126, 0.0722) : (0.299, 0.114)
        let l = full ? Y : (Y - 16) * 255 / 219
        let cb = (U - 128) * (full ? 1 : 255.0 / 224), cr = (V - 128) * (full ? 1 : 255.0 / 224)
        let r = l + 2 * (1 - kr) * cr
        let b = l + 2 * (1 - kb) * cb
        let g = (l - kr * r - kb * b) / (1 - kr - kb)
        func c(_ v: Double) -> Int { Int(min(255, max(0, v.rounded()))) }
        return (c(r), c(g), c(b))
    }

    /// Which of the fixture colours `rgb` is (each channel within 24 levels), if any.
    static func colourIndex(_ rgb: (Int, Int, Int)) -> Int? {
        ClipFixtures.colours.firstIndex { c in
            abs(Int(c.rgb.0) - rgb.0) <= 24 && abs(Int(c.rgb.1) - rgb.1) <= 24 && abs(Int(c.rgb.2) - rgb.2) <= 24
        }
    }

    static func bytes(_ path: String) throws -> [UInt8] { [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))) }

    @Test(arguments: ClipFixtures.Kind.all)
    func everyFrameComesAtItsTimeInItsColour(kind: ClipFixtures.Kind) throws {
        let path = try ClipFixtures.make(kind, seconds: [0, 1, 2], rate: 10, in: try MediaFixtures.folder("clip"))
        let data = try Self.bytes(path)
        try data.withUnsafeBytes { raw in
            let clip = try GStreamerClip(bytes: raw, name: path)
            let info = try clip.open(timeout: 10)
            #expect(info.width == 320 && info.height == 240 && info.layout != nil, "\(info)")
            #expect(kind.saysLength ? info.duration.map { abs($0 - 3) < 0.15 } == true : info.duration == nil,
                    "duration \(String(describing: info.duration))")
            #expect(!info.decoder.isEmpty, "the decoder is named")
            var seen: [(time: Double, colour: Int?)] = []
            while case .frame(let frame) = try clip.next(timeout: 5) {
                seen.append((frame.time, Self.centre(of: frame, info: info).flatMap(Self.colourIndex)))
            }
            let rate = kind.rate ?? 10
            #expect(seen.count == 3 * rate, "\(kind): 3 s at \(rate) frames a second, got \(seen.count)")
            for (time, colour) in seen {
                #expect(colour == Int(time + 0.001), "\(kind): the frame at \(time) s shows colour \(String(describing: colour))")
            }
            #expect(zip(seen, seen.dropFirst()).allSatisfy { $0.time < $1.time }, "times rise")
        }
    }

    @Test func thePosterIsTheFrameAtATenthOrOneSecondUpright() throws {
        let folder = try MediaFixtures.folder("poster")
        // 4 s: the poster is at 0.4 s (second 0, red); a 20 s clip's at 1 s (second 1, lime).
        let short = try ClipFixtures.make(.h264MP4, seconds: [0, 1, 2, 3], in: folder, name: "short")
        let long = try ClipFixtures.make(.h264MP4, seconds: [0, 1] + Array(repeating: 2, count: 18), width: 64, height: 48, rate: 5,
                                         in: folder, name: "long")
        for (path, colour) in [(short, 0), (long, 1)] {
            let data = try Self.bytes(path)
            let image = try data.withUnsafeBytes { raw in try GStreamerClip(bytes: raw, name: path).poster(timeout: 10) }
            let i = (image.height / 2 * image.width + image.width / 2) * 4
            let rgb = (Int(image.pixels[i]), Int(image.pixels[i + 1]), Int(image.pixels[i + 2]))
            #expect(Self.colourIndex(rgb) == colour, "\(path): \(rgb)")
        }
        // A phone's portrait clip: stored 320 × 240, shown turned 90°: 240 × 320.
        let portrait = try ClipFixtures.make(.h264MP4, in: folder, name: "portrait", rotate: 90)
        let data = try Self.bytes(portrait)
        let image = try data.withUnsafeBytes { raw in try GStreamerClip(bytes: raw, name: portrait).poster(timeout: 10) }
        #expect(image.width == 240 && image.height == 320, "\(image.width)x\(image.height)")
    }

    @Test func whatIsNotAClipFailsInOneLine() throws {
        let folder = try MediaFixtures.folder("notclip")
        let good = try Self.bytes(try ClipFixtures.make(.h264MP4, in: folder))
        let cases: [(String, [UInt8])] = [
            ("empty", []),
            ("noise", (0..<5000).map { UInt8(truncatingIfNeeded: $0 &* 7919) }),
            ("a tenth", Array(good.prefix(good.count / 10))),
            ("its first 64 bytes", Array(good.prefix(64))),
        ]
        for (label, bytes) in cases {
            let started = Date()
            do {
                try bytes.withUnsafeBytes { raw in
                    let clip = try GStreamerClip(bytes: raw, name: label)
                    _ = try clip.open(timeout: 5)
                    while case .frame = try clip.next(timeout: 5) {}
                }
                // A truncated clip may play what it has; nothing more is asked of it.
                #expect(label == "a tenth", "\(label) played")
            } catch let error as ImageError {
                #expect(error.reason.split(separator: "\n").count == 1 && error.path == label, "\(label): \(error)")
            }
            #expect(Date().timeIntervalSince(started) < 8, "\(label) took \(Date().timeIntervalSince(started)) s")
        }
    }

    /// Damage scattered through clips of every container and a phone's HDR clip (each bit
    /// flipped with a chance of 0.4 %, as zzuf makes it), opened two at a time as a busy
    /// kiosk would: every copy plays or fails by its own error, none by waiting out the time
    /// allowed. Such damage often breaks a demuxer just as decodebin connects it, and
    /// decodebin drops the error of an element it is connecting; before `PipelineErrors`,
    /// about one copy in nine waited the whole 10 s here.
    @Test func damagedClipsFailByTheirOwnErrorNeverAtTheDeadline() throws {
        let dir = try MediaFixtures.folder("scattered")
        let originals = try ClipFixtures.Kind.all.map { kind in
            try ClipFixtures.make(kind, seconds: [0, 1], width: 96, height: 64, rate: 10, in: dir, name: "clip-\(kind.ext)")
        } + [try ClipFixtures.iPhoneHLG(in: dir)]
        var random = SeededRandom(seed: 2026)
        let bytes = try originals.map(Self.bytes)
        let copies = (0..<(originals.count * 12)).map { n in ClipFixtures.scattered(bytes[n % originals.count], ratio: 0.004, using: &random) }
        final class Outcomes: @unchecked Sendable {
            let lock = NSLock()
            var reasons: [String] = []
        }
        let outcomes = Outcomes()
        DispatchQueue.concurrentPerform(iterations: copies.count) { n in
            var reason = "played"
            copies[n].withUnsafeBytes { raw in
                do throws(ImageError) { _ = try GStreamerClip(bytes: raw, name: "copy \(n)").poster(timeout: 10) } catch { reason = error.reason }
            }
            outcomes.lock.withLock { outcomes.reasons.append(reason) }
        }
        let deadlines = outcomes.reasons.filter { $0.contains(" within ") }
        #expect(outcomes.reasons.count == copies.count)
        #expect(deadlines.isEmpty, "\(deadlines.count) of \(copies.count) failed only at the deadline")
        #expect(outcomes.reasons.contains("played") && outcomes.reasons.contains { $0 != "played" },
                "some copies play and some fail: \(Set(outcomes.reasons))")
    }

    /// A file of sound only, named as a clip (a voice memo, a damaged MPEG taken for an MP3)
    /// fails at once as having no video, not at the deadline: decodebin gives its sound
    /// stream, which nothing takes when no sound is asked for, and the pictures never come.
    @Test(arguments: [("mp3", "mpg"), ("ipod", "mp4")])
    func aFileOfSoundOnlyFailsAtOnceAsHavingNoVideo(format: String, ext: String) throws {
        let path = try MediaFixtures.folder("sound-only") + "/memo-\(format).\(ext)"
        try ClipFixtures.ffmpeg(["-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi", "-i", "sine=frequency=440:duration=2",
                                 "-f", format, path], making: path)
        let data = try Self.bytes(path)
        let reason: String? = data.withUnsafeBytes { raw in
            do throws(ImageError) { _ = try GStreamerClip(bytes: raw, name: path).poster(timeout: 10); return nil } catch { return error.reason }
        }
        #expect(reason == "has no video stream", "\(String(describing: reason))")
    }
}
