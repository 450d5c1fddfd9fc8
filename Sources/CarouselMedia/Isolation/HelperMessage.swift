import CarouselCore

/// What the main process and a decoder helper say to each other over their socket: one
/// message per datagram (SOCK_SEQPACKET), fixed binary fields, big-endian. A descriptor
/// travels beside a message: the file to decode with a request, the sealed pixels with an
/// image. Reading is total: any malformed message is nil, never a trap, since a helper that
/// a hostile file took over may send anything.
enum HelperMessage: Equatable, Sendable {
    /// Helper to main, once after start-up: whether the sandbox is in place, and if not, why.
    case ready(sandboxed: Bool, note: String)
    /// Main to helper: decode the attached file to fit `box`. `name` names it in reasons.
    case decode(DecodeJob)
    /// Main to helper, for tests: try to open `path` (or, for `socketProbe`, make a network
    /// socket) and say what happened. Proves that a sandboxed helper cannot.
    case probeOpen(path: String)
    /// Helper to main: the fitted image's size; its pixels are in the attached memfd.
    /// `note`: what to say once about it (its colour profile was ignored); empty: nothing.
    /// `fullWidth` × `fullHeight`: the whole picture's upright size (0 × 0: not known).
    /// `backdrop`: the blurred backdrop asked for (`--fill`), whose pixels follow the
    /// picture's in the memfd; nil: none. `motion`: where the picture's own clip lies in its
    /// file (a Motion Photo), or that its file is an animation; nil: nothing moves.
    /// `lengthMicros`: a clip's poster: the clip's length (0: not known; at most `maxLengthMicros`).
    case image(width: Int, height: Int, isOpaque: Bool, note: String = "", fullWidth: Int = 0, fullHeight: Int = 0,
               backdrop: BackdropShape? = nil, motion: PictureMotion? = nil, lengthMicros: Int = 0)
    /// Helper to main: the file cannot be shown, and why (one line).
    case failed(reason: String)
    /// Main to a video helper: play the attached clip, frame after frame (`loop`: from
    /// its start again at its end); `range`: only these bytes of the file are the clip (a
    /// Motion Photo's), nil: all of them; `fromMicros`: begin there (a seek after its end);
    /// `sound`: its first sound stream too, sent as `sound` messages; `maxSide`: frames larger
    /// than a square of this side come scaled down into it (0: as decoded; at most `maxSideLimit`).
    case play(name: String, loop: Bool, range: ByteRange? = nil, fromMicros: Int = 0, sound: Bool = false, maxSide: Int = 0)
    /// Video helper to main: what the clip is and how its frames lie in the ring.
    case clipOpened(ClipShape)
    /// Video helper to main: ring buffer `index`, the attached memfd (sealed against
    /// shrinking and growing: the helper writes each frame into it, the main process reads).
    case ringBuffer(index: Int)
    /// Video helper to main: ring buffer `index` holds the frame showing at `micros` from the
    /// clip's start (counting on across loops) for `durationMicros`; `positionMicros`: where
    /// it lies in the clip (from its start in this loop).
    case frame(index: Int, micros: Int, durationMicros: Int, positionMicros: Int = 0)
    /// Main to a video helper: ring buffer `index` was read; the helper may write it again.
    case release(index: Int)
    /// Main to a video helper: the frame due at `micros` (on the frames' clock) was shown
    /// `lateMicros` after it was due (at most `maxLateMicros`): the helper drops what will be
    /// later still, and has its decoder skip ahead (GStreamer's QoS).
    case late(micros: Int, lateMicros: Int)
    /// Video helper to main: the clip ended (not looping).
    case clipEnded
    /// Main to a video helper: move to `micros` from the clip's start.
    case seek(micros: Int)
    /// Video helper to main: the seek is done; the frames after this one come from it, the
    /// first due at `micros` (on the frames' clock, counting on across loops); the sound
    /// from it comes in `sound` messages of epoch `soundEpoch` and later.
    case seeked(micros: Int, soundEpoch: Int = 0)
    /// Video helper to main: `frames` sample frames of the clip's sound (`SoundTimeline`'s
    /// format) from `micros` (the frames' clock), in the attached sealed memfd; `epoch`
    /// counts the flushes (seeks, loops) the sound went through before it.
    case sound(micros: Int, frames: Int, epoch: Int)

    /// The longest clip a poster may say it is: a day.
    static let maxLengthMicros = 86_400 * 1_000_000

    /// A clip as a video helper plays it: its frames' size, layout and colours, where each
    /// plane lies in a ring buffer of `frameBytes`, how many buffers, and the decoder.
    struct ClipShape: Equatable, Sendable {
        var width: Int
        var height: Int
        var layout: VideoFrame.Layout
        var matrix: VideoMatrix
        /// 0: not known.
        var durationMicros: Int
        var quarterTurns: Int
        var decoder: String
        var frameBytes: Int
        var pitches: [Int]
        var offsets: [Int]
        var ringSize: Int

