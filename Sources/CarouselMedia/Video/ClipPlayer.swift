import CarouselCore
import CLinux
import Foundation
import CarouselClock

/// One clip playing in a video helper of its own, as the main process sees it: the helper
/// decodes into a ring of shared buffers mapped here once, a thread receives its messages
/// and wakes the run loop, and the drawing thread takes the frames waiting, uploads the one
/// due and releases the rest. Stopping kills the helper: a clip that moves away frees its
/// decoder at once. Its sound, when asked for, arrives beside the frames and waits to be
/// taken (`takeSound`), the sound from before a seek left out. Everything the helper says
/// is checked (sizes, seals, indices) before a byte is read; a helper that breaks the
/// protocol, crashes or stalls fails the clip.
public final class ClipPlayer: @unchecked Sendable {
    /// The clip as the helper opened it.
    public struct Shape: Sendable, Equatable {
        public var width: Int
        public var height: Int
        public var layout: VideoFrame.Layout
        public var matrix: VideoMatrix
        public var duration: Double?
        public var quarterTurns: Int
        /// The decoder element playing it.
        public var decoder: String
        public var pitches: [Int]
        public var offsets: [Int]
    }

    /// A decoded frame waiting in ring buffer `index`.
    public struct Waiting: Sendable, Equatable {
        public var index: Int
        public var time: Double
        public var duration: Double
        /// Where it lies in the clip, seconds from its start (in this loop).
        public var position: Double
        /// The seeks landed before it came (`Seeked.count`): one taken before a seek landed
        /// has a smaller count than the seek's.
        public var seek = 0
    }

    /// Where the last seek landed: the frames taken after it come from there, the first due
    /// at `time` (on the frames' clock); `count` grows with each.
    public struct Seeked: Sendable, Equatable {
        public var count = 0
        public var time = 0.0
    }

    /// A piece of the clip's sound (`SoundTimeline`'s format) from `time` on the frames' clock.
    public struct Sound: Sendable, Equatable {
        public var time: Double
        public var samples: [UInt8]
        public var frames: Int { samples.count / SoundTimeline.bytesPerFrame }
    }

    public enum State: Sendable, Equatable {
        case opening, playing, ended
        case failed(String)
    }

    public let path: String
    /// What it is called in lines and reasons: its path, or the URL it was downloaded from.
    public let name: String
    /// Seconds without a frame while the helper has room to decode before the clip fails
    /// (the helper itself gives up after `ClipStreamer.stallSeconds`).
    static let silence = ClipStreamer.stallSeconds + 3
    /// Seconds the first frame may take: opening a clip (GStreamer's start, the demuxer's
    /// and decoder's preroll) may take the decode timeout, as a poster may; a clip stops
    /// producing frames only once it has produced one.
    private let openingSilence: Double

    /// Nil until the clip's thread has started it and sent it the clip.
    private var helper: HelperProcess?
    /// What was asked of the helper before it started (seeks), sent once it has, in order.
    private var early: [HelperMessage] = []
    private let lock = NSCondition()
    private var shapeValue: Shape?
    private var frameBytes = 0
    private var ring: [UnsafeRawPointer?] = Array(repeating: nil, count: HelperMessage.ClipShape.maxRing)
    private var ringSize = 0
    private var waiting: [Waiting] = []
    /// Buffers the helper filled and this side has not released.
    private var held: Set<Int> = []
    private var fileAtFault = false
    private var stateValue = State.opening
    private var seekedValue = Seeked()
    private var stopped = false
    private let wake: @Sendable () -> Void
    private var sound: [(piece: Sound, epoch: Int)] = []
    private var soundFrames = 0
    /// Seeks asked for and not landed: until they have, no sound is given out (what came
    /// may be from before or after).
    private var seeksPending = 0
    /// The epoch of the sound after the last seek landed: earlier sound is dropped.
    private var soundEpoch = 0
    /// The most sound kept waiting, in sample frames: four seconds (its `SoundTap` lead is
    /// two), the oldest dropped beyond.
    static let soundKept = 4 * SoundTimeline.rate

