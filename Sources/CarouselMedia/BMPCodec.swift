import CarouselCore

/// BMP pictures and DIBs without their file header (a `.dib`, a clipboard's), read here
/// rather than by SDL_image, whose loader refuses variants ImageMagick (the reference) and
/// browsers read: bit fields of any width (bmpsuite's `rgb32bf`, 10-bit channels), 16-bit
/// 5-6-5, an alpha mask in a V4 or V5 header, RLE4 and RLE8 with their deltas (pixels
/// they skip are transparent, as browsers show them), OS/2's 12-byte header and 2.x's (whole or cut after any field), the headerless
/// DIB. The format is a header, a palette and rows: a page of code, which the helper's
/// sandbox holds and the `bmp` fuzz target exercises, rather than a library for it. Every
/// read is bounds-checked; the size is checked against the megapixel limit before a pixel
/// is allocated. A BMP holding a JPEG or PNG is refused by name.
public enum BMPCodec {
    /// Header sizes of the DIB formats read: OS/2 1.x, Windows 3 (BITMAPINFOHEADER), its
    /// two extensions with masks, OS/2 2.x, V4 and V5.
    static let headerSizes: Set<Int> = [12, 40, 52, 56, 64, 108, 124]

    /// Whether a header of `size` bytes is OS/2 2.x's cut after one of its fields (bmpsuite's
    /// pal8os2v2-16 stops after the bit depth), as ImageMagick and browsers read it.
    static func isShortOS2(_ size: Int) -> Bool { size >= 16 && size < 64 && size % 4 == 0 && !headerSizes.contains(size) }

    /// Whether `bytes` are a DIB without the 14-byte file header: a header size read here,
    /// one plane, a bit depth BMP has, and a size that fits in 16 bits each way or more.
    public static func isHeaderlessDIB(_ bytes: [UInt8]) -> Bool {
        let r = Reader(bytes)
        guard let size = r.u32(0), headerSizes.contains(size) else { return false }
        let planes = size == 12 ? r.u16(8) : r.u16(12)
        let bits = size == 12 ? r.u16(10) : r.u16(14)
        return planes == 1 && bits.map { [1, 2, 4, 8, 16, 24, 32].contains($0) } == true
    }

