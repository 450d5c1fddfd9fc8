import CarouselCore
import Testing

/// What is heard, from the count of sample frames an output has played.
@Suite struct SoundTimelineTests {
    @Test func theCountPlayedSaysTheClipTimeHeardAcrossGapsAndLoops() {
        var t = SoundTimeline()
        #expect(t.time(atPlayed: 0) == nil, "nothing queued")
        t.append(time: 2.0, frames: 48_000)       // 2.0–3.0 s
        t.append(time: 3.5, frames: 24_000)       // a gap: 3.5–4.0 s
        t.append(time: 0.0, frames: 4_800)        // looped: from 0 again
        #expect(t.queued == 76_800)
        #expect(t.time(atPlayed: 0) == 2.0)
        #expect(t.time(atPlayed: 24_000) == 2.5)
        #expect(t.time(atPlayed: 48_000) == 3.5)
        #expect(t.time(atPlayed: 60_000) == 3.75)
        #expect(t.time(atPlayed: 72_000 + 2_400) == 0.05)
        #expect(t.time(atPlayed: 76_800) == nil, "everything has played: starved")
        #expect(t.time(atPlayed: -1) == nil)
    }

    @Test func forgettingKeepsTheChunkPlayingAndClearingStartsAnew() {
        var t = SoundTimeline()
        t.append(time: 0, frames: 1_000)
        t.append(time: 10, frames: 1_000)
        t.append(time: 20, frames: 1_000)
        t.forget(before: 1_500)
        #expect(t.time(atPlayed: 1_500) == 10 + 500.0 / 48_000)
        #expect(t.time(atPlayed: 2_000) == 20)
        t.clear()
        #expect(t.queued == 0 && t.time(atPlayed: 0) == nil)
        t.append(time: 5, frames: 0)
        #expect(t.queued == 0, "an empty chunk is nothing")
    }
}
