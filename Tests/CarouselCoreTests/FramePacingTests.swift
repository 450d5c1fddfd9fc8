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

    /// A clip at 30 frames a second whose sound is played by an output running `rate` times
    /// as fast as the loop's clock, taking its samples 512 at a time (as SDL's does): the
    /// loop passes at 60 Hz or when a frame is due; what is heard is the output's count
    /// played less half a buffer.
    private func playWithSound(rate: Double, following: Bool, seconds: Double = 10) -> FramePacing {
        var pacing = FramePacing()
        var frames = (0..<Int(seconds * 30)).map { Double($0) / 30 }
        var now = 0.0
        while now < seconds - 0.1, !frames.isEmpty {
            let played = (now * rate * 48_000 / 512).rounded(.down) * 512
            let heard = (played - 256) / 48_000
            pacing.follow(heard: following && heard > 0 ? heard : nil, at: now)
            let choice = pacing.choose(frames, at: now)
            if let show = choice.show { frames.removeFirst(show + 1) }
            now += 1.0 / 60
        }
        return pacing
    }

    @Test func withSoundThePictureKeepsToWhatIsHeard() {
        // The output's clock 4 % fast (a cheap sound card, or SDL's disk writer): 400 ms
        // ahead after 10 s of loop time.
        let followed = playWithSound(rate: 1.04, following: true)
        #expect(followed.shownWithSound > 250)
        #expect(followed.worstDrift <= FramePacing.driftLimit, "worst \(followed.worstDrift) s")
        #expect(followed.drifted == 0)
        // The same sound measured against a clock left to itself drifts out of step.
        var alone = FramePacing()
        var frames = (0..<300).map { Double($0) / 30 }
        var now = 0.0, worst = 0.0
        while now < 9.9, !frames.isEmpty {
            if let show = alone.choose(frames, at: now).show {
                worst = max(worst, abs(frames[show] - ((now * 1.04 * 48_000 / 512).rounded(.down) * 512 - 256) / 48_000))
                frames.removeFirst(show + 1)
            }
            now += 1.0 / 60
        }
        #expect(worst > 0.2, "without following, \(worst) s apart")
    }

    @Test func aBigDifferenceJumpsASmallOneIsClosedGradually() {
        var p = FramePacing(start: 10)
        p.follow(heard: 1, at: 11.005)  // 5 ms off: closed by a fraction
        #expect(abs(p.start! - (10 + 0.005 * FramePacing.followGain)) < 1e-9)
        p.follow(heard: 3, at: 11)  // two seconds off (a seek): at once
        #expect(p.start == 8)
        // No sound (the output ran dry): the clock goes on by itself, unmeasured.
        p.follow(heard: nil, at: 11.5)
        #expect(p.start == 8)
        #expect(p.choose([3.4], at: 11.5).show == 0)
        #expect(p.shownWithSound == 0)
    }

    @Test func framesFarFromTheSoundAreCounted() {
        var p = FramePacing(start: 0)
        p.follow(heard: 1.0, at: 1.0)
        // The only frame left is 100 ms old: it shows, 100 ms behind the sound.
        _ = p.choose([0.9], at: 1.0)
        #expect(p.shownWithSound == 1 && p.drifted == 1 && abs(p.worstDrift - 0.1) < 1e-9)
    }
}

/// Frames a decoder behind skipped (told by QoS) show as gaps between those it gave: counted,
/// so a clip played at a lower frame rate on a slow board says how many it lost (issue 59).
@Suite struct SkippedFrameTests {
    @Test func gapsBetweenFramesReceivedAreCountedInFrames() {
        var pacing = FramePacing()
        let d = 1.0 / 30
        for n in [0, 1, 4, 5, 6, 10] { pacing.received(time: Double(n) * d, duration: d) }
        #expect(pacing.skipped == 2 + 3, "frames 2, 3 and 7 to 9 never came")
        pacing.received(time: 0, duration: d)
        #expect(pacing.skipped == 5, "the clip going round again is no gap")
        pacing.forgetReceived()
        pacing.received(time: 5, duration: d)
        #expect(pacing.skipped == 5, "a seek is no gap")
        pacing.received(time: 5 + d * 1.4, duration: d)
        #expect(pacing.skipped == 5, "less than half a frame late is the stream's own jitter")
        pacing.received(time: .nan, duration: d)
        pacing.received(time: 9, duration: 0)
        #expect(pacing.skipped == 5)
    }
}