        /// The most ring buffers a helper may hand over.
        static let maxRing = 8
    }

    /// A backdrop's size (each side 1 to `BlurredBackdrop.side`) and average colour.
    struct BackdropShape: Equatable, Sendable {
        var width: Int
        var height: Int
        var average: [UInt8]
    }

    struct DecodeJob: Equatable, Sendable {
        var name: String
        var boxWidth: Int
        var boxHeight: Int
        var maxPixels: Int
        var dctScaling: Bool
        /// Only this part of the upright picture, in millionths of it (x, y, width, height);
        /// nil: the whole picture.
        var part: [Int]? = nil
        /// The picture's blurred backdrop too (`--fill`).
        var backdrop = false
        /// A file that ends early shows what arrived (`--broken show`).
        var partial = false
        /// Only the small picture the file carries inside it (EXIF's IFD1 thumbnail): a
        /// wall's tile while its own thumbnail is made. A file without one fails.
        var embedded = false

        /// The part as fractions of the picture.
        var partRect: Rect? {
            guard let p = part, p.count == 4 else { return nil }
            return Rect(x: Double(p[0]) / 1e6, y: Double(p[1]) / 1e6, width: Double(p[2]) / 1e6, height: Double(p[3]) / 1e6)
        }
    }

    /// Largest message either side accepts, in bytes: a path or reason of 4,000 bytes.
    static let maxBytes = 4096
    /// Longest text field, in bytes; longer text is cut when encoding.
    static let maxText = 4000
    /// The path `probeOpen` takes for a network socket instead of a file.
    static let socketProbe = "//socket"

    /// The largest `maxSide` a `play` may ask for (GStreamer's own bound on a frame's side).
    static let maxSideLimit = 1 << 14
    /// The most a `late` may say: a minute (a frame later than that is a clip paused, not a
    /// decoder behind).
    public static let maxLateMicros = 60_000_000

    private enum Tag: UInt8 { case ready = 1, decode, probeOpen, image, failed, play, clipOpened, ringBuffer, frame, release, clipEnded, seek, seeked,
                               sound, late }

    var encoded: [UInt8] {
        var out = MessageWriter()
        switch self {
        case .ready(let sandboxed, let note):
            out.u8(Tag.ready.rawValue); out.u8(sandboxed ? 1 : 0); out.text(note)
        case .decode(let job):
            out.u8(Tag.decode.rawValue)
            out.u32(job.boxWidth); out.u32(job.boxHeight); out.u64(job.maxPixels)
            out.u8(job.dctScaling ? 1 : 0); out.text(job.name)
            if let p = job.part, p.count == 4 { out.u8(1); p.forEach { out.u32($0) } } else { out.u8(0) }
            out.u8(job.backdrop ? 1 : 0); out.u8(job.partial ? 1 : 0); out.u8(job.embedded ? 1 : 0)
        case .probeOpen(let path):
            out.u8(Tag.probeOpen.rawValue); out.text(path)
        case .image(let width, let height, let isOpaque, let note, let fullWidth, let fullHeight, let backdrop, let motion, let length):
            out.u8(Tag.image.rawValue); out.u32(width); out.u32(height); out.u8(isOpaque ? 1 : 0); out.text(note)
            out.u32(fullWidth); out.u32(fullHeight)
            if let b = backdrop, b.average.count == 3 {
                out.u8(1); out.u32(b.width); out.u32(b.height); b.average.forEach { out.u8($0) }
            } else {
                out.u8(0)
            }
            out.motion(motion)
            out.u64(length)
        case .failed(let reason):
            out.u8(Tag.failed.rawValue); out.text(reason)
        case .play(let name, let loop, let range, let from, let sound, let maxSide):
            out.u8(Tag.play.rawValue); out.text(name); out.u8(loop ? 1 : 0); out.range(range); out.u64(from); out.u8(sound ? 1 : 0)
            out.u32(maxSide)
        case .clipOpened(let c):
            out.u8(Tag.clipOpened.rawValue); out.u32(c.width); out.u32(c.height); out.u8(c.layout.rawValue); out.u8(c.matrix.rawValue)
            out.u64(c.durationMicros); out.u8(UInt8(c.quarterTurns & 3)); out.text(c.decoder); out.u64(c.frameBytes)
            out.u8(UInt8(c.pitches.count)); c.pitches.forEach { out.u32($0) }; c.offsets.forEach { out.u64($0) }; out.u8(UInt8(clamping: c.ringSize))
        case .ringBuffer(let index):
            out.u8(Tag.ringBuffer.rawValue); out.u8(UInt8(clamping: index))
        case .frame(let index, let micros, let duration, let position):
            out.u8(Tag.frame.rawValue); out.u8(UInt8(clamping: index)); out.u64(micros); out.u64(duration); out.u64(position)
        case .release(let index):
            out.u8(Tag.release.rawValue); out.u8(UInt8(clamping: index))
        case .late(let micros, let late):
            out.u8(Tag.late.rawValue); out.u64(micros); out.u32(late)
        case .clipEnded:
            out.u8(Tag.clipEnded.rawValue)
        case .seek(let micros):
            out.u8(Tag.seek.rawValue); out.u64(micros)
        case .seeked(let micros, let epoch):
            out.u8(Tag.seeked.rawValue); out.u64(micros); out.u64(epoch)
        case .sound(let micros, let frames, let epoch):
            out.u8(Tag.sound.rawValue); out.u64(micros); out.u32(frames); out.u64(epoch)
        }
        return out.bytes
    }

