/// A GIF written byte by byte, for what ffmpeg does not write: frames with their own
/// rectangle, disposal, delay (0 too) and transparent colour, over a palette of four. The
/// pixels are coded as LZW that never grows its table (a clear code before each pixel),
/// which every decoder reads.
public enum HandMadeGIF {
    public struct Frame: Sendable {
        public var x: Int, y: Int, width: Int, height: Int
        /// Palette indices, row by row.
        public var pixels: [UInt8]
        /// 1: kept; 2: its rectangle cleared afterwards; 3: the canvas before it restored.
        public var disposal: UInt8
        /// Hundredths of a second.
        public var delay: Int
        public var transparent: UInt8?

        public init(x: Int = 0, y: Int = 0, width: Int, height: Int, pixels: [UInt8], disposal: UInt8 = 1, delay: Int = 10,
                    transparent: UInt8? = nil) {
            (self.x, self.y, self.width, self.height) = (x, y, width, height)
            (self.pixels, self.disposal, self.delay, self.transparent) = (pixels, disposal, delay, transparent)
        }

        /// A rectangle of one colour.
        public static func fill(_ index: UInt8, x: Int = 0, y: Int = 0, width: Int, height: Int, disposal: UInt8 = 1,
                                delay: Int = 10, transparent: UInt8? = nil) -> Frame {
            Frame(x: x, y: y, width: width, height: height, pixels: [UInt8](repeating: index, count: width * height),
                  disposal: disposal, delay: delay, transparent: transparent)
        }
    }

    /// Red, lime, blue and black: `ClipFixtures.colours`' first three.
    public static let palette: [UInt8] = [255, 0, 0, 0, 255, 0, 0, 0, 255, 0, 0, 0]

    /// `loop`: the NETSCAPE2.0 repeat count (0 for ever), nil for none (played once).
    public static func make(width: Int, height: Int, frames: [Frame], loop: Int? = 0) -> [UInt8] {
        func le(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] }
        var out = Array("GIF89a".utf8) + le(width) + le(height) + [0xF1, 0, 0] + palette
        if let loop { out += [0x21, 0xFF, 11] + Array("NETSCAPE2.0".utf8) + [3, 1] + le(loop) + [0] }
        for f in frames {
            out += [0x21, 0xF9, 4, f.disposal << 2 | (f.transparent == nil ? 0 : 1)] + le(f.delay) + [f.transparent ?? 0, 0]
            out += [0x2C] + le(f.x) + le(f.y) + le(f.width) + le(f.height) + [0]
            // Minimum code size 2: codes of 3 bits, 4 clears, 5 ends.
            var codes: [UInt8] = []
            for p in f.pixels { codes += [4, p] }
            codes.append(5)
            var data: [UInt8] = [], bits = 0, count = 0
            for c in codes {
                bits |= Int(c) << count
                count += 3
                while count >= 8 { data.append(UInt8(bits & 0xFF)); bits >>= 8; count -= 8 }
            }
            if count > 0 { data.append(UInt8(bits & 0xFF)) }
            out.append(2)
            var at = 0
            while at < data.count {
                let n = min(255, data.count - at)
                out.append(UInt8(n))
                out += data[at..<(at + n)]
                at += n
            }
            out.append(0)
        }
        out.append(0x3B)
        return out
    }
}
