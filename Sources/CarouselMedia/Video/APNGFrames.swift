import CarouselCore
import Glibc

/// An animated PNG's frames (APNG: `acTL`, `fcTL`, `fdAT`). Our own chunk reader (fuzzed:
/// every length and rectangle is checked against the file and the canvas) finds each
/// frame's control and its compressed data; libspng decodes the frame from a small PNG made
/// of the file's header at the frame's size, its palette and transparency, and that data
/// (`PNGCodec.decodeFrame`); the frame is composed on the canvas as its dispose and blend
/// operations say. Its `num_plays` is how many times it plays (0: for ever). A frame that
/// cannot be read ends the animation there.
final class APNGFrames: AnimationFrames {
    struct Control: Equatable {
        var width: Int, height: Int, x: Int, y: Int
        var delay: Double
        /// 0: kept; 1: its rectangle cleared afterwards; 2: the canvas before it restored.
        var dispose: UInt8
        /// 0: its pixels replace the canvas's; 1: drawn over them.
        var blend: UInt8
    }

    let width: Int
    let height: Int
    let plays: Int
    let decoder = "libspng (APNG)"
    private let bytes: [UInt8]
    private let path: String
    /// IHDR's bit depth, colour type, compression, filter and interlace.
    private let header: [UInt8]
    /// The PLTE and tRNS chunks, whole, copied into every frame's PNG.
    private let shared: [Range<Int>]
    private let frames: [(control: Control, data: [Range<Int>])]
    private var next = 0
    private var canvas: [UInt8]
    private var disposal: (control: Control, before: [UInt8]?)?

    private static let signature: [UInt8] = [137, 80, 78, 71, 13, 10, 26, 10]

    /// Whether `png` is an APNG of more than one frame.
    static func isAnimated(_ png: [UInt8]) -> Bool {
        guard let parsed = parse(png) else { return false }
        return parsed.frames.count > 1
    }

    /// Whether the PNG in the open file `fd` declares more than one frame (an `acTL` before
    /// its pixels), from its chunk headers alone (at most 10,000 of them).
    static func declaresFrames(file fd: Int32) -> Bool {
        var at: off_t = 8
        var head = [UInt8](repeating: 0, count: 12)
        for _ in 0..<10_000 {
            guard pread(fd, &head, 12, at) == 12 else { return false }
            let length = Int(head[0]) << 24 | Int(head[1]) << 16 | Int(head[2]) << 8 | Int(head[3])
            switch String(decoding: head[4..<8], as: UTF8.self) {
            case "acTL": return length == 8 && (Int(head[8]) << 24 | Int(head[9]) << 16 | Int(head[10]) << 8 | Int(head[11])) > 1
            case "IDAT", "IEND": return false
            default: break
            }
            guard length <= 0x7FFF_FFFF else { return false }
            at += off_t(12 + length)
        }
        return false
    }

    init(_ png: [UInt8], path: String) throws(ImageError) {
        guard let parsed = Self.parse(png), !parsed.frames.isEmpty else {
            throw ImageError(path: path, reason: "is not an animated PNG")
        }
        try PictureAnimation.check(width: parsed.width, height: parsed.height, path: path)
        (bytes, self.path) = (png, path)
        (width, height, plays, header, shared, frames) = (parsed.width, parsed.height, parsed.plays, parsed.header, parsed.shared, parsed.frames)
        canvas = [UInt8](repeating: 0, count: width * height * 4)
    }

    func rewind() throws(ImageError) {
        next = 0
        disposal = nil
        for i in canvas.indices { canvas[i] = 0 }
    }