    /// The message in `bytes`, or nil if they are not exactly one well-formed message.
    init?(decoding bytes: [UInt8]) {
        var r = MessageReader(bytes)
        guard let raw = r.u8(), let tag = Tag(rawValue: raw) else { return nil }
        switch tag {
        case .ready:
            guard let s = r.flag(), let note = r.text() else { return nil }
            self = .ready(sandboxed: s, note: note)
        case .decode:
            guard let w = r.u32(), let h = r.u32(), let max = r.u64(), let dct = r.flag(),
                  let name = r.text(), let hasPart = r.flag() else { return nil }
            var part: [Int]? = nil
            if hasPart {
                guard let x = r.u32(), let y = r.u32(), let pw = r.u32(), let ph = r.u32(),
                      x <= 1_000_000, y <= 1_000_000, pw >= 1, ph >= 1, pw <= 1_000_000, ph <= 1_000_000 else { return nil }
                part = [x, y, pw, ph]
            }
            guard let backdrop = r.flag(), let partial = r.flag(), let embedded = r.flag() else { return nil }
            self = .decode(DecodeJob(name: name, boxWidth: w, boxHeight: h, maxPixels: max, dctScaling: dct, part: part,
                                     backdrop: backdrop, partial: partial, embedded: embedded))
        case .probeOpen:
            guard let path = r.text() else { return nil }
            self = .probeOpen(path: path)
        case .image:
            guard let w = r.u32(), let h = r.u32(), let opaque = r.flag(), let note = r.text(),
                  let fw = r.u32(), let fh = r.u32(), let hasBackdrop = r.flag() else { return nil }
            var backdrop: BackdropShape? = nil
            if hasBackdrop {
                guard let bw = r.u32(), let bh = r.u32(), let red = r.u8(), let green = r.u8(), let blue = r.u8(),
                      (1...BlurredBackdrop.side).contains(bw), (1...BlurredBackdrop.side).contains(bh) else { return nil }
                backdrop = BackdropShape(width: bw, height: bh, average: [red, green, blue])
            }
            guard let motion = r.motion(), let length = r.u64(), length <= Self.maxLengthMicros else { return nil }
            self = .image(width: w, height: h, isOpaque: opaque, note: note, fullWidth: fw, fullHeight: fh, backdrop: backdrop,
                          motion: motion, lengthMicros: length)
        case .failed:
            guard let reason = r.text() else { return nil }
            self = .failed(reason: reason)
        case .play:
            guard let name = r.text(), let loop = r.flag(), let range = r.range(), let from = r.u64(), let sound = r.flag(),
                  let maxSide = r.u32(), maxSide <= Self.maxSideLimit else { return nil }
            self = .play(name: name, loop: loop, range: range, fromMicros: from, sound: sound, maxSide: maxSide)
        case .clipOpened:
            guard let w = r.u32(), let h = r.u32(), let l = r.u8(), let layout = VideoFrame.Layout(rawValue: l),
                  let m = r.u8(), let matrix = VideoMatrix(rawValue: m), let duration = r.u64(), let turns = r.u8(), turns < 4,
                  let decoder = r.text(), let bytes = r.u64(), let planes = r.u8(), Int(planes) == layout.planeCount else { return nil }
            var pitches: [Int] = [], offsets: [Int] = []
            for _ in 0..<planes { guard let p = r.u32() else { return nil }; pitches.append(p) }
            for _ in 0..<planes { guard let o = r.u64() else { return nil }; offsets.append(o) }
            guard let ring = r.u8(), ring >= 1, Int(ring) <= ClipShape.maxRing,
                  VideoFrame.fits(layout: layout, width: w, height: h, pitches: pitches, offsets: offsets, count: bytes) else { return nil }
            self = .clipOpened(ClipShape(width: w, height: h, layout: layout, matrix: matrix, durationMicros: duration,
                                         quarterTurns: Int(turns), decoder: decoder, frameBytes: bytes, pitches: pitches,
                                         offsets: offsets, ringSize: Int(ring)))
        case .ringBuffer:
            guard let i = r.u8(), Int(i) < ClipShape.maxRing else { return nil }
            self = .ringBuffer(index: Int(i))
        case .frame:
            guard let i = r.u8(), Int(i) < ClipShape.maxRing, let t = r.u64(), let d = r.u64(), let p = r.u64() else { return nil }
            self = .frame(index: Int(i), micros: t, durationMicros: d, positionMicros: p)
        case .release:
            guard let i = r.u8(), Int(i) < ClipShape.maxRing else { return nil }
            self = .release(index: Int(i))
        case .late:
            guard let t = r.u64(), let late = r.u32(), late <= Self.maxLateMicros else { return nil }
            self = .late(micros: t, lateMicros: late)
        case .clipEnded:
            self = .clipEnded
        case .seek:
            guard let t = r.u64() else { return nil }
            self = .seek(micros: t)
        case .seeked:
            guard let t = r.u64(), let epoch = r.u64() else { return nil }
            self = .seeked(micros: t, soundEpoch: epoch)
        case .sound:
            guard let t = r.u64(), let frames = r.u32(), (1...SoundTimeline.maxChunkFrames).contains(frames),
                  let epoch = r.u64() else { return nil }
            self = .sound(micros: t, frames: frames, epoch: epoch)
        }
        guard r.atEnd else { return nil }
    }
}