    /// `bytes` (a BMP, or a DIB without its file header) decoded into RGBA at full size.
    /// `check` refuses a size over the limit before anything is allocated. A file whose
    /// pixels end early fails, or with `partial` (`--broken show`) shows what arrived (the
    /// rest transparent) with a note saying so.
    public static func decode(_ bytes: [UInt8], path: String, partial: Bool = false,
                              check: (Int, Int) throws(ImageError) -> Void) throws(ImageError) -> PixelImage {
        let r = Reader(bytes)
        func bad(_ why: String) -> ImageError { ImageError(path: path, reason: "is not a readable BMP (\(why))") }
        let hasFileHeader = bytes.count >= 2 && bytes[0] == 0x42 && bytes[1] == 0x4D
        let dib = hasFileHeader ? 14 : 0
        guard let size = r.u32(dib), headerSizes.contains(size) || (hasFileHeader && isShortOS2(size)) else { throw bad("an unknown header") }
        // OS/2 2.x's header may stop after any field: those left out are zero.
        let os2 = size == 64 || isShortOS2(size)
        let width: Int, signedHeight: Int, bits: Int
        var compression = 0, colours = 0
        var masks: [UInt32]? = nil
        if size == 12 {
            guard let w = r.u16(dib + 4), let h = r.u16(dib + 6), let b = r.u16(dib + 10) else { throw bad("it is cut short") }
            (width, signedHeight, bits) = (w, h, b)
        } else {
            guard let w = r.u32(dib + 4), let h = r.u32(dib + 8), let b = r.u16(dib + 14),
                  let c = size >= 20 ? r.u32(dib + 16) : 0, let used = size >= 36 ? r.u32(dib + 32) : 0 else { throw bad("it is cut short") }
            (width, signedHeight, bits, compression, colours) = (Int(Int32(truncatingIfNeeded: w)), Int(Int32(truncatingIfNeeded: h)), b, c, used)
            if size >= 52, !os2, let red = r.u32(dib + 40), let green = r.u32(dib + 44), let blue = r.u32(dib + 48) {
                let alpha = size >= 56 ? r.u32(dib + 52) ?? 0 : 0
                masks = [red, green, blue, alpha].map { UInt32($0) }
            }
        }
        if os2, compression == 3 || compression == 4 { throw bad("OS/2 Huffman or RLE24 compression") }
        if compression == 4 || compression == 5 {
            throw ImageError(path: path, reason: "is a BMP holding a \(compression == 4 ? "JPEG" : "PNG"), which is not read")
        }
        guard [0, 1, 2, 3, 6].contains(compression) else { throw bad("compression \(compression)") }
        guard [1, 2, 4, 8, 16, 24, 32].contains(bits) else { throw bad("\(bits) bits a pixel") }
        guard compression != 1 || bits == 8, compression != 2 || bits == 4, compression < 3 || bits == 16 || bits == 32 else {
            throw bad("compression \(compression) with \(bits) bits a pixel")
        }
        let height = abs(signedHeight)
        guard width > 0, height > 0, width <= 1 << 20, height <= 1 << 20 else { throw bad("a size of \(width)x\(signedHeight)") }
        try check(width, height)
        // Bit fields after a 40-byte header: three masks (BI_BITFIELDS), or four (BI_ALPHABITFIELDS).
        var paletteStart = dib + size
        if size == 40, compression == 3 || compression == 6 {
            let count = compression == 6 ? 4 : 3
            var read: [UInt32] = []
            for i in 0..<count { guard let m = r.u32(paletteStart + 4 * i) else { throw bad("its bit fields are cut short") }; read.append(UInt32(m)) }
            masks = read + (count == 3 ? [0] : [])
            paletteStart += 4 * count
        }
        // The palette: as many entries as it says (all the depth allows when it says 0).
        var palette: [(UInt8, UInt8, UInt8)] = []
        if bits <= 8 {
            let entry = size == 12 ? 3 : 4
            let most = 1 << bits
            let count = colours > 0 ? min(colours, most) : most
            for i in 0..<count {
                let at = paletteStart + i * entry
                guard at + 3 <= bytes.count else { break }
                palette.append((bytes[at + 2], bytes[at + 1], bytes[at]))
            }
            guard !palette.isEmpty else { throw bad("it has no palette") }
            paletteStart += count * entry
        }
        let offset = hasFileHeader ? (r.u32(10) ?? 0) : 0
        let start = offset > 0 && offset < bytes.count ? offset : paletteStart
        var out = [UInt8](repeating: 0, count: width * height * 4)
        // Row y of the file is row `y` of the picture from the top when stored top-down.
        let topDown = signedHeight < 0
        func row(_ fileRow: Int) -> Int { topDown ? fileRow : height - 1 - fileRow }
        func put(_ x: Int, _ fileRow: Int, _ c: (UInt8, UInt8, UInt8), _ a: UInt8 = 255) {
            let at = (row(fileRow) * width + x) * 4
            out[at] = c.0; out[at + 1] = c.1; out[at + 2] = c.2; out[at + 3] = a
        }
        func colour(_ index: Int) -> (UInt8, UInt8, UInt8) { index < palette.count ? palette[index] : (0, 0, 0) }

        // How far the pixels went, when they ended before the picture did (rows, of `height`).
        var cutAt: Int? = nil
        if compression == 1 || compression == 2 {
            guard !topDown else { throw bad("a run-length picture stored top-down") }
            cutAt = runLength(bytes, from: start, width: width, height: height, four: compression == 2) { x, y, index in
                put(x, y, colour(index))
            }
        } else {
            guard start < bytes.count else { throw bad("it has no pixels") }
            let stride = (width * bits + 31) / 32 * 4
            let fields = masks.map { m in m.map(Field.init) } ?? (bits == 16
                ? [Field(0x7C00), Field(0x03E0), Field(0x001F), Field(0)]
                : [Field(0xFF0000), Field(0xFF00), Field(0xFF), Field(0)])
            // A BI_RGB 32-bit picture's fourth byte is padding, not alpha.
            let alpha = compression == 0 ? Field(0) : fields[3]
            for y in 0..<height {
                let base = start + y * stride
                // Rows a cut file lacks stay transparent.
                guard base + stride <= bytes.count else { cutAt = y; break }
                for x in 0..<width {
                    switch bits {
                    case 1, 2, 4, 8:
                        let bit = x * bits
                        guard base + bit / 8 < bytes.count else { break }
                        let byte = Int(bytes[base + bit / 8])
                        let index = (byte >> (8 - bits - bit % 8)) & ((1 << bits) - 1)
                        put(x, y, colour(index))
                    case 24:
                        let at = base + x * 3
                        guard at + 3 <= bytes.count else { break }
                        put(x, y, (bytes[at + 2], bytes[at + 1], bytes[at]))
                    default:
                        let n = bits / 8, at = base + x * n
                        guard at + n <= bytes.count else { break }
                        var v: UInt32 = 0
                        for k in 0..<n { v |= UInt32(bytes[at + k]) << (8 * k) }
                        put(x, y, (fields[0].value(v), fields[1].value(v), fields[2].value(v)), alpha.mask == 0 ? 255 : alpha.value(v))
                    }
                }
            }
        }
        var image = PixelImage(width: width, height: height, pixels: out, isOpaque: cutAt == nil && PixelImage.allOpaque(out))
        if let cutAt {
            guard partial else { throw ImageError(path: path, reason: "is truncated (the BMP data ends early)") }
            image.note = "is truncated (the BMP data ends early): \(cutAt * 100 / height) % of its rows shown"
        }
        return image
    }

