/// What a file's first bytes say it is and how big it claims to be. Read before decoding,
/// so that a file claiming 60000×60000 is refused before a byte of pixels is allocated.
public struct ImageHeader: Equatable, Sendable {
    public enum Format: String, Sendable {
        case jpeg, png, gif, bmp, webp, qoi, tiff, heif, avif, jxl, pnm, unknown
    }

    public var format: Format
    /// The dimensions the header claims; nil where the format's header is not read here
    /// (TIFF, TGA: those are checked after decoding). HEIF, AVIF and JPEG XL give their
    /// upright size (their own rotation applied); a JPEG its stored one (EXIF is separate).
    public var width: Int?
    public var height: Int?

    public init(format: Format, width: Int? = nil, height: Int? = nil) {
        self.format = format
        self.width = width
        self.height = height
    }

    /// Claimed pixel count, when the header gives one.
    public var pixelCount: Int? {
        guard let w = width, let h = height else { return nil }
        return w.multipliedReportingOverflow(by: h).overflow ? Int.max : w * h
    }

    /// Reads the header of an encoded image.
    public static func read(_ bytes: [UInt8]) -> ImageHeader {
        let b = ByteReader(bytes)
        if b.matches([0xFF, 0xD8, 0xFF], at: 0) { return jpeg(b) }
        if b.matches([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], at: 0) {
            return ImageHeader(format: .png, width: b.u32be(16), height: b.u32be(20))
        }
        if b.matches(Array("GIF8".utf8), at: 0) {
            return ImageHeader(format: .gif, width: b.u16le(6), height: b.u16le(8))
        }
        if b.matches(Array("BM".utf8), at: 0) { return bmp(b) }
        if b.matches(Array("RIFF".utf8), at: 0), b.matches(Array("WEBP".utf8), at: 8) { return webp(b) }
        if b.matches(Array("qoif".utf8), at: 0) {
            return ImageHeader(format: .qoi, width: b.u32be(4), height: b.u32be(8))
        }
        if let heif = ISOBMFFHeader.read(b) { return heif }
        if let jxl = JXLHeader.read(b) { return jxl }
        if let pnm = PNMCodec.header(bytes) { return ImageHeader(format: .pnm, width: pnm.width, height: pnm.height) }
        if b.matches(Array("II*\0".utf8), at: 0) || b.matches(Array("MM\0*".utf8), at: 0) {
            return ImageHeader(format: .tiff)
        }
        return ImageHeader(format: .unknown)
    }

    /// The first start-of-frame segment holds the size.
    private static func jpeg(_ b: ByteReader) -> ImageHeader {
        b.firstJPEGSegment { marker, at, _ in
            ByteReader.isJPEGFrame(marker) ? ImageHeader(format: .jpeg, width: b.u16be(at + 7), height: b.u16be(at + 5)) : nil
        } ?? ImageHeader(format: .jpeg)
    }

    private static func bmp(_ b: ByteReader) -> ImageHeader {
        guard let dib = b.u32le(14) else { return ImageHeader(format: .bmp) }
        if dib == 12 { return ImageHeader(format: .bmp, width: b.u16le(18), height: b.u16le(20)) }
        // Signed fields; a negative height means rows stored top-down.
        let signed = { (v: Int) in abs(Int(Int32(truncatingIfNeeded: v))) }
        return ImageHeader(format: .bmp, width: b.u32le(18).map(signed), height: b.u32le(22).map(signed))
    }

    private static func webp(_ b: ByteReader) -> ImageHeader {
        if b.matches(Array("VP8 ".utf8), at: 12) {
            return ImageHeader(format: .webp, width: b.u16le(26).map { $0 & 0x3FFF },
                               height: b.u16le(28).map { $0 & 0x3FFF })
        }
        if b.matches(Array("VP8L".utf8), at: 12), let b0 = b.u8(21), let b1 = b.u8(22),
           let b2 = b.u8(23), let b3 = b.u8(24) {
            let w = 1 + (Int(b0) | (Int(b1 & 0x3F) << 8))
            let h = 1 + (Int(b1 >> 6) | (Int(b2) << 2) | (Int(b3 & 0x0F) << 10))
            return ImageHeader(format: .webp, width: w, height: h)
        }
        if b.matches(Array("VP8X".utf8), at: 12) {
            return ImageHeader(format: .webp, width: b.u24le(24).map { $0 + 1 }, height: b.u24le(27).map { $0 + 1 })
        }
        return ImageHeader(format: .webp)
    }
}

/// Bounds-checked reads of big- and little-endian integers: a short file gives nil, never a trap.
struct ByteReader {
    let bytes: [UInt8]
    init(_ bytes: [UInt8]) { self.bytes = bytes }

    func u8(_ i: Int) -> UInt8? { i >= 0 && i < bytes.count ? bytes[i] : nil }

    /// Walks a JPEG's marker segments from after SOI up to the first scan, giving `visit`
    /// each marker, its offset and the segment length; the first non-nil answer is returned.
    func firstJPEGSegment<T>(_ visit: (_ marker: UInt8, _ at: Int, _ length: Int) -> T?) -> T? {
        var at = 2
        while let marker = u8(at + 1), u8(at) == 0xFF {
            if marker == 0xFF { at += 1; continue }  // fill byte
            if marker == 0xD8 || marker == 0x01 || (0xD0...0xD7).contains(marker) { at += 2; continue }
            if marker == 0xDA || marker == 0xD9 { return nil }  // scan data: no more headers
            guard let length = u16be(at + 2), length >= 2 else { return nil }
            if let found = visit(marker, at, length) { return found }
            at += 2 + length
        }
        return nil
    }

    /// Start-of-frame markers (SOF0–SOF15 less DHT, JPG and DAC).
    static func isJPEGFrame(_ marker: UInt8) -> Bool {
        (0xC0...0xCF).contains(marker) && ![0xC4, 0xC8, 0xCC].contains(marker)
    }
    func matches(_ pattern: [UInt8], at i: Int) -> Bool {
        i >= 0 && i + pattern.count <= bytes.count && bytes[i..<(i + pattern.count)].elementsEqual(pattern)
    }
    private func value(_ i: Int, _ n: Int, bigEndian: Bool) -> Int? {
        guard i >= 0, i + n <= bytes.count else { return nil }
        var v = 0
        for k in 0..<n { v |= Int(bytes[i + (bigEndian ? k : n - 1 - k)]) << (8 * (n - 1 - k)) }
        return v
    }
    func u16be(_ i: Int) -> Int? { value(i, 2, bigEndian: true) }
    func u16le(_ i: Int) -> Int? { value(i, 2, bigEndian: false) }
    func u24le(_ i: Int) -> Int? { value(i, 3, bigEndian: false) }
    func u24be(_ i: Int) -> Int? { value(i, 3, bigEndian: true) }
    func u32be(_ i: Int) -> Int? { value(i, 4, bigEndian: true) }
    func u32le(_ i: Int) -> Int? { value(i, 4, bigEndian: false) }
}
