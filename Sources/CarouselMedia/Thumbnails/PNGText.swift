/// The text chunks (tEXt) of a PNG: what the freedesktop thumbnail standard keeps in a
/// thumbnail (Thumb::URI, Thumb::MTime). Read by walking the chunks before the image data,
/// every length checked, so a damaged or hostile thumbnail in the cache is only a miss;
/// written by inserting chunks after the header of a PNG our encoder made.
public enum PNGText {
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// keyword → text of every tEXt chunk before the first IDAT; nil when `png` is not a PNG
    /// or its chunks run past its end.
    public static func read(_ png: [UInt8]) -> [String: String]? {
        guard png.count >= 8, Array(png[0..<8]) == signature else { return nil }
        var texts: [String: String] = [:]
        var at = 8
        while at + 8 <= png.count {
            let length = Int(UInt32(png[at]) << 24 | UInt32(png[at + 1]) << 16 | UInt32(png[at + 2]) << 8 | UInt32(png[at + 3]))
            let type = String(decoding: png[(at + 4)..<(at + 8)], as: UTF8.self)
            let body = at + 8
            guard length <= png.count - body, png.count - body - length >= 4 else { return nil }
            if type == "IDAT" || type == "IEND" { break }
            if type == "tEXt", let zero = png[body..<(body + length)].firstIndex(of: 0) {
                let keyword = String(decoding: png[body..<zero], as: UTF8.self)
                // Latin-1 by the PNG standard; the values written here are ASCII.
                texts[keyword] = String(png[(zero + 1)..<(body + length)].map { Character(Unicode.Scalar($0)) })
            }
            at = body + length + 4
        }
        return texts
    }

    /// `png` with a tEXt chunk for each pair inserted after its IHDR chunk.
    public static func inserting(_ texts: [(String, String)], into png: [UInt8]) -> [UInt8] {
        guard png.count >= 33, Array(png[0..<8]) == signature else { return png }
        var chunks: [UInt8] = []
        for (keyword, text) in texts {
            let body = Array("tEXt".utf8) + Array(keyword.utf8) + [0] + Array(text.utf8)
            let length = UInt32(body.count - 4)
            chunks += [UInt8(length >> 24), UInt8(length >> 16 & 0xff), UInt8(length >> 8 & 0xff), UInt8(length & 0xff)]
            chunks += body
            let crc = CRC32.of(body)
            chunks += [UInt8(crc >> 24), UInt8(crc >> 16 & 0xff), UInt8(crc >> 8 & 0xff), UInt8(crc & 0xff)]
        }
        return Array(png[0..<33]) + chunks + Array(png[33...])
    }
}

/// The CRC-32 PNG chunks carry (ISO 3309).
enum CRC32 {
    static let table: [UInt32] = (0..<256).map { n in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB88320 ^ (c >> 1) : c >> 1 }
        return c
    }

    static func of(_ bytes: [UInt8]) -> UInt32 {
        var c: UInt32 = 0xFFFF_FFFF
        for b in bytes { c = table[Int((c ^ UInt32(b)) & 0xff)] ^ (c >> 8) }
        return c ^ 0xFFFF_FFFF
    }
}
