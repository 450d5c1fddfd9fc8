import CarouselCore
import Testing

/// A video helper leaving out the frames the screen could no longer show: only once the main
/// process has said how its clock stands, only frames whose successor is due already, and
/// never so many in a row that the picture stops.
@Suite struct LateFramesTests {
    static let frame = 1.0 / 30

    @Test func nothingIsLeftOutUntilTheMainProcessSaysAFrameWasLate() {
        var late = LateFrames()
        for n in 0..<100 { #expect(late.drop(Double(n) * Self.frame, lasting: Self.frame, anchor: nil, now: 1_000) == nil) }
        #expect(late.dropped == 0)
    }

    @Test func aFrameWhoseSuccessorIsDueAlreadyIsLeftOutWithItsLateness() {
        var late = LateFrames()
        // Time 0 fell due at 100 s: at 101 s the frame of 0.5 s is half a second late.
        let dropped = late.drop(0.5, lasting: Self.frame, anchor: 100, now: 101)
        #expect(dropped.map { abs($0 - 0.5) < 1e-9 } == true)
        // One due within a frame's time still goes (the screen shows it at its next refresh).
        #expect(late.drop(0.99, lasting: Self.frame, anchor: 100, now: 101) == nil)
        // One not due yet goes.
        #expect(late.drop(1.5, lasting: Self.frame, anchor: 100, now: 101) == nil)
        #expect(late.dropped == 1)
    }

    @Test func neverMoreThanAFewInARowSoTheNextShownCorrectsAStaleClock() {
        var late = LateFrames()
        // A pause the helper was not told of: every frame looks a minute late.
        var sent: [Int] = []
        for n in 0..<30 where late.drop(Double(n) * Self.frame, lasting: Self.frame, anchor: 0, now: 60) == nil { sent.append(n) }
        #expect(sent == [8, 17, 26], "\(sent)")
        #expect(late.dropped == 27 && late.inARow == 3)
    }
}
