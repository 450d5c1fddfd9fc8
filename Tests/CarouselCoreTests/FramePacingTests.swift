import CarouselCore
import Testing

/// A clip's frames on the loop's clock: shown at the first refresh at or after their time,
/// the late ones dropped, never queued.
@Suite struct FramePacingTests {
    @Test func theFirstFrameShowsAtOnceAndTheRestAtTheirTimes() {
        var p = FramePacing()
        var waiting = [0.0, 1.0 / 30, 2.0 / 30]
        let first = p.choose(waiting, at: 10)
        #expect(first.show == 0 && first.drop == 0 && p.start == 10)
        waiting.removeFirst()
        #expect(p.due(waiting) == 10 + 1.0 / 30)
        // A refresh before it is due: nothing; at its refresh (after its time): it shows.
        #expect(p.choose(waiting, at: 10 + 1.0 / 60).show == nil)
        #expect(p.choose(waiting, at: 10 + 2.0 / 60 + 0.0001).show == 0)
        #expect(p.shown == 2 && p.dropped == 0 && p.late == 0)
    }

    @Test func aPassThatComesLateShowsTheLatestDueAndDropsTheRest() {
        var p = FramePacing(start: 0)
        // A 100 ms stall: frames at 0, 33, 67 and 100 ms are all due at 105 ms.
        let waiting = [0.0, 0.033, 0.067, 0.1, 0.133]
        let c = p.choose(waiting, at: 0.105)
        #expect(c.show == 3 && c.drop == 3, "the latest due shows, the three before it are dropped")
        #expect(p.dropped == 3 && p.late == 0)
        // Shown more than a refresh after its time: late.
        var q = FramePacing(start: 0)
        _ = q.choose([0.1], at: 0.2)
        #expect(q.late == 1 && q.dropped == 0)
    }

    @Test func aFixedStartIsKeptAndRestartShowsTheNextFirstFrameAtOnce() {
        var p = FramePacing(start: 5)
        #expect(p.choose([0.5], at: 5.2).show == nil, "due at 5.5")
        #expect(p.due([0.5]) == 5.5)
        p.restart()
        #expect(p.choose([0.5], at: 7).show == 0 && p.start == 6.5)
    }
}