    /// RLE8 and RLE4: pairs (count, value) repeat a value; a 0 starts an escape (0 end of
    /// line, 1 end of picture, 2 a move right and up, n an absolute run of n indices, padded
    /// to two bytes). Rows count from the bottom. Pixels never set stay transparent. The
    /// rows done when the data ended before its end-of-picture escape; nil when it did not.
    private static func runLength(_ b: [UInt8], from start: Int, width: Int, height: Int, four: Bool,
                                  put: (Int, Int, Int) -> Void) -> Int? {
        var at = start, x = 0, y = 0
        func emit(_ index: Int) {
            if x < width, y < height { put(x, y, index) }
            x += 1
        }
        while y < height {
            guard at + 1 < b.count else { return y }
            let count = Int(b[at]), value = Int(b[at + 1])
            at += 2
            if count > 0 {
                for i in 0..<count { emit(four ? (i % 2 == 0 ? value >> 4 : value & 15) : value) }
                continue
            }
            switch value {
            case 0: x = 0; y += 1
            case 1: return nil
            case 2:
                guard at + 1 < b.count else { return y }
                x += Int(b[at]); y += Int(b[at + 1]); at += 2
            default:
                let bytes = four ? (value + 1) / 2 : value
                for i in 0..<value {
                    let p = at + (four ? i / 2 : i)
                    guard p < b.count else { return y }
                    emit(four ? (i % 2 == 0 ? Int(b[p]) >> 4 : Int(b[p]) & 15) : Int(b[p]))
                }
                at += (bytes + 1) & ~1
            }
        }
        return nil
    }

    /// One channel's bit field: where it lies and how wide it is, scaled to 8 bits.
    struct Field {
        let mask: UInt32
        let shift: UInt32
        let top: UInt32

        init(_ mask: UInt32) {
            self.mask = mask
            shift = mask == 0 ? 0 : UInt32(mask.trailingZeroBitCount)
            top = mask >> shift
        }

        func value(_ pixel: UInt32) -> UInt8 {
            guard top > 0 else { return 0 }
            let v = UInt64((pixel & mask) >> shift)
            return UInt8(clamping: (v * 255 + UInt64(top) / 2) / UInt64(top))
        }
    }

    /// Little-endian fields, nil past the end.
    private struct Reader {
        let b: [UInt8]
        init(_ b: [UInt8]) { self.b = b }
        func u16(_ at: Int) -> Int? { at >= 0 && at + 2 <= b.count ? Int(b[at]) | Int(b[at + 1]) << 8 : nil }
        func u32(_ at: Int) -> Int? {
            guard at >= 0, at + 4 <= b.count else { return nil }
            return Int(b[at]) | Int(b[at + 1]) << 8 | Int(b[at + 2]) << 16 | Int(b[at + 3]) << 24
        }
    }
}