    /// Starts a video helper and has it play `path` from `from` seconds (`loop`: again from
    /// its start at its end; `sound`: its sound too). `wake` is called from another thread
    /// whenever a frame, the end, a seek's landing or a failure comes (not for sound: it
    /// comes ahead of the frames, and is taken with them). `maxSide`: the frames come scaled
    /// down into a square of this side (nil: as decoded).
    public init(path: String, name: String? = nil, range: ByteRange? = nil, settings: IsolatedDecoder.Settings, loop: Bool,
                from: Double = 0, sound: Bool = false, maxSide: Int? = nil, wake: @escaping @Sendable () -> Void) throws(ImageError) {
        self.path = path
        self.name = name ?? path
        self.wake = wake
        openingSilence = Self.openingSilence(settings)
        let fd: Int32
        do throws(ImageError) { fd = try ImageFile.open(path) } catch { throw ImageError(path: self.name, reason: error.reason) }
        let start = Int((max(0, from.isFinite ? from : 0) * 1e6).rounded())
        let play = HelperMessage.play(name: self.name, loop: loop, range: range, fromMicros: start, sound: sound,
                                      maxSide: maxSide.map { min(max(2, $0), HelperMessage.maxSideLimit) } ?? 0)
        // The helper starts on the clip's own thread: starting one (a process, GStreamer's
        // start) took 180-240 ms, which the run loop spent not drawing at every clip's arrival
        // and at every animated tile of the wall.
        let thread = Thread { [self] in
            if let helper = startHelper(settings, play: play, file: fd) { receive(from: helper) }
        }
        thread.name = "clip"
        thread.start()
    }

    /// Seconds a clip's first frame may take with `settings`: its opening may take the
    /// decode timeout, as a poster may.
    static func openingSilence(_ settings: IsolatedDecoder.Settings) -> Double {
        max(silence, settings.timeout + 3)
    }

    deinit { stop() }

    public var shape: Shape? { lock.withLock { shapeValue } }
    /// Failed, because of the file: its helper said GStreamer could not play it, or died of
    /// it (a signal other than SIGKILL). Not a helper that could not start, a silence, or one
    /// killed (the OOM killer, a stop): those may pass.
    public var failedOnTheFile: Bool { lock.withLock { fileAtFault } }
    public var state: State { lock.withLock { stateValue } }
    public var seeked: Seeked { lock.withLock { seekedValue } }

    /// Moves the clip to `seconds` from its start: once the helper has, `seeked` says where
    /// the frames now come from, and the frames decoded before it are given back unseen.
    public func seek(to seconds: Double) {
        let message = HelperMessage.seek(micros: Int((max(0, seconds.isFinite ? seconds : 0) * 1e6).rounded()))
        let started = lock.withLock { () -> HelperProcess? in
            seeksPending += 1
            if helper == nil { early.append(message) }
            return helper
        }
        started?.send(message)
    }

    /// The sound that arrived since the last call, in order; none while a seek is landing.
    public func takeSound() -> [Sound] {
        lock.withLock {
            guard seeksPending == 0 else { return [] }
            defer { sound.removeAll(); soundFrames = 0 }
            return sound.filter { $0.epoch >= soundEpoch }.map(\.piece)
        }
    }
    /// The helper's process id (tests: freed when the clip stops); nil until it has started.
    public var helperProcess: pid_t? { lock.withLock { helper?.pid } }

    /// The frames that arrived since the last call, oldest first.
    public func take() -> [Waiting] {
        lock.withLock {
            defer { waiting.removeAll() }
            return waiting
        }
    }

    /// Waits until a frame, the end or a failure arrives, or `timeout` seconds pass:
    /// `carousel render` shows the frame due at its script's time, whatever the decoder's speed.
    public func waitForNews(timeout: Double) {
        let end = SystemClock.deadline(after: timeout)
        lock.withLock {
            while waiting.isEmpty && stateValue == .playing || stateValue == .opening {
                if !lock.wait(until: end) { return }
            }
        }
    }

    /// Waits until a seek lands after the `count`th, the clip ends or fails, or `timeout`
    /// seconds pass (`carousel render`: the frames after a seek are those it shows).
    public func waitForSeek(after count: Int, timeout: Double) {
        let end = SystemClock.deadline(after: timeout)
        lock.withLock {
            while seekedValue.count <= count, stateValue == .playing || stateValue == .opening {
                if !lock.wait(until: end) { return }
            }
        }
    }

    /// The planes of the frame in ring buffer `index`, for an upload; valid until it is released.
    public func planes(of index: Int) -> [UnsafeRawPointer]? {
        lock.withLock {
            guard let shape = shapeValue, index < ringSize, held.contains(index), let base = ring[index] else { return nil }
            return shape.offsets.map { base + $0 }
        }
    }

