import CarouselCore
import Testing
@testable import CarouselMedia

/// The helper protocol: what a helper taken over by a hostile file sends is read without a
/// trap, and every message survives the round trip.
@Suite struct HelperMessageTests {
    static let samples: [HelperMessage] = [
        .ready(sandboxed: true, note: ""), .ready(sandboxed: false, note: "seccomp is not available"),
        .decode(.init(name: "/srv/photos/Ünïcode name.jpg", boxWidth: 1037, boxHeight: 749, maxPixels: 100_000_000, dctScaling: true)),
        .decode(.init(name: "zoom.jpg", boxWidth: 1920, boxHeight: 1080, maxPixels: 100_000_000, dctScaling: true,
                      part: [250_000, 0, 500_000, 1_000_000])),
        .probeOpen(path: "/etc/passwd"), .image(width: 1037, height: 691, isOpaque: true),
        .image(width: 1037, height: 691, isOpaque: true, fullWidth: 6000, fullHeight: 4000),
        .image(width: 3, height: 2, isOpaque: false, note: "its colour profile is damaged or unreadable; shown as sRGB"),
        .decode(.init(name: "fill.jpg", boxWidth: 1037, boxHeight: 749, maxPixels: 100_000_000, dctScaling: true, backdrop: true)),
        .image(width: 1037, height: 691, isOpaque: true, backdrop: .init(width: 64, height: 43, average: [12, 200, 255])),
        .failed(reason: "is a corrupt PNG (end of stream)"),
        .image(width: 1037, height: 691, isOpaque: true, motion: .clip(ByteRange(start: 3_100_000, length: 2_400_000))),
        .image(width: 320, height: 240, isOpaque: false, motion: .frames),
        .image(width: 320, height: 240, isOpaque: true, fullWidth: 3840, fullHeight: 2160, lengthMicros: 6_033_333),
        .play(name: "/srv/photos/PXL_1.MP.jpg", loop: false, range: ByteRange(start: 3_100_000, length: 2_400_000)),
        .play(name: "/srv/photos/clip.mp4", loop: true),
        .play(name: "/srv/photos/clip.mp4", loop: false, fromMicros: 12_500_000),
        .frame(index: 3, micros: 61_033_333, durationMicros: 33_333, positionMicros: 1_033_333),
        .seek(micros: 12_500_000), .seeked(micros: 72_500_000), .clipEnded, .release(index: 2),
        .play(name: "/srv/clips/talk.webm", loop: true, sound: true), .play(name: "/srv/clips/4k.mov", loop: false, maxSide: 1920),
        .late(micros: 2_033_333, lateMicros: 180_000), .seeked(micros: 2_500_000, soundEpoch: 3),
        .sound(micros: 2_521_333, frames: 1_024, epoch: 3), .sound(micros: 0, frames: 48_000, epoch: 0),
    ]