/// Appends big-endian fields.
private struct MessageWriter {
    var bytes: [UInt8] = []
    mutating func u8(_ v: UInt8) { bytes.append(v) }
    mutating func u32(_ v: Int) {
        let x = UInt32(clamping: v)
        for s in stride(from: 24, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: x >> UInt32(s))) }
    }
    mutating func u64(_ v: Int) {
        let x = UInt64(clamping: v)
        for s in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: x >> UInt64(s))) }
    }
    /// A flag, then with it a byte range's start and length.
    mutating func range(_ r: ByteRange?) {
        guard let r else { u8(0); return }
        u8(1); u64(r.start); u64(r.length)
    }
    /// 0: none; 1 and a range: a clip in the file; 2: the file's own frames.
    mutating func motion(_ m: PictureMotion?) {
        switch m {
        case nil: u8(0)
        case .clip(let r)?: range(r)
        case .frames?: u8(2)
        }
    }
    /// A 16-bit length and UTF-8, cut to `maxText` bytes.
    mutating func text(_ s: String) {
        let utf8 = Array(s.utf8.prefix(HelperMessage.maxText))
        bytes.append(UInt8(utf8.count >> 8)); bytes.append(UInt8(utf8.count & 0xFF))
        bytes += utf8
    }
}

/// Reads big-endian fields in order; nil once anything is missing or out of range.
private struct MessageReader {
    private let bytes: [UInt8]
    private var at = 0
    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var atEnd: Bool { at == bytes.count }

    mutating func u8() -> UInt8? {
        guard at < bytes.count else { return nil }
        defer { at += 1 }
        return bytes[at]
    }
    mutating func flag() -> Bool? {
        guard let v = u8(), v <= 1 else { return nil }
        return v == 1
    }
    private mutating func unsigned(_ n: Int) -> UInt64? {
        guard bytes.count - at >= n else { return nil }
        var v: UInt64 = 0
        for k in 0..<n { v = v << 8 | UInt64(bytes[at + k]) }
        at += n
        return v
    }
    mutating func u32() -> Int? { unsigned(4).map { Int($0) } }
    /// At most Int.max: a larger value is malformed.
    mutating func u64() -> Int? { unsigned(8).flatMap { $0 <= UInt64(Int.max) ? Int($0) : nil } }
    /// A byte range after its flag: `.some(nil)` when flagged absent; nil when malformed
    /// (an empty range, or one past what a file can hold).
    mutating func range() -> ByteRange?? {
        guard let has = flag() else { return nil }
        guard has else { return .some(nil) }
        return rangeFields().map { .some($0) }
    }
    /// A range's start and length: not empty, not past the largest offset.
    private mutating func rangeFields() -> ByteRange? {
        guard let start = u64(), let length = u64(), length >= 1, start <= Int.max - length else { return nil }
        return ByteRange(start: start, length: length)
    }
    mutating func motion() -> PictureMotion?? {
        guard let kind = unsigned(1) else { return nil }
        switch kind {
        case 0: return .some(nil)
        case 1: return rangeFields().map { .some(.clip($0)) }
        case 2: return .some(.frames)
        default: return nil
        }
    }
    mutating func text() -> String? {
        guard let n = unsigned(2).map(Int.init), n <= HelperMessage.maxText, bytes.count - at >= n else { return nil }
        defer { at += n }
        return String(decoding: bytes[at..<(at + n)], as: UTF8.self)
    }
}
