import CarouselCore
@testable import CarouselMedia
import Foundation
import Testing
import TestSupport

/// A clip played by a video helper of its own: frames through the shared ring at their
/// times in their colours, a ring's worth ahead at most, looping, and the helper gone when
/// the clip stops.
@Suite struct ClipPlayerTests {
    static let settings = IsolatedDecoder.Settings(executable: CarouselBinary.url.path, timeout: 10, memoryLimitMB: 256)

    /// The Y, U and V of a frame's centre pixel.
    static func centre(_ player: ClipPlayer, _ frame: ClipPlayer.Waiting) -> (Int, Int, Int)? {
        guard let shape = player.shape, let planes = player.planes(of: frame.index) else { return nil }
        let x = shape.width / 2, y = shape.height / 2
        let luma = Int(planes[0].load(fromByteOffset: y * shape.pitches[0] + x, as: UInt8.self))
        if shape.layout == .nv12 {
            let at = (y / 2) * shape.pitches[1] + (x / 2) * 2
            return (luma, Int(planes[1].load(fromByteOffset: at, as: UInt8.self)), Int(planes[1].load(fromByteOffset: at + 1, as: UInt8.self)))
        }
        let at = (y / 2) * shape.pitches[1] + x / 2
        return (luma, Int(planes[1].load(fromByteOffset: at, as: UInt8.self)), Int(planes[2].load(fromByteOffset: at, as: UInt8.self)))
    }

    /// Red, lime, blue or white by their BT.601 limited-range YUV.
    static func colour(_ yuv: (Int, Int, Int)) -> Int? {
        let known = [(81, 90, 240), (145, 54, 34), (41, 240, 110), (235, 128, 128)]
        return known.firstIndex { abs($0.0 - yuv.0) <= 12 && abs($0.1 - yuv.1) <= 12 && abs($0.2 - yuv.2) <= 12 }
    }

    @Test func framesComeThroughTheRingAtTheirTimesAndTheHelperGoesWithTheClip() throws {
        let dir = ScratchRoot.path + "/player-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let clip = try ClipFixtures.make(.h264MP4, seconds: [0, 1, 2], rate: 10, in: dir)
        let player = try ClipPlayer(path: clip, settings: Self.settings, loop: false, wake: {})
        var frames: [(time: Double, colour: Int?)] = []
        var mostHeld = 0
        while player.state == .opening || player.state == .playing {
            player.waitForNews(timeout: 10)
            let got = player.take()
            mostHeld = max(mostHeld, got.count)
            for f in got {
                frames.append((f.time, Self.centre(player, f).flatMap(Self.colour)))
                player.release(f.index)
            }
            if got.isEmpty, player.state != .playing { break }
        }
        #expect(player.state == .ended)
        #expect(frames.count == 30, "\(frames.count) frames")
        #expect(frames.allSatisfy { $0.colour == Int($0.time + 0.001) }, "\(frames)")
        #expect(mostHeld <= ClipStreamer.ringSize, "never more than a ring ahead")
        #expect(player.shape?.decoder.isEmpty == false)
        let pid = try #require(player.helperProcess)
        #expect(kill(pid, 0) == 0)
        player.stop()
        #expect(kill(pid, 0) != 0, "the helper is gone with the clip")
    }

    @Test func aLoopingClipCountsOnAcrossItsEnd() throws {
        let dir = ScratchRoot.path + "/loop-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let clip = try ClipFixtures.make(.vp9WebM, seconds: [0, 1], rate: 5, in: dir)
        let player = try ClipPlayer(path: clip, settings: Self.settings, loop: true, wake: {})
        defer { player.stop() }
        var times: [Double] = []
        while times.count < 25, player.state == .opening || player.state == .playing {
            player.waitForNews(timeout: 10)
            for f in player.take() { times.append(f.time); player.release(f.index) }
        }
        #expect(times.count >= 25, "\(player.state)")
        #expect(zip(times, times.dropFirst()).allSatisfy { $0 < $1 }, "times rise across the loop: \(times)")
        #expect(times.contains { abs($0 - 2.0) < 0.01 } && times.contains { abs($0 - 4.0) < 0.01 }, "the second pass starts at 2 s: \(times)")
    }