    func next(into buffer: UnsafeMutableRawPointer) throws(ImageError) -> Double? {
        guard next < frames.count else { return nil }
        let (control, data) = frames[next]
        let image: PixelImage
        do throws(ImageError) {
            image = try PNGCodec.decodeFrame(png(control, data), path: path)
            guard image.width == control.width, image.height == control.height else {
                throw ImageError(path: path, reason: "is a corrupt animated PNG (a frame of another size than it says)")
            }
        } catch {
            // A damaged frame after good ones ends the animation there.
            guard next > 0 else { throw error }
            return nil
        }
        if let d = disposal {
            if d.control.dispose == 1 { clear(d.control) } else if d.control.dispose == 2, let before = d.before { canvas = before }
        }
        // The first frame's "restore the canvas before it" is a clear, as the format says.
        let dispose = next == 0 && control.dispose == 2 ? 1 : control.dispose
        var kept = control
        kept.dispose = dispose
        disposal = (kept, dispose == 2 ? canvas : nil)
        draw(image, at: control)
        next += 1
        canvas.withUnsafeBytes { buffer.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
        return PictureAnimation.shownDelay(control.delay)
    }

    /// The frame's own PNG: the header at its size, the palette and transparency, its data.
    private func png(_ control: Control, _ data: [Range<Int>]) -> [UInt8] {
        func chunk(_ type: String, _ body: [UInt8]) -> [UInt8] {
            Self.be32(body.count) + Array(type.utf8) + body + [0, 0, 0, 0]
        }
        var out = Self.signature
        out += chunk("IHDR", Self.be32(control.width) + Self.be32(control.height) + header)
        for r in shared { out += bytes[r] }
        var compressed: [UInt8] = []
        for r in data { compressed += bytes[r] }
        out += chunk("IDAT", compressed)
        out += chunk("IEND", [])
        return out
    }

    private func draw(_ image: PixelImage, at c: Control) {
        image.pixels.withUnsafeBufferPointer { src in
            for row in 0..<c.height {
                for col in 0..<c.width {
                    let s = (row * c.width + col) * 4, d = ((c.y + row) * width + c.x + col) * 4
                    let a = Int(src[s + 3])
                    if c.blend == 0 || a == 255 {
                        canvas[d] = src[s]; canvas[d + 1] = src[s + 1]; canvas[d + 2] = src[s + 2]; canvas[d + 3] = src[s + 3]
                    } else if a > 0 {
                        // Straight alpha, source over: out = s·a + d·da·(1 − a), over the alpha out.
                        let da = Int(canvas[d + 3]), under = da * (255 - a)
                        let outA = a * 255 + under
                        for k in 0..<3 {
                            canvas[d + k] = UInt8((Int(src[s + k]) * a * 255 + Int(canvas[d + k]) * under + outA / 2) / outA)
                        }
                        canvas[d + 3] = UInt8((outA + 127) / 255)
                    }
                }
            }
        }
    }

    private func clear(_ c: Control) {
        for row in c.y..<(c.y + c.height) {
            let start = (row * width + c.x) * 4
            for i in start..<(start + c.width * 4) { canvas[i] = 0 }
        }
    }

    private static func be32(_ v: Int) -> [UInt8] { [UInt8(v >> 24 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }

    private struct Parsed {
        var width = 0, height = 0, plays = 0
        var header: [UInt8] = []
        var shared: [Range<Int>] = []
        var frames: [(control: Control, data: [Range<Int>])] = []
    }

    /// The file's chunks walked once; nil when it is not an APNG or its chunks do not hold
    /// together (a frame's rectangle outside the canvas, a chunk past the end). What follows
    /// a damaged chunk is left out.
    private static func parse(_ b: [UInt8]) -> Parsed? {
        guard b.count >= 8 + 25, Array(b[0..<8]) == signature else { return nil }
        func u32(_ at: Int) -> Int { Int(b[at]) << 24 | Int(b[at + 1]) << 16 | Int(b[at + 2]) << 8 | Int(b[at + 3]) }
        func u16(_ at: Int) -> Int { Int(b[at]) << 8 | Int(b[at + 1]) }
        var p = Parsed()
        var animated = false, seenData = false
        var current: (control: Control, data: [Range<Int>])?
        var at = 8
        while at + 12 <= b.count {
            let length = u32(at)
            guard length <= 0x7FFF_FFFF, at + 12 + length <= b.count else { break }
            let type = String(decoding: b[(at + 4)..<(at + 8)], as: UTF8.self), body = at + 8
            switch type {
            case "IHDR":
                guard length == 13, p.width == 0 else { return nil }
                (p.width, p.height) = (u32(body), u32(body + 4))
                p.header = Array(b[(body + 8)..<(body + 13)])
            case "acTL":
                guard length == 8, !seenData else { break }
                animated = u32(body) > 0
                p.plays = u32(body + 4)
            case "PLTE", "tRNS":
                if !seenData { p.shared.append(at..<(at + 12 + length)) }
            case "fcTL":
                guard length == 26 else { return finish(p, animated, current) }
                let c = Control(width: u32(body + 4), height: u32(body + 8), x: u32(body + 12), y: u32(body + 16),
                                delay: Double(u16(body + 20)) / Double(u16(body + 22) == 0 ? 100 : u16(body + 22)),
                                dispose: b[body + 24], blend: b[body + 25])
                guard c.width > 0, c.height > 0, c.x + c.width <= p.width, c.y + c.height <= p.height,
                      c.dispose <= 2, c.blend <= 1 else { return finish(p, animated, current) }
                if let done = current, !done.data.isEmpty { p.frames.append(done) }
                current = (c, [])
            case "IDAT":
                seenData = true
                // The default image is the first frame only when a control came before it.
                if current != nil, p.frames.isEmpty { current?.data.append(body..<(body + length)) }
            case "fdAT":
                guard length > 4, current != nil else { break }
                current?.data.append((body + 4)..<(body + length))
            case "IEND":
                return finish(p, animated, current)
            default:
                break
            }
            at += 12 + length
        }
        return finish(p, animated, current)
    }

    private static func finish(_ parsed: Parsed, _ animated: Bool, _ current: (control: Control, data: [Range<Int>])?) -> Parsed? {
        guard animated, parsed.width > 0, parsed.height > 0 else { return nil }
        var p = parsed
        if let last = current, !last.data.isEmpty { p.frames.append(last) }
        return p
    }
}