    /// Gives ring buffer `index` back to the helper.
    public func release(_ index: Int) {
        let started = lock.withLock { held.remove(index) != nil ? helper : nil }
        started?.send(.release(index: index))
    }

    /// Says the frame due at `time` (on the frames' clock) was shown `seconds` after it was
    /// due: the helper leaves out frames that would come later still, and its decoder skips
    /// ahead, so a clip decoded slower than it plays keeps its time at a lower frame rate.
    public func late(_ time: Double, by seconds: Double) {
        guard time.isFinite, seconds.isFinite, seconds > 0 else { return }
        let micros = Int((max(0, time) * 1e6).rounded())
        let late = min(HelperMessage.maxLateMicros, Int((seconds * 1e6).rounded()))
        lock.withLock { helper }?.send(.late(micros: micros, lateMicros: late))
    }

    /// Ends the clip: the helper is killed and its buffers unmapped.
    public func stop() {
        let (first, started) = lock.withLock { () -> (Bool, HelperProcess?) in
            defer { stopped = true }
            return (!stopped, helper)
        }
        guard first else { return }
        // One still starting is killed by the clip's thread within 0.1 s (it asks whether the
        // clip is still wanted while it waits for the helper).
        started?.terminate()
        lock.withLock {
            for i in 0..<ringSize { if let map = ring[i] { munmap(UnsafeMutableRawPointer(mutating: map), frameBytes) } }
            ring = Array(repeating: nil, count: HelperMessage.ClipShape.maxRing)
            held.removeAll()
            waiting.removeAll()
            sound.removeAll()
            soundFrames = 0
            if stateValue == .opening || stateValue == .playing { stateValue = .ended }
            lock.broadcast()
        }
    }

    /// Starts the helper and sends it the clip (`file`, closed here); nil when it cannot,
    /// the clip failed, or when the clip was stopped meanwhile. The clip's thread.
    private func startHelper(_ settings: IsolatedDecoder.Settings, play: HelperMessage, file fd: Int32) -> HelperProcess? {
        defer { close(fd) }
        if lock.withLock({ stopped }) { return nil }
        let started: HelperProcess
        do throws(HelperFault) {
            let video = settings.videoHelper
            started = try HelperProcess.start(executable: settings.executable, arguments: video.arguments,
                                              environment: video.environment, startTimeout: settings.videoStartTimeout,
                                              filter: settings.filter, abandoned: { lock.withLock { stopped } })
        } catch {
            fail("cannot be played: \(error.description)")
            return nil
        }
        guard started.send(play, attaching: fd) else {
            fail("cannot be played: the video decoder stopped (\(started.reap()))")
            return nil
        }
        // Seeks asked for meanwhile go after the clip, in order, before any asked from now on.
        while true {
            let (isStopped, queued) = lock.withLock { () -> (Bool, [HelperMessage]) in
                defer { early = [] }
                if !stopped && early.isEmpty { helper = started }
                return (stopped, early)
            }
            if isStopped {
                started.terminate()
                return nil
            }
            if queued.isEmpty { return started }
            for message in queued { started.send(message) }
        }
    }

    /// The receiving thread: until the clip ends, fails or is stopped.
    private func receive(from helper: HelperProcess) {
        while true {
            let (isStopped, busy, opening) = lock.withLock { (stopped, held.count < ringSize || ringSize == 0, stateValue == .opening) }
            if isStopped { return }
            // A helper with a buffer free must send a frame within `silence` (its first within
            // `openingSilence`); one whose every buffer is held here waits for us.
            let silence = opening ? openingSilence : Self.silence
            let received = helper.receive(until: busy ? SystemClock.monotonic + silence : nil)
            if lock.withLock({ stopped }) { if case .message(_, let fd?) = received { close(fd) }; return }
            switch received {
            case .message(let message, let fd):
                defer { if let fd { close(fd) } }
                if let problem = take(message, fd: fd, from: helper) {
                    fail(problem)
                    return
                }
                if case .clipEnded = message { return }
                if case .failed = message { return }
            case .timedOut:
                fail("gave no frame for \(Int(silence)) s")
                return
            case .closed:
                let end = helper.reap()
                fail("the video decoder stopped (\(end))", fileAtFault: end.hasPrefix("SIG") && end != "SIGKILL")
                return
            case .malformed(let what):
                fail("the video decoder sent \(what)")
                return
            }
        }
    }

