import CarouselCore
@testable import CarouselMedia
import Foundation
import Testing
import TestSupport

/// A clip's sound from its sandboxed video helper: in every container and codec, resampled
/// to 48 kHz stereo, stamped on the frames' clock, in its tones, the sound from before a
/// seek left out, counting on across a loop, and never more than its lead ahead of the
/// frames the main process has taken.
@Suite struct ClipSoundTests {
    static let settings = ClipPlayerTests.settings

    static func folder(_ name: String) throws -> String {
        let dir = ScratchRoot.path + "/\(name)-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir
    }

    /// The pieces joined, with the clip time of their first sample frame.
    static func joined(_ pieces: [ClipPlayer.Sound]) -> (start: Double, samples: [UInt8]) {
        (pieces.first?.time ?? 0, pieces.flatMap(\.samples))
    }

    @Test(arguments: ClipFixtures.Kind.all)
    func soundComesInOrderAndInItsTones(_ kind: ClipFixtures.Kind) throws {
        let clip = try ClipFixtures.make(kind, seconds: [0, 1, 2], width: 160, height: 120, rate: 10, in: try Self.folder("sound"),
                                         sound: true)
        let player = try ClipPlayer(path: clip, settings: Self.settings, loop: false, sound: true, wake: {})
        defer { player.stop() }
        var pieces: [ClipPlayer.Sound] = []
        while player.state == .opening || player.state == .playing {
            player.waitForNews(timeout: 10)
            for f in player.take() { player.release(f.index) }
            pieces += player.takeSound()
        }
        pieces += player.takeSound()
        #expect(player.state == .ended, "\(player.state)")
        let seconds = Double(pieces.reduce(0) { $0 + $1.frames }) / 48_000
        #expect(abs(seconds - 3) < 0.1, "\(seconds) s of sound")
        #expect(pieces.first.map { $0.time < 0.05 } == true, "from the start: \(pieces.first?.time ?? -1)")
        // Each piece follows the one before on the clip's clock.
        for (a, b) in zip(pieces, pieces.dropFirst()) {
            let end = a.time + Double(a.frames) / 48_000
            if abs(b.time - end) > 0.005 { Issue.record("a piece at \(b.time) after one ending at \(end)") }
        }
        let (start, samples) = Self.joined(pieces)
        for second in 0..<3 {
            let at = Int((Double(second) + 0.4 - start) * 48_000)
            let tone = ClipFixtures.tone(of: samples, from: at, count: 9_600)
            #expect(abs(tone - ClipFixtures.tones[second]) < ClipFixtures.tones[second] * 0.03,
                    "second \(second): \(tone) Hz, not \(ClipFixtures.tones[second])")
        }
        // Both channels carry the mono sound (within the converter's dither).
        guard samples.count >= 49_000 * 4 else { Issue.record("\(samples.count / 4) sample frames"); return }
        func sample(_ frame: Int, _ channel: Int) -> Int {
            let at = frame * 4 + channel * 2
            return Int(Int16(bitPattern: UInt16(samples[at]) | UInt16(samples[at + 1]) << 8))
        }
        let apart = (48_000..<49_000).map { abs(sample($0, 0) - sample($0, 1)) }.max() ?? 0
        let loud = (48_000..<49_000).map { abs(sample($0, 0)) }.max() ?? 0
        #expect(apart <= 4 && loud > 1_000, "left and right \(apart) apart, at most \(loud)")
    }

    /// While a seek lands no sound is given out; after it, only the new place's, from there.
    @Test func aSeekLeavesOutTheSoundBeforeIt() throws {
        let clip = try ClipFixtures.make(.h264MP4, seconds: [0, 1, 2, 3], width: 160, height: 120, rate: 10,
                                         in: try Self.folder("sound-seek"), sound: true)
        let player = try ClipPlayer(path: clip, settings: Self.settings, loop: false, sound: true, wake: {})
        defer { player.stop() }
        // Some sound, and frames up to a second in at most: the frames not taken then hold the
        // helper at most a ring ahead, so the clip cannot end before the seek (under
        // ThreadSanitizer its sound came so late that the frames ran to the end first, and a
        // seek after the end is not made).
        var heard = 0, shown = 0.0
        while heard < 12_000 || shown < 0.5, shown < 1, player.state == .opening || player.state == .playing {
            player.waitForNews(timeout: 10)
            for f in player.take() {
                shown = max(shown, f.position)
                player.release(f.index)
            }
            heard += player.takeSound().reduce(0) { $0 + $1.frames }
        }
        let before = player.seeked.count
        player.seek(to: 2.5)
        #expect(player.takeSound().isEmpty, "nothing while the seek lands")
        player.waitForSeek(after: before, timeout: 10)
        #expect(player.seeked.count == before + 1, "the seek landed (\(player.state))")
        var after: [ClipPlayer.Sound] = []
        for _ in 0..<100 where after.reduce(0, { $0 + $1.frames }) < 24_000 {
            player.waitForNews(timeout: 1)
            for f in player.take() { player.release(f.index) }
            after += player.takeSound()
        }
        let first = try #require(after.first)
        #expect(abs(first.time - 2.5) < 0.05, "the sound after the seek starts at \(first.time)")
        #expect(after.allSatisfy { $0.time >= 2.45 }, "no sound from before the seek: \(after.map(\.time).prefix(8))")
        let (start, samples) = Self.joined(after)
        let tone = ClipFixtures.tone(of: samples, from: Int((2.7 - start) * 48_000), count: 4_800)
        #expect(abs(tone - ClipFixtures.tones[2]) < 30, "the third second's tone, not \(tone) Hz")
    }

    @Test func aLoopingClipsSoundCountsOnAcrossItsEnd() throws {
        let clip = try ClipFixtures.make(.vp9WebM, seconds: [0, 1], width: 160, height: 120, rate: 10,
                                         in: try Self.folder("sound-loop"), sound: true)
        let player = try ClipPlayer(path: clip, settings: Self.settings, loop: true, sound: true, wake: {})
        defer { player.stop() }
        var pieces: [ClipPlayer.Sound] = []
        while (pieces.last?.time ?? 0) < 3.5, player.state == .opening || player.state == .playing {
            player.waitForNews(timeout: 10)
            for f in player.take() { player.release(f.index) }
            pieces += player.takeSound()
        }
        #expect(zip(pieces, pieces.dropFirst()).allSatisfy { $0.time < $1.time }, "times rise across the loop")
        let second = try #require(pieces.firstIndex { $0.time >= 2.0 - 0.001 })
        #expect(abs(pieces[second].time - 2.0) < 0.03, "the second pass's sound starts at 2 s: \(pieces[second].time)")
        let (start, samples) = Self.joined(Array(pieces[second...]))
        let tone = ClipFixtures.tone(of: samples, from: Int((2.3 - start) * 48_000), count: 9_600)
        #expect(abs(tone - ClipFixtures.tones[0]) < 20, "the first second's tone again, not \(tone) Hz")
    }

    /// A paused clip (its frames held): the helper decodes its sound at most its lead
    /// ahead of the last frame it sent, so nothing piles up.
    @Test func soundRunsAtMostItsLeadAheadOfTheFrames() throws {
        let clip = try ClipFixtures.make(.h264MP4, seconds: [0, 1, 2, 3, 0, 1, 2, 3], width: 160, height: 120, rate: 10,
                                         in: try Self.folder("sound-lead"), sound: true)
        let player = try ClipPlayer(path: clip, settings: Self.settings, loop: false, sound: true, wake: {})
        defer { player.stop() }
        var frames: [ClipPlayer.Waiting] = []
        for _ in 0..<50 where frames.count < ClipStreamer.ringSize {
            player.waitForNews(timeout: 1)
            frames += player.take()
        }
        Thread.sleep(forTimeInterval: 2)
        frames += player.take()
        let pieces = player.takeSound()
        let lastFrame = try #require(frames.map { $0.time + $0.duration }.max())
        let soundEnd = pieces.map { $0.time + Double($0.frames) / 48_000 }.max() ?? 0
        #expect(soundEnd > 0.5, "some sound came: to \(soundEnd) s")
        // A sample is let through when it starts within the lead; the decoder's piece may run past.
        #expect(soundEnd <= lastFrame + SoundTap.lead + 0.2, "sound to \(soundEnd) s with frames to \(lastFrame) s")
    }

    /// Asked for sound, a clip without any plays as before.
    @Test func aClipWithoutSoundPlaysAsBefore() throws {
        let clip = try ClipFixtures.make(.h264MP4, seconds: [0, 1], width: 160, height: 120, rate: 10, in: try Self.folder("mute"))
        let player = try ClipPlayer(path: clip, settings: Self.settings, loop: false, sound: true, wake: {})
        defer { player.stop() }
        var frames = 0
        var lastFrame = Date()
        while player.state == .opening || player.state == .playing {
            player.waitForNews(timeout: 10)
            for f in player.take() { frames += 1; player.release(f.index); lastFrame = Date() }
        }
        #expect(player.state == .ended && frames == 20)
        #expect(player.takeSound().isEmpty)
        // A sound awaited would hold its end `ClipStreamer.soundEndSilence` (10 s) after the
        // last frame; the end comes at once (counted from the last frame, not from the start:
        // on a busy machine the clip itself took more than its 2 s to decode).
        let held = Date().timeIntervalSince(lastFrame)
        #expect(held < ClipStreamer.soundEndSilence / 3, "its end was held \(held) s for a sound that never comes")
    }
}
