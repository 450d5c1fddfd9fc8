/// The size of a JPEG XL picture, read from its codestream's SizeHeader and the orientation
/// in its ImageMetadata (bit-packed, least significant bit first), in a bare codestream or
/// in the container's jxlc or first jxlp box. Upright: orientations 5–8 swap the size.
/// Bounds-checked; fuzzed with every header (`image-header`).
enum JXLHeader {
    static let containerSignature: [UInt8] = [0, 0, 0, 0x0C, 0x4A, 0x58, 0x4C, 0x20, 0x0D, 0x0A, 0x87, 0x0A]

    static func read(_ b: ByteReader) -> ImageHeader? {
        if b.matches([0xFF, 0x0A], at: 0) { return header(b, codestream: 0) }
        guard b.matches(containerSignature, at: 0) else { return nil }
        var at = 12
        var boxes = 0
        while at + 8 <= b.bytes.count, boxes < 1000 {
            boxes += 1
            guard let size = b.u32be(at) else { break }
            if b.matches(Array("jxlc".utf8), at: at + 4) { return header(b, codestream: at + 8) ?? ImageHeader(format: .jxl) }
            if b.matches(Array("jxlp".utf8), at: at + 4) { return header(b, codestream: at + 12) ?? ImageHeader(format: .jxl) }
            guard size >= 8 else { break }
            at += size
        }
        return ImageHeader(format: .jxl)
    }

    private static func header(_ b: ByteReader, codestream start: Int) -> ImageHeader? {
        guard b.matches([0xFF, 0x0A], at: start) else { return ImageHeader(format: .jxl) }
        var bits = BitReader(b, byte: start + 2)
        guard let small = bits.bool() else { return ImageHeader(format: .jxl) }
        func dimension() -> Int? {
            if small { return bits.read(5).map { ($0 + 1) * 8 } }
            guard let selector = bits.read(2) else { return nil }
            return bits.read([9, 13, 18, 30][selector]).map { $0 + 1 }
        }
        guard let height = dimension(), let ratio = bits.read(3) else { return ImageHeader(format: .jxl) }
        let width: Int
        if ratio == 0 {
            guard let w = dimension() else { return ImageHeader(format: .jxl) }
            width = w
        } else {
            let (n, d) = [(1, 1), (12, 10), (4, 3), (3, 2), (16, 9), (5, 4), (2, 1)][ratio - 1]
            width = height * n / d
        }
        // ImageMetadata: all_default, then extra_fields, then the orientation.
        var orientation = 1
        if let allDefault = bits.bool(), !allDefault, let extra = bits.bool(), extra, let o = bits.read(3) {
            orientation = o + 1
        }
        return orientation >= 5 ? ImageHeader(format: .jxl, width: height, height: width)
                                : ImageHeader(format: .jxl, width: width, height: height)
    }

    /// Reads bits least significant first, as JPEG XL packs them.
    private struct BitReader {
        let b: ByteReader
        var position: Int
        init(_ b: ByteReader, byte: Int) { self.b = b; position = byte * 8 }

        mutating func read(_ n: Int) -> Int? {
            var v = 0
            for k in 0..<n {
                guard let byte = b.u8(position >> 3) else { return nil }
                v |= Int((byte >> UInt8(position & 7)) & 1) << k
                position += 1
            }
            return v
        }
        mutating func bool() -> Bool? { read(1).map { $0 == 1 } }
    }
}