    /// A seek lands while every ring buffer is held (a paused clip holds them all): the
    /// frames from before it go back unseen, the next come from the new place in its colour,
    /// on the same clock, and a looping clip sought into its second pass counts on.
    @Test func aSeekLandsWhereAskedWithTheRingFullAndTheFramesBeforeItGoBack() throws {
        let dir = ScratchRoot.path + "/seek-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let clip = try ClipFixtures.make(.h264MP4, seconds: [0, 1, 2, 3], rate: 10, in: dir)
        let player = try ClipPlayer(path: clip, settings: Self.settings, loop: true, wake: {})
        defer { player.stop() }
        // Nothing taken or released: the helper fills the ring and waits (a frame taken here
        // and never released would stay the test's, and with all four taken the helper had no
        // buffer left after the seek: it waited for ever, 1 run in 15 on a busy machine).
        for _ in 0..<50 where player.state != .playing {
            player.waitForNews(timeout: 1)
        }
        Thread.sleep(forTimeInterval: 0.5)
        for target in [2.55, 0.3, 3.25] {
            let before = player.seeked.count
            player.seek(to: target)
            player.waitForSeek(after: before, timeout: 10)
            #expect(player.seeked.count == before + 1, "the seek to \(target) landed")
            #expect(abs(player.seeked.time - target) < 0.001, "at \(player.seeked.time)")
            var next: ClipPlayer.Waiting?
            for _ in 0..<50 where next == nil {
                player.waitForNews(timeout: 1)
                next = player.take().first { $0.seek == player.seeked.count }
            }
            let frame = try #require(next, "a frame after the seek to \(target)")
            #expect(frame.position >= target - 0.1 && frame.position < target + 0.2, "the frame at \(frame.position) for \(target)")
            #expect(Self.centre(player, frame).flatMap(Self.colour) == Int(target), "its colour is its second's")
            player.release(frame.index)
            // The rest of what came stays held, as a paused clip's would.
        }
        #expect(player.state == .playing)
    }

    /// A video helper started through `script` (a shell script's body before the real
    /// helper, or instead of it).
    static func slowHelper(_ body: String, in dir: String) throws -> IsolatedDecoder.Settings {
        let script = dir + "/slow-helper"
        try "#!/bin/sh\n\(body)\n".write(toFile: script, atomically: true, encoding: .utf8)
        chmod(script, 0o755)
        var settings = settings
        settings.executable = script
        return settings
    }

    /// Starting a helper (a process, GStreamer's start) is the clip's thread's work, not its
    /// caller's, which is the run loop: a helper that never says it is ready leaves the clip
    /// opening, and stopping it then leaves it ended, not failed.
    @Test func aHelperStartingIsNotWaitedForByWhoStartsTheClip() throws {
        let dir = ScratchRoot.path + "/starting-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let clip = try ClipFixtures.make(.h264MP4, seconds: [0], rate: 10, in: dir)
        let settings = try Self.slowHelper("exec sleep 60", in: dir)
        let player = try ClipPlayer(path: clip, settings: settings, loop: false, wake: {})
        #expect(player.state == .opening)
        #expect(player.helperProcess == nil, "the helper has not said it is ready")
        player.stop()
        #expect(player.state == .ended)
    }

    /// A video helper slow to say it is ready is waited for: GStreamer's first start writes
    /// its plugin registry, which took over 10 s in the emulated kiosk, and a helper killed
    /// then never wrote it.
    @Test func aVideoHelperSlowToStartIsWaitedFor() throws {
        let dir = ScratchRoot.path + "/slow-start-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let clip = try ClipFixtures.make(.h264MP4, seconds: [0], rate: 10, in: dir)
        let settings = try Self.slowHelper("sleep 11\nexec '\(CarouselBinary.url.path)' \"$@\"", in: dir)
        let player = try ClipPlayer(path: clip, settings: settings, loop: false, wake: {})
        defer { player.stop() }
        for _ in 0..<60 where player.state == .opening { player.waitForNews(timeout: 1) }
        #expect(player.state == .playing || player.state == .ended, "\(player.state)")
    }