    /// Applies one message; a reason when it breaks the protocol.
    private func take(_ message: HelperMessage, fd: Int32?, from helper: HelperProcess) -> String? {
        switch message {
        case .clipOpened(let c):
            return lock.withLock { () -> String? in
                guard shapeValue == nil else { return "the video decoder opened the clip twice" }
                shapeValue = Shape(width: c.width, height: c.height, layout: c.layout, matrix: c.matrix,
                                   duration: c.durationMicros > 0 ? Double(c.durationMicros) / 1e6 : nil,
                                   quarterTurns: c.quarterTurns, decoder: c.decoder, pitches: c.pitches, offsets: c.offsets)
                frameBytes = c.frameBytes
                ringSize = c.ringSize
                return nil
            }
        case .ringBuffer(let index):
            guard let fd else { return "the video decoder sent a buffer without memory" }
            let (size, known) = lock.withLock { (frameBytes, shapeValue != nil && index < ringSize && ring[index] == nil) }
            guard known else { return "the video decoder sent buffer \(index) out of turn" }
            let seals = kc_get_seals(fd)
            var info = stat()
            guard seals >= 0, seals & 6 == 6, fstat(fd, &info) == 0, Int(info.st_size) == size, size > 0 else {
                return "the video decoder sent a buffer that is not sealed or not \(size) bytes"
            }
            guard let map = mmap(nil, size, PROT_READ, MAP_SHARED, fd, 0), map != MAP_FAILED else {
                return "the video decoder sent a buffer that cannot be mapped"
            }
            lock.withLock { ring[index] = UnsafeRawPointer(map) }
            return nil
        case .frame(let index, let micros, let duration, let position):
            let problem = lock.withLock { () -> String? in
                guard index < ringSize, ring[index] != nil, !held.contains(index) else { return "the video decoder sent frame buffer \(index) out of turn" }
                held.insert(index)
                waiting.append(Waiting(index: index, time: Double(micros) / 1e6, duration: Double(duration) / 1e6,
                                       position: Double(position) / 1e6, seek: seekedValue.count))
                stateValue = .playing
                lock.broadcast()
                return nil
            }
            if problem == nil { wake() }
            return problem
        case .clipEnded:
            lock.withLock { stateValue = .ended; lock.broadcast() }
            wake()
            return nil
        case .seeked(let micros, let epoch):
            // The frames from before the seek go back to the helper unseen, and its sound goes.
            let passed = lock.withLock { () -> [Int] in
                let indices = waiting.map(\.index)
                for i in indices { held.remove(i) }
                waiting.removeAll()
                seeksPending = max(0, seeksPending - 1)
                soundEpoch = max(soundEpoch, epoch)
                sound.removeAll { $0.epoch < soundEpoch }
                soundFrames = sound.reduce(0) { $0 + $1.piece.frames }
                seekedValue.count += 1
                seekedValue.time = Double(micros) / 1e6
                lock.broadcast()
                return indices
            }
            for i in passed { helper.send(.release(index: i)) }
            wake()
            return nil
        case .sound(let micros, let frames, let epoch):
            guard let fd else { return "the video decoder sent sound without memory" }
            let bytes = frames * SoundTimeline.bytesPerFrame
            let seals = kc_get_seals(fd)
            var info = stat()
            guard seals >= 0, seals & 14 == 14, fstat(fd, &info) == 0, Int(info.st_size) == bytes else {
                return "the video decoder sent sound that is not sealed or not \(bytes) bytes"
            }
            guard let map = mmap(nil, bytes, PROT_READ, MAP_SHARED, fd, 0), map != MAP_FAILED else {
                return "the video decoder sent sound that cannot be mapped"
            }
            let piece = Sound(time: Double(micros) / 1e6, samples: [UInt8](UnsafeRawBufferPointer(start: map, count: bytes)))
            munmap(map, bytes)
            lock.withLock {
                sound.append((piece, epoch))
                soundFrames += frames
                while soundFrames > Self.soundKept, !sound.isEmpty { soundFrames -= sound.removeFirst().piece.frames }
            }
            return nil
        case .failed(let reason):
            fail(reason, fileAtFault: true)
            return nil
        default:
            return "the video decoder said something unexpected"
        }
    }

    private func fail(_ reason: String, fileAtFault: Bool = false) {
        lock.withLock {
            // A clip stopped has ended, whatever its helper did after.
            if stopped { return }
            if case .failed = stateValue {} else {
                stateValue = .failed(reason)
                self.fileAtFault = fileAtFault
            }
            lock.broadcast()
        }
        wake()
    }
}