    @Test func everyMessageSurvivesTheRoundTrip() {
        for m in Self.samples { #expect(HelperMessage(decoding: m.encoded) == m) }
    }

    /// A poster's clip length is hostile input too: longer than a day is no clip.
    @Test func aClipLengthBeyondADayIsRefused() {
        let day = HelperMessage.image(width: 5, height: 5, isOpaque: true, lengthMicros: HelperMessage.maxLengthMicros)
        #expect(HelperMessage(decoding: day.encoded) == day)
        let more = HelperMessage.image(width: 5, height: 5, isOpaque: true, lengthMicros: HelperMessage.maxLengthMicros + 1)
        #expect(HelperMessage(decoding: more.encoded) == nil)
    }

    @Test func aBackdropOfAnotherSizeIsRefused() {
        for (w, h) in [(0, 10), (65, 10), (10, 0), (64, 1_000_000)] {
            let m = HelperMessage.image(width: 5, height: 5, isOpaque: true, backdrop: .init(width: w, height: h, average: [1, 2, 3]))
            #expect(HelperMessage(decoding: m.encoded) == nil, "\(w)x\(h)")
        }
    }

    @Test func anEmptyOrOverflowingClipRangeIsRefused() {
        for (start, length) in [(10, 0), (Int.max, 1), (Int.max - 5, 10)] {
            var m = HelperMessage.play(name: "a", loop: false, range: ByteRange(start: 1, length: 1)).encoded
            let tail = [start, length].flatMap { v in (0..<8).map { UInt8(truncatingIfNeeded: v >> (56 - 8 * $0)) } }
            // The range is the 16 bytes before the start time's 8, the sound flag and the side's 4.
            m.replaceSubrange(m.count - 29 ..< m.count - 13, with: tail)
            #expect(HelperMessage(decoding: m) == nil, "\(start)+\(length)")
        }
    }

    /// A piece of sound of no sample frames, or of more than a second's, is refused (the
    /// main process maps what the count says).
    @Test func soundOfNoneOrTooManyFramesIsRefused() {
        for frames in [0, SoundTimeline.maxChunkFrames + 1, 1 << 31] {
            #expect(HelperMessage(decoding: HelperMessage.sound(micros: 0, frames: frames, epoch: 0).encoded) == nil, "\(frames)")
        }
    }

    /// A clip's frames bounded beyond what GStreamer can make (the helper would ask for
    /// caps no element can meet) is refused.
    @Test func aClipBoundBeyondAnyFrameIsRefused() {
        for side in [HelperMessage.maxSideLimit + 1, Int(UInt32.max)] {
            var m = HelperMessage.play(name: "a", loop: false).encoded
            m.replaceSubrange(m.count - 4 ..< m.count, with: (0..<4).map { UInt8(truncatingIfNeeded: side >> (24 - 8 * $0)) })
            #expect(HelperMessage(decoding: m) == nil, "\(side)")
        }
        #expect(HelperMessage(decoding: HelperMessage.play(name: "a", loop: false, maxSide: HelperMessage.maxSideLimit).encoded) != nil)
    }

    @Test func aLatenessBeyondAMinuteIsRefused() {
        #expect(HelperMessage(decoding: HelperMessage.late(micros: 0, lateMicros: HelperMessage.maxLateMicros).encoded) != nil)
        #expect(HelperMessage(decoding: HelperMessage.late(micros: 0, lateMicros: HelperMessage.maxLateMicros + 1).encoded) == nil)
    }

    @Test func aPartOutsideThePictureIsRefused() {
        for part in [[1_000_001, 0, 1, 1], [0, 0, 0, 1], [0, 0, 1, 2_000_000]] {
            var m = HelperMessage.decode(.init(name: "a", boxWidth: 1, boxHeight: 1, maxPixels: 1, dctScaling: true, part: [0, 0, 1, 1])).encoded
            let tail = part.flatMap { v in (0..<4).map { UInt8(truncatingIfNeeded: v >> (24 - 8 * $0)) } }
            // The part is the last 16 bytes before the backdrop flag.
            m.replaceSubrange(m.count - 17 ..< m.count - 1, with: tail)
            #expect(HelperMessage(decoding: m) == nil)
        }
    }

    @Test func cutOrExtendedMessagesAreRefused() {
        for m in Self.samples {
            let bytes = m.encoded
            for n in 0..<bytes.count { #expect(HelperMessage(decoding: Array(bytes.prefix(n))) == nil) }
            #expect(HelperMessage(decoding: bytes + [0]) == nil)
        }
    }

    @Test func randomBytesNeverTrap() {
        var random = SeededRandom(seed: 13)
        var parsed = 0
        for _ in 0..<20_000 {
            let n = Int.random(in: 0...40, using: &random)
            var bytes = (0..<n).map { _ in UInt8.random(in: 0...255, using: &random) }
            if !bytes.isEmpty { bytes[0] = UInt8.random(in: 0...6, using: &random) }  // mostly real tags
            if Bool.random(using: &random) {
                // Half are real messages with one byte changed: deep into the fields.
                bytes = Self.samples.randomElement(using: &random)!.encoded
                bytes[Int.random(in: 0..<bytes.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
            }
            if HelperMessage(decoding: bytes) != nil { parsed += 1 }
        }
        #expect(parsed > 0, "no random message was well formed: the test does not reach the fields")
    }

    @Test func longTextIsCutToTheLimit() {
        let long = String(repeating: "x", count: 10_000)
        guard case .failed(let reason)? = HelperMessage(decoding: HelperMessage.failed(reason: long).encoded) else {
            Issue.record("not read back")
            return
        }
        #expect(reason.utf8.count == HelperMessage.maxText)
        #expect(HelperMessage.failed(reason: long).encoded.count <= HelperMessage.maxBytes)
    }
}
