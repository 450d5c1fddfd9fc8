import CarouselCore
import Testing

/// `--clock`: its text changes each minute, or each second when the format shows seconds,
/// and the loop is told the moment just after the turn; it sits in its corner.
@Suite struct ClockFaceTests {
    @Test(arguments: [("%H:%M", false), ("%a %e %b  %H:%M", false), ("%I:%M %p", false), ("%H:%M:%S", true), ("%T", true),
                      ("%-S s", true), ("%X", true), ("%c", true), ("100%% %M", false), ("%%S", false)])
    func secondsInTheFormatMeanAChangeEachSecond(format: String, seconds: Bool) {
        let face = ClockFace(format: format)
        #expect(face.showsSeconds == seconds, "\(format)")
        #expect(face.period == (seconds ? 1 : 60))
    }

    @Test func theNextChangeIsJustAfterTheTurn() {
        let minutes = ClockFace(format: "%H:%M")
        // 09:41:30 on the wall when the loop's clock reads 100: the turn is 30 s on.
        let wall = 1_795_772_490.0  // a whole minute plus 30 s
        #expect(abs(minutes.nextChange(now: 100, wall: wall) - 130.02) < 1e-6)
        // Exactly on a turn: the next one, a minute on.
        #expect(abs(minutes.nextChange(now: 100, wall: wall + 30) - 160.02) < 1e-6)
        let seconds = ClockFace(format: "%H:%M:%S")
        #expect(abs(seconds.nextChange(now: 5, wall: wall + 0.25) - 5.77) < 1e-6)
    }

    @Test func itSitsInItsCornerAMarginIn() {
        let viewport = Size(width: 1280, height: 720), text = Size(width: 200, height: 60)
        let expected: [ClockFace.Corner: (Double, Double)] = [.topLeft: (18, 18), .topRight: (1062, 18),
                                                              .bottomLeft: (18, 642), .bottomRight: (1062, 642)]
        for (corner, (x, y)) in expected {
            let r = ClockFace(format: "%H:%M", corner: corner).rect(for: text, in: viewport, margin: 18)
            #expect(r.minX == x && r.minY == y && r.size == text, "\(corner): \(r)")
        }
        #expect(ClockFace(format: "%H:%M").textHeight(screenHeight: 720) == 60)
        #expect(ClockFace(format: "%H:%M").textHeight(screenHeight: 100) == 16, "never smaller than 16")
        #expect(ClockFace(format: "%H:%M", size: 33).textHeight(screenHeight: 720) == 33)
    }
}
