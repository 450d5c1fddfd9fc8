@testable import CarouselMedia
import Testing

/// Frames stamped as GStreamer's MPEG-4 decoder stamps a DivX AVI's packed B-frames play at
/// the clip's own rate; a seek or a loop starts again from the stamp given.
@Suite struct FrameStampsTests {
    let frame = 1001.0 / 24000

    @Test func packedBFramesPlayAtTheClipsRate() {
        var stamps = FrameStamps()
        // As measured on OpenCV's Megamind.avi: t, t+1, t+1, t+3, t+4, t+4, t+6 …
        let given = [0, 1, 1, 3, 4, 4, 6, 7, 7, 9].map { Double($0) * frame }
        let shown = given.map { stamps.time(of: $0, lasting: frame) }
        for (n, time) in shown.enumerated() {
            #expect(abs(time - Double(n) * frame) < 1e-9, "frame \(n) at \(time), not \(Double(n) * frame)")
        }
    }

    @Test func aSeekOrALoopTakesTheNextStampAsItIs() {
        var stamps = FrameStamps()
        _ = stamps.time(of: 5, lasting: frame)
        #expect(stamps.time(of: 2, lasting: frame) == 5 + frame, "backwards without a seek: after the one before")
        stamps.restart()
        #expect(stamps.time(of: 2, lasting: frame) == 2, "after a seek: as stamped")
        #expect(stamps.time(of: 3, lasting: frame) == 3, "later stamps: as stamped")
    }
}
