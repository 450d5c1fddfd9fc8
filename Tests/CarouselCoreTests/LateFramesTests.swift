import CarouselCore
import Testing

/// A video helper leaving out the frames the screen would pass over: only once the main
/// process has said how its clock stands, only a frame whose successor is decoded and due
/// already, and never so many in a row that the picture stops.
@Suite struct LateFramesTests {
    static let frame = 1.0 / 30

    @Test func nothingIsLeftOutUntilTheMainProcessSaysAFrameWasLate() {
        var late = LateFrames()
        #expect(!late.isBehind(0, lasting: Self.frame, anchor: nil, now: 1_000))
        for n in 0..<100 {
            let dropped = late.drop(Double(n) * Self.frame, next: Double(n + 1) * Self.frame, anchor: nil, now: 1_000)
            #expect(!dropped)
        }
        #expect(late.dropped == 0)
    }

    @Test func aFrameIsLeftOutOnlyWhenTheNextIsDueAlready() {
        var late = LateFrames()
        // Time 0 fell due at 100 s; it is 101 s.
        #expect(late.isBehind(0.5, lasting: Self.frame, anchor: 100, now: 101), "half a second late: its successor is due")
        #expect(!late.isBehind(0.99, lasting: Self.frame, anchor: 100, now: 101), "due within a frame: the screen shows it")
        let passed = late.drop(0.5, next: 0.5 + Self.frame, anchor: 100, now: 101)
        #expect(passed)
        // The next one not due yet: this one goes, late, as the screen would show it.
        let shown = !late.drop(0.99, next: 1.02, anchor: 100, now: 101)
        #expect(shown)
        #expect(late.dropped == 1)
    }

    @Test func neverMoreThanAFewInARowSoTheNextShownCorrectsAStaleClock() {
        var late = LateFrames()
        // A pause the helper was not told of: every frame looks a minute late.
        var sent: [Int] = []
        for n in 0..<30 {
            if late.drop(Double(n) * Self.frame, next: Double(n + 1) * Self.frame, anchor: 0, now: 60) { continue }
            sent.append(n)
            late.sent()
        }
        #expect(sent == [8, 17, 26], "\(sent)")
        #expect(late.dropped == 27)
    }
}
