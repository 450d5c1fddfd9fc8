import CarouselCore
import CLinux
import Glibc

/// A video helper's side of playing one clip: frames decoded by GStreamer are written, as
/// decoded (I420 or NV12, each plane's rows 32-byte aligned), into a ring of memfds the main
/// process mapped once, and announced one message each; a buffer is written again only
/// once the main process has released it, so decoding runs at most a ring ahead of the
/// screen. Video helper process only.
enum ClipStreamer {
    /// Buffers in the ring: the frame on screen, the next one, and two decoded ahead.
    static let ringSize = 4
    /// Seconds a clip may give no frame before it counts as failed.
    static let stallSeconds = 5.0

    /// Plays the clip in `file` (or in `range` of it) until it ends (or, `loop`, until the
    /// main process goes).
    static func play(file: Int32, range: ByteRange?, name: String, loop: Bool, on socket: MessageSocket) {
        let clip: GStreamerClip
        let info: GStreamerClip.Info
        do throws(ImageError) {
            clip = try GStreamerClip(file: file, range: range, name: name, output: .yuv)
            info = try clip.open(timeout: stallSeconds)
        } catch {
            socket.send(.failed(reason: error.reason))
            return
        }
        guard let layout = info.layout else { socket.send(.failed(reason: "gave frames of an unknown kind")); return }
        var pitches: [Int] = [], offsets: [Int] = [], total = 0
        for plane in 0..<layout.planeCount {
            let (rowBytes, rows) = VideoFrame.planeSize(plane, layout: layout, width: info.width, height: info.height)
            let pitch = (rowBytes + 31) & ~31
            pitches.append(pitch)
            offsets.append(total)
            total += pitch * rows
        }
        var ring: [UnsafeMutableRawPointer] = []
        defer { for map in ring { munmap(map, total) } }
        let shape = HelperMessage.ClipShape(width: info.width, height: info.height, layout: layout, matrix: info.matrix,
                                            durationMicros: Int((info.duration ?? 0) * 1e6), quarterTurns: info.quarterTurns,
                                            decoder: info.decoder, frameBytes: total, pitches: pitches, offsets: offsets,
                                            ringSize: ringSize)
        guard socket.send(.clipOpened(shape)) else { return }
        for index in 0..<ringSize {
            let fd = kc_memfd("kiosk-carousel-frames")
            guard fd >= 0, ftruncate(fd, off_t(total)) == 0, kc_add_seals(fd, 1 | 2 | 4) == 0,
                  let map = mmap(nil, total, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0), map != MAP_FAILED else {
                if fd >= 0 { close(fd) }
                socket.send(.failed(reason: "cannot be handed over (no shared memory: \(String(cString: strerror(errno))))"))
                return
            }
            ring.append(map)
            let sent = socket.send(.ringBuffer(index: index), attaching: fd)
            close(fd)
            guard sent else { return }
        }
        var free = Array(0..<ringSize)
        var loopStart = 0.0, loopEnd = 0.0
        while true {
            // Releases first; with no buffer free, wait for one (or for the end).
            while free.isEmpty || socket.hasMessage {
                switch socket.receive(until: nil) {
                case .message(.release(let index), let fd):
                    if let fd { close(fd) }
                    if index < ringSize, !free.contains(index) { free.append(index) }
                case .message(_, let fd):
                    if let fd { close(fd) }
                case .closed, .malformed:
                    exit(0)
                case .timedOut:
                    break
                }
            }
            let sample: GStreamerClip.Sample
            do throws(ImageError) {
                sample = try clip.next(timeout: stallSeconds)
            } catch {
                socket.send(.failed(reason: error.reason))
                return
            }
            switch sample {
            case .frame(let frame):
                let index = free.removeFirst()
                copy(frame, layout: layout, height: info.height, pitches: pitches, offsets: offsets, into: ring[index])
                loopEnd = max(loopEnd, frame.time + frame.duration)
                guard socket.send(.frame(index: index, micros: Int(((loopStart + frame.time) * 1e6).rounded()),
                                         durationMicros: Int((frame.duration * 1e6).rounded()))) else { return }
            case .ended:
                guard loop, loopEnd > 0 else { socket.send(.clipEnded); return }
                clip.seek(to: 0)
                loopStart += loopEnd
                loopEnd = 0
            }
        }
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
