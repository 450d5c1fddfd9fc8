import CarouselCore
import CLinux
import Glibc
import CarouselClock

/// A video helper's side of playing one clip: frames decoded by GStreamer are written, as
/// decoded (I420 or NV12, each plane's rows 32-byte aligned), into a ring of memfds the main
/// process mapped once, and announced one message each; a buffer is written again only
/// once the main process has released it, so decoding runs at most a ring ahead of the
/// screen. Its sound, when asked for, goes in messages of its own, a sealed memfd each
/// (`SoundTap` keeps it at most a little ahead of the frames). An animated picture (GIF,
/// WebP) plays the same way, its frames in RGBA. Video helper process only.
enum ClipStreamer {
    /// Buffers in the ring: the frame on screen, the next one, and two decoded ahead.
    static let ringSize = 4
    /// Seconds a clip may give no frame before it counts as failed.
    static let stallSeconds = 5.0
    /// Seconds its sound may give nothing, after its last frame, before the end is said
    /// anyway: a helper (which runs at a lower priority than the screen) on a busy machine
    /// went 2 s without a sound sample and cut the clip's last second of sound.
    static let soundEndSilence = 10.0

    /// Plays the clip in `file` (or in `range` of it) from `from` seconds until it ends (or,
    /// `loop`, until the main process goes), moving where the main process seeks; `sound`:
    /// its first sound stream too; `maxSide`: its frames scaled down into a square of this
    /// side (the ring, the tone mapping and the screen's texture then cost what the screen
    /// shows, not what the phone recorded). An animated picture plays as many times as it says
    /// instead (and is not sought, and has no sound). `openTimeout`: seconds its opening may
    /// take (the decode timeout; never less than `stallSeconds`).
    static func play(file: Int32, range: ByteRange?, name: String, loop: Bool, from: Double = 0, sound wantsSound: Bool = false,
                     maxSide: Int? = nil, openTimeout: Double = stallSeconds, colour: ColourConverter = ColourConverter(),
                     on socket: MessageSocket) {
        if range == nil {
            do throws(ImageError) {
                if let animation = try PictureAnimation.open(file: file, name: name) {
                    return animate(animation.frames, conversion: colour.conversion(from: animation.colour),
                                   orientation: animation.orientation, on: socket)
                }
            } catch {
                socket.send(.failed(reason: error.reason))
                return
            }
        }
        let clip: GStreamerClip
        let info: GStreamerClip.Info
        let sound = wantsSound ? SoundTap { time, bytes, epoch in send(sound: bytes, at: time, epoch: epoch, on: socket) } : nil
        do throws(ImageError) {
            clip = try GStreamerClip(file: file, range: range, name: name, sound: sound, maxSide: maxSide)
            info = try clip.open(timeout: max(stallSeconds, openTimeout))
        } catch {
            socket.send(.failed(reason: error.reason))
            return
        }
        guard let decoded = info.layout else { socket.send(.failed(reason: "gave frames of an unknown kind")); return }
        // A phone's HDR clip (and any deeper than 8 bits, or of a gamut or matrix the
        // renderer lacks) goes to the screen as 8-bit BT.709 I420, tone-mapped here.
        let mapper = info.mapsColour ? VideoToneMapper(signal: info.signal) : nil
        let layout: VideoFrame.Layout = mapper == nil ? decoded : .i420
        var pitches: [Int] = [], offsets: [Int] = [], total = 0
        for plane in 0..<layout.planeCount {
            let (rowBytes, rows) = VideoFrame.planeSize(plane, layout: layout, width: info.width, height: info.height)
            let pitch = (rowBytes + 31) & ~31
            pitches.append(pitch)
            offsets.append(total)
            total += pitch * rows
        }
        let shape = HelperMessage.ClipShape(width: info.width, height: info.height, layout: layout, matrix: info.matrix,
                                            durationMicros: Int((info.duration ?? 0) * 1e6), quarterTurns: info.quarterTurns,
                                            decoder: info.decoder, frameBytes: total, pitches: pitches, offsets: offsets,
                                            ringSize: ringSize)
        guard let ring = Ring(shape, on: socket) else { return }
        if from > 0 {
            sound?.videoSent(upTo: from)
            clip.seek(to: from)
        }
        var loopStart = 0.0, loopEnd = 0.0
        var stamps = FrameStamps()
        var dropping = LateFrames()
        // A sample taken to see whether the frame before it could be left out, and its time.
        var ahead: GStreamerClip.Sample?
        var aheadFrameTime: Double?
        while true {
            guard let turn = ring.next() else { return }
            guard case .fill(let index) = turn else {
                // The frames after the answer come from the new place, on the same clock.
                guard case .seek(let target) = turn else { return }
                let at = min(max(0, target), info.duration ?? target)
                sound?.videoSent(upTo: loopStart + at)
                clip.seek(to: at)
                stamps.restart()
                dropping = LateFrames()
                ahead = nil
                aheadFrameTime = nil
                // The sound sent from here on is the new place's: it carries this epoch or a later one.
                guard socket.send(.seeked(micros: Int(((loopStart + at) * 1e6).rounded()), soundEpoch: sound?.epoch ?? 0)) else { return }
                continue
            }
            let sample: GStreamerClip.Sample
            if let ahead {
                sample = ahead
            } else {
                do throws(ImageError) {
                    sample = try clip.next(timeout: stallSeconds)
                } catch {
                    socket.send(.failed(reason: error.reason))
                    return
                }
            }
            let aheadTime = aheadFrameTime
            ahead = nil
            aheadFrameTime = nil
            switch sample {
            case .frame(let first):
                var frame = first
                var time = aheadTime ?? stamps.time(of: frame.time, lasting: frame.duration)
                // So late that the next frame is due already: the decoder is told, and skips
                // ahead (what decoding the frames before costs is spared); and if that one is
                // decoded, this one is left out (its tone mapping and copy spared), as the
                // screen would pass it.
                while dropping.isBehind(loopStart + time, lasting: frame.duration, anchor: ring.anchor, now: SystemClock.monotonic) {
                    if let anchor = ring.anchor { clip.late(frame, by: SystemClock.monotonic - (anchor + loopStart + time)) }
                    guard let following = clip.poll() else { break }
                    guard case .frame(let next) = following else { ahead = following; break }
                    let nextTime = stamps.time(of: next.time, lasting: next.duration)
                    guard dropping.drop(loopStart + time, next: loopStart + nextTime, anchor: ring.anchor, now: SystemClock.monotonic) else {
                        ahead = following
                        aheadFrameTime = nextTime
                        break
                    }
                    loopEnd = max(loopEnd, time + frame.duration)
                    sound?.videoSent(upTo: loopStart + time + frame.duration)
                    frame = next
                    time = nextTime
                }
                dropping.sent()
                if let mapper {
                    guard map(frame, decoded: decoded, with: mapper, info: info, pitches: pitches, offsets: offsets, into: ring.buffers[index]) else {
                        socket.send(.failed(reason: "gave a frame that cannot be read"))
                        return
                    }
                } else {
                    copy(frame, layout: layout, height: info.height, pitches: pitches, offsets: offsets, into: ring.buffers[index])
                }
                loopEnd = max(loopEnd, time + frame.duration)
                guard ring.send(index, at: loopStart + time, for: frame.duration, position: time) else { return }
                sound?.videoSent(upTo: loopStart + time + frame.duration)
            case .ended:
                ring.giveBack(index)
                // The sound's last part goes before the end is said, or the loop rewinds it.
                sound?.videoEnded(true)
                sound?.waitForEnd(timeout: soundEndSilence)
                guard loop, loopEnd > 0 else { socket.send(.clipEnded); return }
                loopStart += loopEnd
                loopEnd = 0
                sound?.loopStart = loopStart
                sound?.videoSent(upTo: loopStart)
                clip.seek(to: 0)
                stamps.restart()
                sound?.videoEnded(false)
            }
        }
    }

