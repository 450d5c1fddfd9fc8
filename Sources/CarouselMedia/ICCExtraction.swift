/// Finds the ICC profile embedded in a file's bytes where the format spreads it over its own
/// containers: a JPEG's APP2 "ICC_PROFILE" markers (a profile over 64 KB takes several,
/// numbered) and a WebP's ICCP chunk. Reads bounds-checked, never traps: outside bytes,
/// fuzzed (`icc-jpeg`, `icc-webp`).
public enum ICCExtraction {
    /// Largest profile accepted: a camera's is a few KB, a printer's CMYK up to a few MB.
    public static let maxBytes = 8 << 20

    /// The colour a JPEG's APP2 markers give: `.sRGB` without one, `.unusable` when they do
    /// not add up (a marker missing, numbered twice or out of range).
    public static func jpeg(_ bytes: [UInt8]) -> EmbeddedColour {
        let b = ByteReader(bytes)
        guard b.matches([0xFF, 0xD8], at: 0) else { return .sRGB }
        let signature = Array("ICC_PROFILE\0".utf8)
        var parts: [Int: ArraySlice<UInt8>] = [:]
        var count: Int? = nil
        var damaged: String? = nil
        var total = 0
        _ = b.firstJPEGSegment { marker, at, length -> Bool? in
            guard marker == 0xE2, b.matches(signature, at: at + 4) else { return nil }
            let end = at + 2 + length
            guard let seq = b.u8(at + 16), let n = b.u8(at + 17), end <= bytes.count, end >= at + 18 else {
                damaged = "an ICC marker is cut short"; return true
            }
            if count == nil { count = Int(n) }
            guard Int(n) == count, seq >= 1, seq <= n, parts[Int(seq)] == nil else {
                damaged = "its ICC markers are numbered inconsistently"; return true
            }
            total += end - (at + 18)
            guard total <= maxBytes else { damaged = "its ICC profile is over \(maxBytes >> 20) MB"; return true }
            parts[Int(seq)] = bytes[(at + 18)..<end]
            return nil
        }
        if let damaged { return .unusable(reason: "\(damaged); shown as sRGB") }
        guard let count else { return .sRGB }
        guard parts.count == count else { return .unusable(reason: "its ICC profile is missing \(count - parts.count) of \(count) markers; shown as sRGB") }
        var profile: [UInt8] = []
        profile.reserveCapacity(total)
        for k in 1...count { profile += parts[k]! }
        return .icc(profile)
    }

    /// The colour a WebP's ICCP chunk gives (only read when VP8X says there is one).
    public static func webp(_ bytes: [UInt8]) -> EmbeddedColour {
        let b = ByteReader(bytes)
        guard b.matches(Array("RIFF".utf8), at: 0), b.matches(Array("WEBP".utf8), at: 8),
              b.matches(Array("VP8X".utf8), at: 12), let flags = b.u8(20), flags & 0x20 != 0 else { return .sRGB }
        var at = 12
        while at + 8 <= bytes.count {
            guard let size = b.u32le(at + 4) else { break }
            let body = at + 8
            if b.matches(Array("ICCP".utf8), at: at) {
                guard size <= maxBytes, body + size <= bytes.count else {
                    return .unusable(reason: "its ICC profile chunk runs past the end of the file; shown as sRGB")
                }
                return .icc(Array(bytes[body..<(body + size)]))
            }
            // Chunks are padded to an even length; the profile comes before the image data.
            if b.matches(Array("VP8 ".utf8), at: at) || b.matches(Array("VP8L".utf8), at: at)
                || b.matches(Array("ANIM".utf8), at: at) { break }
            at = body + size + (size & 1)
        }
        return .unusable(reason: "says it has an ICC profile but has none; shown as sRGB")
    }
}
