/// A decoded image in memory: 8-bit RGBA, rows top to bottom, no padding.
/// This is what the decoders give and what the renderer uploads into a slot texture.
public struct PixelImage: Sendable, Equatable {
    public let width: Int
    public let height: Int
    /// width × height × 4 bytes, R G B A.
    public var pixels: [UInt8]
    /// Known to have no transparent pixel, so it can be drawn without blending (half again
    /// as fast in software). False when not known.
    public var isOpaque: Bool
    /// What the decoder wants said once about this picture, which still shows (its colour
    /// profile was damaged and ignored, say); nil: nothing.
    public var note: String? = nil
    /// The whole picture's size, upright, before it was fitted (what a zoom may grow to
    /// show at 1:1); nil when not known.
    public var fullSize: Size? = nil
    /// The bytes are B, G, R, A (a texture's own order, turned on a worker so the drawing
    /// thread only copies them), not R, G, B, A.
    public var isBGRA = false
    /// A small blurred, darkened copy drawn behind the picture (`--fill blur`) and its
    /// average colour (`--fill color`); nil when not asked for.
    public var backdrop: Backdrop? = nil
    /// What moves in it: its own clip (a Motion Photo's MP4) or its frames (an animation);
    /// nil: nothing.
    public var motion: PictureMotion? = nil
    /// A clip's poster: the clip's length in seconds where its container says; nil otherwise.
    /// Known with the poster, before any player opens the clip (a group's hold is made from it).
    public var clipLength: Double? = nil

    public init(width: Int, height: Int, pixels: [UInt8], isOpaque: Bool = false) {
        precondition(pixels.count == width * height * 4, "RGBA buffer size mismatch")
        self.width = width
        self.height = height
        self.pixels = pixels
        self.isOpaque = isOpaque
    }

    /// Whether every alpha byte is 255: one pass, for decoders that cannot know otherwise.
    public static func allOpaque(_ pixels: [UInt8]) -> Bool {
        pixels.withUnsafeBufferPointer { p in
            var i = 3
            while i < p.count {
                if p[i] != 255 { return false }
                i += 4
            }
            return true
        }
    }

    /// An image of one colour.
    public init(width: Int, height: Int, fill: (r: UInt8, g: UInt8, b: UInt8, a: UInt8)) {
        var p = [UInt8](repeating: 0, count: width * height * 4)
        for i in stride(from: 0, to: p.count, by: 4) {
            p[i] = fill.r; p[i + 1] = fill.g; p[i + 2] = fill.b; p[i + 3] = fill.a
        }
        self.init(width: width, height: height, pixels: p)
    }

    public var size: Size { Size(width: Double(width), height: Double(height)) }

    /// Turns R, G, B, A into B, G, R, A in place (`isBGRA`): red and blue swapped.
    public mutating func turnToBGRA() {
        guard !isBGRA else { return }
        let count = pixels.count / 4
        pixels.withUnsafeMutableBytes { raw in
            for i in 0..<count {
                let p = UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: i &* 4, as: UInt32.self))
                let q = (p & 0xFF00_FF00) | ((p & 0xFF) << 16) | ((p >> 16) & 0xFF)
                raw.storeBytes(of: q.littleEndian, toByteOffset: i &* 4, as: UInt32.self)
            }
        }
        isBGRA = true
    }
}

/// What fills the space around a picture in its box: a small blurred, darkened copy of it,
/// scaled up to cover the box when drawn, and its average colour.
public struct Backdrop: Sendable, Equatable {
    public let width: Int
    public let height: Int
    /// width × height × 4 bytes, R G B A, opaque.
    public let pixels: [UInt8]
    public let average: (r: UInt8, g: UInt8, b: UInt8)

    public init(width: Int, height: Int, pixels: [UInt8], average: (r: UInt8, g: UInt8, b: UInt8)) {
        precondition(pixels.count == width * height * 4, "RGBA buffer size mismatch")
        self.width = width
        self.height = height
        self.pixels = pixels
        self.average = average
    }

    public static func == (a: Backdrop, b: Backdrop) -> Bool {
        a.width == b.width && a.height == b.height && a.pixels == b.pixels && a.average == b.average
    }

    public var image: PixelImage { PixelImage(width: width, height: height, pixels: pixels, isOpaque: true) }
}
