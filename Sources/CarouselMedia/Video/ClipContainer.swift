/// Whether a file's first bytes are a video container the clip decoder reads: MP4 and
/// MOV (ISO base media, not the HEIF and AVIF pictures that share its boxes), QuickTime
/// files older than `ftyp`, Matroska and WebM, AVI, MPEG transport streams (AVCHD's MTS
/// and M2TS) and MPEG program streams. The content decides, not the name.
public enum ClipContainer {
    /// Bytes enough to tell (an `ftyp` box's brands; a transport stream's second packet).
    public static let sniffBytes = 200

    /// The first box of a QuickTime file written before `ftyp` existed.
    static let quickTimeBoxes: Set<String> = ["moov", "mdat", "wide", "free", "skip", "pnot"]

    public static func isClip(_ head: [UInt8]) -> Bool {
        guard head.count >= 12 else { return false }
        if head[0] == 0x1A && head[1] == 0x45 && head[2] == 0xDF && head[3] == 0xA3 { return true }  // EBML
        if head.starts(with: Array("RIFF".utf8)) && head[8..<12].elementsEqual("AVI ".utf8) { return true }
        if isMPEGStream(head) { return true }
        let box = String(decoding: head[4..<8], as: UTF8.self)
        if box == "ftyp" {
            // A picture when any of its brands is HEIF's or AVIF's.
            let brands = stride(from: 8, to: head.count - 3, by: 4).map { String(decoding: head[$0..<($0 + 4)], as: UTF8.self) }
            return !brands.contains { ISOBMFFHeader.heifBrands.contains($0) || ISOBMFFHeader.avifBrands.contains($0) }
        }
        return quickTimeBoxes.contains(box)
    }

    /// An MPEG program stream (its pack header) or transport stream (packets beginning with
    /// 0x47 every 188 bytes, every 192 in M2TS after a time stamp).
    public static func isMPEGStream(_ head: [UInt8]) -> Bool {
        if head.starts(with: [0, 0, 1, 0xBA]) { return true }
        for (first, size) in [(0, 188), (4, 192)] where head.count > first + size && head[first] == 0x47 && head[first + size] == 0x47 {
            return true
        }
        return false
    }
}