    /// A video helper scans only the plugins a clip may need (linked beside its registry),
    /// not every plugin installed: the first start after an install wrote a registry of 246
    /// plugins, over 60 s in the emulated kiosk beside a busy host.
    @Test func aVideoHelpersRegistryHoldsOnlyThePluginsAClipMayNeed() throws {
        let dir = ScratchRoot.path + "/registry-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let clip = try ClipFixtures.make(.h264MP4, seconds: [0], rate: 10, in: dir)
        var settings = Self.settings
        settings.videoRegistry = dir + "/cache/gstreamer-registry.bin"
        let player = try ClipPlayer(path: clip, settings: settings, loop: false, wake: {})
        defer { player.stop() }
        for _ in 0..<60 where player.state == .opening { player.waitForNews(timeout: 1) }
        #expect(player.state == .playing || player.state == .ended, "\(player.state)")
        let linked = try FileManager.default.contentsOfDirectory(atPath: dir + "/cache/gstreamer-plugins")
        #expect(!linked.isEmpty && linked.allSatisfy { name in GStreamerSetup.plugins.contains { "libgst\($0).so" == name } }, "\(linked)")
        let registry = try Data(contentsOf: URL(fileURLWithPath: dir + "/cache/gstreamer-registry.bin"))
        #expect(registry.range(of: Data("libgstcoreelements.so".utf8)) != nil)
        #expect(registry.range(of: Data("libgstaudiotestsrc.so".utf8)) == nil, "a plugin no clip needs was scanned")
    }

    /// A seek asked for while the helper is still starting lands once it has started.
    @Test func aSeekAskedBeforeTheHelperStartedLands() throws {
        let dir = ScratchRoot.path + "/early-seek-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let clip = try ClipFixtures.make(.h264MP4, seconds: [0, 1, 2, 3], rate: 10, in: dir)
        let settings = try Self.slowHelper("sleep 1\nexec '\(CarouselBinary.url.path)' \"$@\"", in: dir)
        let player = try ClipPlayer(path: clip, settings: settings, loop: false, wake: {})
        defer { player.stop() }
        #expect(player.helperProcess == nil)
        player.seek(to: 2.5)
        player.waitForSeek(after: 0, timeout: 20)
        #expect(player.seeked.count == 1 && abs(player.seeked.time - 2.5) < 0.001, "\(player.seeked), \(player.state)")
        var next: ClipPlayer.Waiting?
        for _ in 0..<50 where next == nil {
            player.waitForNews(timeout: 1)
            for f in player.take() {
                if next == nil, f.seek == 1 { next = f } else { player.release(f.index) }
            }
        }
        let frame = try #require(next, "a frame after the seek")
        #expect(frame.position >= 2.4 && frame.position < 2.7, "the frame at \(frame.position)")
        #expect(Self.centre(player, frame).flatMap(Self.colour) == 2)
    }

    /// A clip started from a time (sought after its end) begins there.
    @Test func aClipStartedFromATimeBeginsThere() throws {
        let dir = ScratchRoot.path + "/from-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let clip = try ClipFixtures.make(.vp9WebM, seconds: [0, 1, 2], rate: 10, in: dir)
        let player = try ClipPlayer(path: clip, settings: Self.settings, loop: false, from: 2.0, wake: {})
        defer { player.stop() }
        var frames: [ClipPlayer.Waiting] = []
        while player.state == .opening || player.state == .playing {
            player.waitForNews(timeout: 10)
            let got = player.take()
            for f in got {
                if Self.centre(player, f).flatMap(Self.colour) != 2 { Issue.record("a frame at \(f.position) not of the third second") }
                frames.append(f)
                player.release(f.index)
            }
            if got.isEmpty, player.state != .playing { break }
        }
        #expect(player.state == .ended)
        #expect((8...10).contains(frames.count), "the last second's frames: \(frames.map(\.position))")
        #expect(frames.first.map { $0.position >= 1.99 } == true)
    }