    /// Plays an animated picture: each frame the whole canvas in RGBA, in the screen's
    /// colours (`conversion`, from the file's own, as its still), turned upright as its
    /// still is (`orientation`: a WebP's EXIF), shown for its delay, the whole as many
    /// times as the file says.
    private static func animate(_ frames: any AnimationFrames, conversion: ColourConverter.Conversion,
                                orientation: ExifOrientation = .up, on socket: MessageSocket) {
        let (width, height) = orientation.swapsAxes ? (frames.height, frames.width) : (frames.width, frames.height)
        let shape = HelperMessage.ClipShape(width: width, height: height, layout: .rgba, matrix: .bt601,
                                            durationMicros: 0, quarterTurns: 0, decoder: frames.decoder,
                                            frameBytes: width * height * 4, pitches: [width * 4],
                                            offsets: [0], ringSize: ringSize)
        // A turned animation is composed here first, then turned into the ring.
        var stored = orientation == .up ? [] : [UInt8](repeating: 0, count: frames.width * frames.height * 4)
        guard let ring = Ring(shape, on: socket) else { return }
        var time = 0.0, played = 0, framesThisPlay = 0
        while true {
            guard let turn = ring.next() else { return }
            // An animation is not sought.
            guard case .fill(let index) = turn else { continue }
            let delay: Double?
            do throws(ImageError) {
                if orientation == .up {
                    delay = try frames.next(into: ring.buffers[index])
                } else {
                    delay = try stored.withUnsafeMutableBytes { raw in
                        Result { () throws(ImageError) in try frames.next(into: raw.baseAddress!) }
                    }.get()
                    let turned = PixelImage(width: frames.width, height: frames.height, pixels: stored).oriented(orientation)
                    turned.pixels.withUnsafeBytes { ring.buffers[index].copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
                }
            } catch {
                socket.send(.failed(reason: error.reason))
                return
            }
            guard let delay else {
                ring.giveBack(index)
                played += 1
                // Once more unless it has played as often as it says (or had no frame at all).
                guard framesThisPlay > 0, frames.plays == 0 || played < frames.plays else { socket.send(.clipEnded); return }
                do throws(ImageError) { try frames.rewind() } catch { socket.send(.failed(reason: error.reason)); return }
                framesThisPlay = 0
                continue
            }
            framesThisPlay += 1
            if conversion.changesPixels { conversion.apply(ring.buffers[index], count: frames.width * frames.height) }
            guard ring.send(index, at: time, for: delay, position: time) else { return }
            time += delay
        }
    }

    /// The ring of shared buffers, made and handed over once (unmapped here when it goes),
    /// and which of them are free.
    private final class Ring {
        let socket: MessageSocket
        let bytes: Int
        var buffers: [UnsafeMutableRawPointer] = []
        var freeIndices = Array(0..<ClipStreamer.ringSize)
        /// The last seek asked for and not yet made, seconds from the clip's start.
        private var seek: Double?
        /// When, on this process's monotonic clock, the frames' time 0 falls due as the main
        /// process last said (`late`); nil until it says a frame was late, and after a seek.
        private(set) var anchor: Double?

        /// Announces `shape` and hands over its buffers; nil (the reason sent) when that fails.
        init?(_ shape: HelperMessage.ClipShape, on socket: MessageSocket) {
            self.socket = socket
            bytes = shape.frameBytes
            guard socket.send(.clipOpened(shape)) else { return nil }
            for index in 0..<shape.ringSize {
                let fd = kc_memfd("kiosk-carousel-frames")
                guard fd >= 0, ftruncate(fd, off_t(bytes)) == 0, kc_add_seals(fd, 1 | 2 | 4) == 0,
                      let map = mmap(nil, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0), map != MAP_FAILED else {
                    if fd >= 0 { close(fd) }
                    socket.send(.failed(reason: "cannot be handed over (no shared memory: \(String(cString: strerror(errno))))"))
                    return nil
                }
                buffers.append(map)
                let sent = socket.send(.ringBuffer(index: index), attaching: fd)
                close(fd)
                guard sent else { return nil }
            }
        }

        deinit { for map in buffers { munmap(map, bytes) } }

        /// What to do next: fill a buffer the main process has released (waiting for one
        /// while all are held), or move where it asked (a seek needs no buffer: the main
        /// process gives back what it holds once the seek is done); nil once it has gone.
        enum Turn { case fill(Int), seek(Double) }

        func next() -> Turn? {
            while (freeIndices.isEmpty && seek == nil) || socket.hasMessage {
                switch socket.receive(until: nil) {
                case .message(.release(let index), let fd):
                    if let fd { close(fd) }
                    if index < buffers.count, !freeIndices.contains(index) { freeIndices.append(index) }
                case .message(.seek(let micros), let fd):
                    if let fd { close(fd) }
                    seek = Double(micros) / 1e6
                    anchor = nil
                case .message(.late(let micros, let late), let fd):
                    if let fd { close(fd) }
                    if seek == nil { anchor = SystemClock.monotonic - Double(late) / 1e6 - Double(micros) / 1e6 }
                case .message(_, let fd):
                    if let fd { close(fd) }
                case .closed, .malformed:
                    return nil
                case .timedOut:
                    break
                }
            }
            if let target = seek {
                seek = nil
                return .seek(target)
            }
            return .fill(freeIndices.removeFirst())
        }

        /// A buffer taken and not filled goes back.
        func giveBack(_ index: Int) { freeIndices.insert(index, at: 0) }

        /// Announces the frame in buffer `index`, due `time` seconds into the clip (counting on
        /// across loops) and lying at `position` in it.
        func send(_ index: Int, at time: Double, for duration: Double, position: Double) -> Bool {
            func micros(_ t: Double) -> Int { Int((max(0, t) * 1e6).rounded()) }
            return socket.send(.frame(index: index, micros: micros(time), durationMicros: micros(duration), positionMicros: micros(position)))
        }
    }

    /// A piece of the clip's sound, in a sealed memfd of its own (the sound's thread).
    private static func send(sound bytes: UnsafeRawBufferPointer, at time: Double, epoch: Int, on socket: MessageSocket) {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        let fd = kc_memfd("kiosk-carousel-sound")
        guard fd >= 0 else { return }
        defer { close(fd) }
        var written = 0
        while written < bytes.count {
            let n = write(fd, base + written, bytes.count - written)
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return }
            written += n
        }
        // Sealed against writing, shrinking, growing and further seals: what was sent stays as sent.
        guard kc_add_seals(fd, 1 | 2 | 4 | 8) == 0 else { return }
        socket.send(.sound(micros: Int((max(0, time) * 1e6).rounded()), frames: bytes.count / SoundTimeline.bytesPerFrame, epoch: epoch),
                    attaching: fd)
    }

