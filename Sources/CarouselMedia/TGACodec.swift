import CarouselCore

/// Truevision TGA pictures, read here rather than by SDL_image, whose loader refuses
/// variants ImageMagick (the reference) reads: rows stored right to left, grey with alpha
/// (16-bit), run-length packets that run on across rows, 15- and 16-bit colour-mapped
/// entries. TGA has no signature: a file is one by its name (`.tga`, `.icb`, `.vda`,
/// `.vst`) or its version 2 footer. As small as BMP, and read the same way: bounds-checked,
/// the size checked against the megapixel limit first, fuzzed (`tga`), in the helper's
/// sandbox.
public enum TGACodec {
    static let footer = Array("TRUEVISION-XFILE.\0".utf8)

    /// Whether `bytes` end with TGA 2.0's footer.
    public static func hasFooter(_ bytes: [UInt8]) -> Bool {
        bytes.count >= 18 + 26 && Array(bytes.suffix(18)) == footer
    }

    /// Whether `path` names a TGA.
    public static func isNamed(_ path: String) -> Bool {
        let lower = path.lowercased()
        return [".tga", ".icb", ".vda", ".vst"].contains { lower.hasSuffix($0) }
    }

    /// `bytes` decoded into RGBA at full size; `check` refuses a size over the limit before
    /// anything is allocated. A file whose pixels end early fails, or with `partial`
    /// (`--broken show`) shows what arrived (the rest transparent) with a note saying so.
    public static func decode(_ bytes: [UInt8], path: String, partial: Bool = false,
                              check: (Int, Int) throws(ImageError) -> Void) throws(ImageError) -> PixelImage {
        func bad(_ why: String) -> ImageError { ImageError(path: path, reason: "is not a readable TGA (\(why))") }
        guard bytes.count >= 18 else { throw bad("it is cut short") }
        func u16(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 }
        let idLength = Int(bytes[0]), mapType = Int(bytes[1]), type = Int(bytes[2])
        let mapFirst = u16(3), mapLength = u16(5), mapBits = Int(bytes[7])
        let width = u16(12), height = u16(14), bits = Int(bytes[16]), descriptor = Int(bytes[17])
        let alphaBits = descriptor & 15, rightToLeft = descriptor & 16 != 0, topDown = descriptor & 32 != 0
        guard [1, 2, 3, 9, 10, 11].contains(type) else { throw bad("image type \(type)") }
        let mapped = type == 1 || type == 9, grey = type == 3 || type == 11, packed = type >= 9
        guard mapType <= 1, !mapped || mapType == 1 else { throw bad("a colour map of type \(mapType)") }
        switch (mapped, grey) {
        case (true, _): guard bits == 8 || bits == 16 else { throw bad("\(bits)-bit colour indices") }
        case (_, true): guard bits == 8 || bits == 16 else { throw bad("\(bits)-bit grey") }
        default: guard [15, 16, 24, 32].contains(bits) else { throw bad("\(bits)-bit colour") }
        }
        guard width > 0, height > 0 else { throw bad("a size of \(width)x\(height)") }
        try check(width, height)

        // The colour map (present whenever the header says, used only when colour-mapped).
        var at = 18 + idLength
        var map: [(UInt8, UInt8, UInt8, UInt8)] = []
        if mapType == 1 {
            guard [15, 16, 24, 32].contains(mapBits) else { throw bad("\(mapBits)-bit colour map entries") }
            let entry = (mapBits + 7) / 8
            guard at + mapLength * entry <= bytes.count else { throw bad("its colour map is cut short") }
            if mapped {
                for i in 0..<mapLength { map.append(Self.colour(bytes, at + i * entry, bits: mapBits, alpha: alphaBits > 0)) }
            }
            at += mapLength * entry
        }
        let size = (bits + 7) / 8
        let count = width * height
        var out = [UInt8](repeating: 0, count: count * 4)
        // Pixel n of the file, in its stored order, goes where the origin says.
        func place(_ n: Int, _ c: (UInt8, UInt8, UInt8, UInt8)) {
            let fileRow = n / width, fileColumn = n % width
            let y = topDown ? fileRow : height - 1 - fileRow
            let x = rightToLeft ? width - 1 - fileColumn : fileColumn
            let o = (y * width + x) * 4
            out[o] = c.0; out[o + 1] = c.1; out[o + 2] = c.2; out[o + 3] = c.3
        }
        func pixel(_ p: Int) -> (UInt8, UInt8, UInt8, UInt8) {
            if mapped {
                let index = (size == 1 ? Int(bytes[p]) : u16(p)) - mapFirst
                return index >= 0 && index < map.count ? map[index] : (0, 0, 0, 255)
            }
            if grey {
                let g = bytes[p]
                // 16-bit grey carries alpha in its second byte.
                return (g, g, g, size == 2 ? bytes[p + 1] : 255)
            }
            return Self.colour(bytes, p, bits: bits, alpha: alphaBits > 0)
        }
        var n = 0
        if packed {
            // Packets may run on across rows, as ImageMagick and most writers allow.
            while n < count, at < bytes.count {
                let head = Int(bytes[at]), repeats = (head & 0x7F) + 1
                at += 1
                if head & 0x80 != 0 {
                    guard at + size <= bytes.count else { break }
                    let c = pixel(at)
                    for _ in 0..<repeats where n < count { place(n, c); n += 1 }
                    at += size
                } else {
                    for _ in 0..<repeats where n < count {
                        guard at + size <= bytes.count else { break }
                        place(n, pixel(at)); n += 1; at += size
                    }
                }
            }
        } else {
            while n < count, at + size <= bytes.count { place(n, pixel(at)); n += 1; at += size }
        }
        // Nothing at all fails; a cut file shows what arrived only when asked.
        guard n > 0 else { throw bad("it has no pixels") }
        var image = PixelImage(width: width, height: height, pixels: out, isOpaque: n == count && PixelImage.allOpaque(out))
        if n < count {
            guard partial else { throw ImageError(path: path, reason: "is truncated (the TGA data ends early)") }
            image.note = "is truncated (the TGA data ends early): \(n * 100 / count) % of its pixels shown"
        }
        return image
    }

    /// A stored colour of `bits` (15 or 16: 5-5-5 and an attribute bit; 24: BGR; 32: BGRA)
    /// as RGBA. The 16-bit attribute bit is alpha only when the header says there is alpha,
    /// as ImageMagick reads it; a 32-bit colour's fourth byte always is.
    static func colour(_ b: [UInt8], _ at: Int, bits: Int, alpha: Bool) -> (UInt8, UInt8, UInt8, UInt8) {
        switch bits {
        case 15, 16:
            let v = Int(b[at]) | Int(b[at + 1]) << 8
            func five(_ x: Int) -> UInt8 { UInt8((x * 255 + 15) / 31) }
            let a: UInt8 = bits == 16 && alpha ? (v & 0x8000 != 0 ? 255 : 0) : 255
            return (five((v >> 10) & 31), five((v >> 5) & 31), five(v & 31), a)
        case 24: return (b[at + 2], b[at + 1], b[at], 255)
        default: return (b[at + 2], b[at + 1], b[at], b[at + 3])
        }
    }
}