    /// A clip larger than the screen shows it comes scaled down in the helper, its shape kept
    /// and its colours unchanged; an iPhone's HDR clip too, still turned as its file says.
    @Test func framesLargerThanTheBoxComeScaledIntoItInTheirShapeAndColours() throws {
        let dir = ScratchRoot.path + "/bounded-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let clip = try ClipFixtures.make(.h264MP4, seconds: [0, 1], width: 320, height: 240, rate: 10, in: dir)
        for (side, size) in [(nil, (320, 240)), (120, (120, 90)), (400, (320, 240))] {
            let player = try ClipPlayer(path: clip, settings: Self.settings, loop: false, maxSide: side, wake: {})
            defer { player.stop() }
            var colours: [Int?] = []
            while player.state == .opening || player.state == .playing {
                player.waitForNews(timeout: 10)
                let got = player.take()
                for f in got {
                    colours.append(Self.centre(player, f).flatMap(Self.colour).map { $0 == Int(f.time + 0.001) ? 1 : 0 })
                    player.release(f.index)
                }
                if got.isEmpty, player.state != .playing { break }
            }
            #expect(player.state == .ended)
            #expect(player.shape.map { ($0.width, $0.height) } ?? (0, 0) == size, "in \(String(describing: side)): \(String(describing: player.shape))")
            #expect(colours.count == 20 && colours.allSatisfy { $0 == 1 }, "in \(String(describing: side)): \(colours)")
        }
        let phone = try ClipFixtures.iPhoneHLG(in: dir)
        let player = try ClipPlayer(path: phone, settings: Self.settings, loop: false, maxSide: 160, wake: {})
        defer { player.stop() }
        player.waitForNews(timeout: 15)
        let shape = try #require(player.shape, "\(player.state)")
        #expect(shape.width == 160 && shape.height == 96 && shape.quarterTurns == 1, "\(shape)")
    }

    /// Told a frame was shown two seconds late, the helper leaves out the frames the screen
    /// could no longer show (a few in a row at most, so the picture goes on) instead of
    /// handing over every one ever further behind; the clip still ends.
    @Test func aFrameSaidLateMakesTheHelperLeaveOutWhatWouldBeLaterStill() throws {
        let dir = ScratchRoot.path + "/late-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let clip = try ClipFixtures.make(.h264MP4, seconds: [0, 1, 2], rate: 10, in: dir)
        let player = try ClipPlayer(path: clip, settings: Self.settings, loop: false, wake: {})
        defer { player.stop() }
        var times: [Double] = []
        var said = false
        while player.state == .opening || player.state == .playing {
            player.waitForNews(timeout: 10)
            let got = player.take()
            for f in got {
                times.append(f.time)
                if !said {
                    said = true
                    player.late(f.time, by: 2)
                }
                player.release(f.index)
            }
            if got.isEmpty, player.state != .playing { break }
        }
        #expect(player.state == .ended)
        // Up to a ring of frames decoded before the word came arrive as they were; after
        // them, what was due more than a frame before the word's clock is left out (by the
        // helper, eight in a row at most, and by the decoder told).
        #expect(times.count <= 30 - 2 * LateFrames.mostInARow, "\(times.count) frames: \(times)")
        #expect(zip(times, times.dropFirst()).contains { $1 - $0 > 0.5 }, "the frames skip ahead: \(times)")
        #expect(times.last.map { $0 > 2.5 } == true, "the clip plays to its end: \(times)")
    }

    @Test func aBrokenClipFailsWithItsReason() throws {
        let dir = ScratchRoot.path + "/broken-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let path = dir + "/noise.mp4"
        try Data((0..<4000).map { UInt8(truncatingIfNeeded: $0 &* 31) }).write(to: URL(fileURLWithPath: path))
        let player = try ClipPlayer(path: path, settings: Self.settings, loop: false, wake: {})
        defer { player.stop() }
        player.waitForNews(timeout: 15)
        guard case .failed(let reason) = player.state else { Issue.record("\(player.state)"); return }
        #expect(!reason.contains("\n"), "\(reason)")
    }
}