    /// The frame through `mapper` into a ring buffer of 8-bit I420 laid out by `pitches` and `offsets`.
    private static func map(_ frame: GStreamerClip.Frame, decoded: VideoFrame.Layout, with mapper: VideoToneMapper,
                            info: GStreamerClip.Info, pitches: [Int], offsets: [Int], into buffer: UnsafeMutableRawPointer) -> Bool {
        guard let planes = frame.planes(decoded.planeCount) else { return false }
        let out = (0..<3).map { VideoToneMapper.Output(base: (buffer + offsets[$0]).assumingMemoryBound(to: UInt8.self), pitch: pitches[$0]) }
        return mapper.convert(.init(planes: planes, nv12: decoded == .nv12, width: info.width, height: info.height), into: out[0], out[1], out[2])
    }

    /// The frame's planes, row by row, into a ring buffer laid out by `pitches` and `offsets`.
    private static func copy(_ frame: GStreamerClip.Frame, layout: VideoFrame.Layout, height: Int, pitches: [Int],
                             offsets: [Int], into buffer: UnsafeMutableRawPointer) {
        for plane in 0..<layout.planeCount {
            guard let source = frame.plane(plane) else { continue }
            let rows = plane == 0 ? height : (height + 1) / 2
            let bytes = min(pitches[plane], source.pitch)
            for row in 0..<rows {
                (buffer + offsets[plane] + row * pitches[plane]).copyMemory(from: source.base + row * source.pitch, byteCount: bytes)
            }
        }
    }
}
