import CarouselCore

/// Netpbm pictures (PBM, PGM, PPM; plain and raw, 8 to 16 bits per sample), which scanners
/// and scientific tools write and SDL_image reads only at 8 bits. Pure Swift, bounds-checked,
/// fuzzed (`pnm`): the header is read by hand, the samples scaled to 8 bits by the maximum
/// value the header gives.
public enum PNMCodec {
    public struct Header: Equatable, Sendable {
        public var kind: Int  // 1...6, the digit after P
        public var width: Int
        public var height: Int
        public var maxValue: Int
        /// Where the samples start.
        public var dataStart: Int
    }

    /// The header at the start of `bytes`, or nil when they are not a PNM file.
    public static func header(_ bytes: [UInt8]) -> Header? {
        guard bytes.count >= 3, bytes[0] == UInt8(ascii: "P"), (UInt8(ascii: "1")...UInt8(ascii: "6")).contains(bytes[1]),
              isSpace(bytes[2]) || bytes[2] == UInt8(ascii: "#") else { return nil }
        let kind = Int(bytes[1] - UInt8(ascii: "0"))
        var at = 2
        var fields: [Int] = []
        let wanted = kind == 1 || kind == 4 ? 2 : 3
        while fields.count < wanted {
            while at < bytes.count, isSpace(bytes[at]) || bytes[at] == UInt8(ascii: "#") {
                if bytes[at] == UInt8(ascii: "#") { while at < bytes.count, bytes[at] != 10, bytes[at] != 13 { at += 1 } }
                else { at += 1 }
            }
            var v = 0, digits = 0
            while at < bytes.count, (48...57).contains(bytes[at]), digits < 9 { v = v * 10 + Int(bytes[at] - 48); at += 1; digits += 1 }
            // A comment may touch a number (`2 1#c`): it ends it, and the line break that ends
            // the comment is the whitespace after it (as libnetpbm's pm_getc reads it).
            if digits > 0, at < bytes.count, bytes[at] == UInt8(ascii: "#") {
                while at < bytes.count, bytes[at] != 10, bytes[at] != 13 { at += 1 }
            }
            guard digits > 0, at < bytes.count, isSpace(bytes[at]) else { return nil }
            fields.append(v)
        }
        let maxValue = wanted == 3 ? fields[2] : 1
        guard fields[0] > 0, fields[1] > 0, maxValue > 0, maxValue <= 65535 else { return nil }
        return Header(kind: kind, width: fields[0], height: fields[1], maxValue: maxValue, dataStart: at + 1)
    }

    /// `bytes` decoded into RGBA at full size; `path` names it in errors.
    public static func decode(_ bytes: [UInt8], path: String) throws(ImageError) -> PixelImage {
        guard let h = header(bytes) else { throw ImageError(path: path, reason: "is not a readable PNM (its header is malformed)") }
        let channels = h.kind == 3 || h.kind == 6 ? 3 : 1
        let pixels = h.width.multipliedReportingOverflow(by: h.height)
        guard !pixels.overflow, pixels.partialValue <= Int.max / 16 else {
            throw ImageError(path: path, reason: "claims \(h.width)x\(h.height) pixels, more than can be decoded")
        }
        let samples = pixels.partialValue * channels
        // The file must hold every sample before the picture is allocated: a 40-byte file
        // claiming 30000x30000 fails here, not in the allocator.
        let least: Int
        switch h.kind {
        case 4: least = (h.width + 7) / 8 * h.height
        case 5, 6: least = samples * (h.maxValue < 256 ? 1 : 2)
        case 1: least = samples
        default: least = samples * 2 - 1
        }
        guard bytes.count - h.dataStart >= least else {
            throw ImageError(path: path, reason: "is truncated (the PNM data ends early: \(max(0, bytes.count - h.dataStart)) bytes for \(samples) samples)")
        }
        var out = [UInt8](repeating: 255, count: h.width * h.height * 4)
        var reader = Samples(bytes: bytes, at: h.dataStart, header: h)
        for i in 0..<(h.width * h.height) {
            for c in 0..<channels {
                guard let v = reader.next() else {
                    throw ImageError(path: path, reason: "is truncated (the PNM data ends after \(i * channels + c) of \(samples) samples)")
                }
                let byte = UInt8(min(255, (v * 255 + h.maxValue / 2) / h.maxValue))
                if channels == 3 { out[i * 4 + c] = byte } else { out[i * 4] = byte; out[i * 4 + 1] = byte; out[i * 4 + 2] = byte }
            }
        }
        return PixelImage(width: h.width, height: h.height, pixels: out, isOpaque: true)
    }

    /// The samples in order, as numbers from 0 to the maximum value.
    private struct Samples {
        let bytes: [UInt8]
        var at: Int
        let header: Header
        var bit = 0  // P4: the next bit of the current byte
        var column = 0

        init(bytes: [UInt8], at: Int, header: Header) { self.bytes = bytes; self.at = at; self.header = header }

        mutating func next() -> Int? {
            switch header.kind {
            case 4:
                // Rows are packed 8 pixels a byte and padded to a byte; 1 is black.
                guard at < bytes.count else { return nil }
                let v = (bytes[at] >> UInt8(7 - bit)) & 1
                bit += 1; column += 1
                if bit == 8 || column == header.width { bit = 0; at += 1 }
                if column == header.width { column = 0 }
                return v == 1 ? 0 : 1
            case 5, 6:
                if header.maxValue < 256 {
                    guard at < bytes.count else { return nil }
                    defer { at += 1 }
                    return min(Int(bytes[at]), header.maxValue)
                }
                guard at + 1 < bytes.count else { return nil }
                defer { at += 2 }
                return min(Int(bytes[at]) << 8 | Int(bytes[at + 1]), header.maxValue)
            default:
                // Plain: decimal numbers between white space (P1 digits may touch).
                while at < bytes.count, PNMCodec.isSpace(bytes[at]) || bytes[at] == UInt8(ascii: "#") {
                    if bytes[at] == UInt8(ascii: "#") { while at < bytes.count, bytes[at] != 10 { at += 1 } } else { at += 1 }
                }
                guard at < bytes.count, (48...57).contains(bytes[at]) else { return nil }
                if header.kind == 1 { defer { at += 1 }; return bytes[at] == 49 ? 0 : 1 }
                var v = 0, digits = 0
                while at < bytes.count, (48...57).contains(bytes[at]), digits < 6 { v = v * 10 + Int(bytes[at] - 48); at += 1; digits += 1 }
                return min(v, header.maxValue)
            }
        }
    }

    static func isSpace(_ c: UInt8) -> Bool { c == 32 || (9...13).contains(c) }
}
