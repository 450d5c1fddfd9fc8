/// An APNG written byte by byte, for what ffmpeg does not write: frames with their own
/// rectangle, dispose and blend operations and delay, in RGBA. The pixels go in stored
/// (uncompressed) deflate blocks, which every zlib reads; the checksums are real.
public enum HandMadeAPNG {
    public struct Frame: Sendable {
        public var x: Int, y: Int, width: Int, height: Int
        /// R, G, B, A a pixel, row by row.
        public var rgba: [UInt8]
        /// 0: kept; 1: cleared afterwards; 2: the canvas before it restored.
        public var dispose: UInt8
        /// 0: replaces; 1: drawn over.
        public var blend: UInt8
        public var delay: (numerator: Int, denominator: Int)

        public init(x: Int = 0, y: Int = 0, width: Int, height: Int, rgba: [UInt8], dispose: UInt8 = 0, blend: UInt8 = 0,
                    delay: (numerator: Int, denominator: Int) = (1, 10)) {
            (self.x, self.y, self.width, self.height, self.rgba) = (x, y, width, height, rgba)
            (self.dispose, self.blend, self.delay) = (dispose, blend, delay)
        }
    }

    /// `plays`: acTL's num_plays (0 for ever). The first frame is the default image (IDAT).
    public static func make(width: Int, height: Int, frames: [Frame], plays: Int = 0) -> [UInt8] {
        var out: [UInt8] = [137, 80, 78, 71, 13, 10, 26, 10]
        out += chunk("IHDR", be32(width) + be32(height) + [8, 6, 0, 0, 0])
        out += chunk("acTL", be32(frames.count) + be32(plays))
        var sequence = 0
        for (i, f) in frames.enumerated() {
            out += chunk("fcTL", be32(sequence) + be32(f.width) + be32(f.height) + be32(f.x) + be32(f.y)
                         + be16(f.delay.numerator) + be16(f.delay.denominator) + [f.dispose, f.blend])
            sequence += 1
            var raw: [UInt8] = []
            for row in 0..<f.height { raw += [0] + f.rgba[(row * f.width * 4)..<((row + 1) * f.width * 4)] }
            let data = zlibStored(raw)
            if i == 0 {
                out += chunk("IDAT", data)
            } else {
                out += chunk("fdAT", be32(sequence) + data)
                sequence += 1
            }
        }
        out += chunk("IEND", [])
        return out
    }

    static func be32(_ v: Int) -> [UInt8] { [UInt8(v >> 24 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
    static func be16(_ v: Int) -> [UInt8] { [UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }

    static func chunk(_ type: String, _ body: [UInt8]) -> [UInt8] {
        let typed = Array(type.utf8) + body
        return be32(body.count) + typed + be32(Int(crc32(typed)))
    }

    /// zlib with stored blocks of at most 65,535 bytes, and its Adler-32.
    static func zlibStored(_ raw: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]
        var at = 0
        repeat {
            let n = min(65_535, raw.count - at), last: UInt8 = at + n == raw.count ? 1 : 0
            out += [last, UInt8(n & 0xFF), UInt8(n >> 8), UInt8(~n & 0xFF), UInt8(~n >> 8 & 0xFF)] + raw[at..<(at + n)]
            at += n
        } while at < raw.count
        var a = 1, b = 0
        for byte in raw { a = (a + Int(byte)) % 65_521; b = (b + a) % 65_521 }
        return out + be32(b << 16 | a)
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? 0xEDB8_8320 ^ (crc >> 1) : crc >> 1 }
        }
        return ~crc
    }
}