/// The damaged-clip campaign: seeded damaged copies of a clip of every container and codec,
/// each played through its own video helper to its end or its failure. Whatever the bytes,
/// this process lives, every clip ends within a bound, and no helper is left behind.
/// `DAMAGED_CLIP_COPIES=N` and `DAMAGED_SEED=S` make it a larger campaign.
@Suite struct DamagedClipTests {
    @Test func everyDamagedClipEndsOrFailsAndLeavesNoHelper() throws {
        let originals = try ImageDamage.cleanFixtures().filter { ImageSource(path: $0).isClip }
        #expect(originals.count == 4, "\(originals)")
        try Self.campaign(originals, sound: false, folder: "damaged-clips")
    }

    /// The same with sound: a clip of every container with its usual sound codec (AAC,
    /// Opus, Vorbis), damaged, played with its sound taken, through its own helper.
    @Test func everyDamagedClipWithSoundEndsOrFailsAndLeavesNoHelper() throws {
        let dir = try Fixtures.temporaryFolder("sound-originals")
        let originals = try ClipFixtures.Kind.all.map { kind in
            try ClipFixtures.make(kind, seconds: [0, 1], width: 96, height: 64, rate: 10, in: dir, name: "sound-\(kind.ext)", sound: true)
        }
        try Self.campaign(originals, sound: true, folder: "damaged-sound")
    }

    /// The same with damage scattered through the whole file, as zzuf makes it (each bit
    /// flipped with a chance of 0.4 %), over a clip of every container and the clips phones
    /// make: an iPhone's HEVC 10-bit HLG `.MOV` (with its Dolby Vision box, turned) and an
    /// Android phone's HDR10 (PQ). Such damage often breaks a demuxer the moment decodebin
    /// connects it, when decodebin drops its error.
    @Test func everyClipWithScatteredDamageEndsOrFailsAndLeavesNoHelper() throws {
        let dir = try Fixtures.temporaryFolder("scattered-originals")
        let originals = try ClipFixtures.Kind.all.map { kind in
            try ClipFixtures.make(kind, seconds: [0, 1], width: 96, height: 64, rate: 10, in: dir, name: "scattered-\(kind.ext)")
        } + [try ClipFixtures.iPhoneHLG(in: dir), try ClipFixtures.hdr(transfer: "smpte2084", in: dir)]
        try Self.campaign(originals, sound: false, folder: "damaged-scattered", scattered: 0.004)
    }

    /// Whether `reason` is the helper's failure at a deadline: a clip whose decoder gave
    /// nothing until the time allowed ran out, not one whose error was heard. (The program's
    /// own bound on a silent helper, "gave no frame for 13 s", is left to the bound on the
    /// longest clip: a helper starved on a loaded machine may meet it.)
    static func isDeadline(_ reason: String) -> Bool {
        reason.contains("gave no picture within ") || reason.contains("stopped giving frames for ")
    }

    /// `DAMAGED_CLIP_COPIES` (24) seeded damaged copies of `originals`, each played to its
    /// end or its failure.
    static func campaign(_ originals: [String], sound: Bool, folder: String, scattered ratio: Double? = nil) throws {
        let environment = ProcessInfo.processInfo.environment
        let count = environment["DAMAGED_CLIP_COPIES"].flatMap { Int($0) } ?? (ratio == nil ? 24 : 54)
        let seed = environment["DAMAGED_SEED"].flatMap { UInt64($0) } ?? 2026
        let dir = try Fixtures.temporaryFolder(folder)
        var paths = try ImageDamage.copies(of: originals, count: ratio == nil ? count : 0, seed: seed, into: dir)
        if let ratio {
            var random = SeededRandom(seed: seed)
            let bytes = try originals.map { [UInt8](try Data(contentsOf: URL(fileURLWithPath: $0))) }
            for n in 0..<count {
                let path = dir + "/" + String(format: "%04d-scattered-", n) + (originals[n % originals.count] as NSString).lastPathComponent
                try Data(ClipFixtures.scattered(bytes[n % originals.count], ratio: ratio, using: &random)).write(to: URL(fileURLWithPath: path))
                paths.append(path)
            }
        }
        var ended = 0, failed = 0, longest = 0.0, heard = 0
        var deadlines: [String] = []
        var helpers: [pid_t] = []
        for path in paths {
            let started = Date()
            let player: ClipPlayer
            do { player = try ClipPlayer(path: path, settings: ClipPlayerTests.settings, loop: false, sound: sound, wake: {}) } catch {
                failed += 1
                continue
            }
            playing: while true {
                player.waitForNews(timeout: 15)
                for f in player.take() { player.release(f.index) }
                heard += player.takeSound().reduce(0) { $0 + $1.frames }
                switch player.state {
                case .ended: ended += 1; break playing
                case .failed(let reason):
                    failed += 1
                    #expect(!reason.isEmpty && !reason.contains("\n"), "\(path): \(reason)")
                    if isDeadline(reason) { deadlines.append("\(path): \(reason)") }
                    break playing
                default:
                    if Date().timeIntervalSince(started) > 20 { Issue.record("\(path) neither ended nor failed in 20 s"); break playing }
                }
            }
            if let pid = player.helperProcess { helpers.append(pid) }
            player.stop()
            longest = max(longest, Date().timeIntervalSince(started))
        }
        #expect(ended + failed == paths.count)
        #expect(!helpers.contains(where: IsolatedDecodingTests.isRunning), "a video helper outlived its clip")
        // The helper gives up on a clip that does not open after the decode timeout, on one
        // that stops after 5 s without a frame; the main side 3 s after each.
        #expect(longest < ClipPlayer.openingSilence(ClipPlayerTests.settings) + 4, "a clip took \(longest) s")
        // Every damaged clip fails by its own error, heard at once: none by running out of time
        // (decodebin drops a demuxer's error while it connects it; see PipelineErrors).
        #expect(deadlines.isEmpty, "failed only at a deadline: \(deadlines)")
        if sound { #expect(heard > 0, "some damaged clip still had sound") }
        print("damaged clips\(sound ? " with sound" : ""): \(paths.count), ended \(ended), failed \(failed) (\(deadlines.count) at a deadline), "
              + "longest \(longest) s\(sound ? ", \(heard) sample frames heard" : "")")
    }

    /// A clip stopped while its helper is still starting takes the helper with it at once, not
    /// when the helper is done starting (up to a minute): on a loaded machine each step of a
    /// show left one more helper starting, until over 100 were (four screens under
    /// ThreadSanitizer, 45 s). The "helper" here never says it is ready.
    @Test func aClipStoppedWhileItsHelperStartsTakesTheHelperWithIt() throws {
        let dir = ScratchRoot.path + "/player-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let clip = try ClipFixtures.make(.h264MP4, seconds: [0], rate: 10, in: dir)
        let slow = dir + "/slow-helper"
        try "#!/bin/sh\necho $$ > \(dir)/pid\nexec /bin/sleep 120\n".write(toFile: slow, atomically: true, encoding: .utf8)
        chmod(slow, 0o755)
        let settings = IsolatedDecoder.Settings(executable: slow, timeout: 10, memoryLimitMB: 256)
        let player = try ClipPlayer(path: clip, settings: settings, loop: false, wake: {})
        var pid: pid_t = 0
        #expect(Poll.until(20) {
            pid = (try? String(contentsOfFile: dir + "/pid", encoding: .utf8)).flatMap { pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines)) } ?? 0
            return pid > 0
        }, "the helper never started")
        guard pid > 0 else { return }
        #expect(kill(pid, 0) == 0, "the helper is starting")
        player.stop()
        #expect(Poll.until(5) { kill(pid, 0) != 0 }, "the helper still starting lived on after its clip stopped")
        if kill(pid, 0) == 0 { kill(pid, SIGKILL) }
    }
}
