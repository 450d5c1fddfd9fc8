import CSPNG
import Foundation

/// The parts of a picture or clip file where what it says of itself lies (when and where it
/// was taken): its head (a JPEG's APP segments, a PNG's chunks before the pixels, a WebP's
/// chunks, a TIFF's IFDs), a HEIF's or AVIF's Exif item, and a clip's `moov`. Bytes from
/// outside, read in the scanning process: every offset checked, reads bounded.
struct MetadataBytes {
    /// The most of a file's head read (a JPEG's APP1 is at most 64 KB), and of a HEIF's Exif item.
    static let headBytes = 64 << 10
    /// The most of a clip's `moov` read.
    static let moovLimit = 8 << 20

    var head: [UInt8]
    var exifItem: [UInt8]?
    var moov: [UInt8]?

    /// The file at `path`'s parts, or nil when it is no regular file.
    static func read(path: String) -> MetadataBytes? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        let size = Int(info.st_size)
        var found = MetadataBytes(head: LivePhotoIdentity.read(fd, at: 0, count: min(size, headBytes)))
        if ByteReader(found.head).matches(Array("ftyp".utf8), at: 4), let exif = LivePhotoIdentity.exifItem(heif: found.head),
           exif.offset >= 0, exif.length > 0, exif.length <= headBytes, exif.offset <= size - exif.length {
            found.exifItem = LivePhotoIdentity.read(fd, at: exif.offset, count: exif.length)
        } else if ClipContainer.isClip(Array(found.head.prefix(ClipContainer.sniffBytes))),
                  let moov = LivePhotoIdentity.topLevelAtom("moov", fd: fd, size: size), moov.length <= moovLimit {
            found.moov = LivePhotoIdentity.read(fd, at: moov.offset, count: moov.length)
        }
        return found
    }

    /// EXIF that a PNG keeps as text, as ImageMagick and exiv2 write it when a camera's JPEG
    /// becomes a PNG: a zTXt (or tEXt, iTXt) `Raw profile type exif` (or `APP1`) holding
    /// `\nexif\n  LENGTH\n` and the bytes in hex (`Exif\0\0`, then the TIFF structure).
    /// Inflated by libspng, bounded (a chunk of at most 1 MB, text of at most 4 MB, EXIF of
    /// at most 64 KB); with where its TIFF header starts. Nil when there is none.
    static func pngTextExif(_ bytes: [UInt8]) -> (bytes: [UInt8], tiff: Int)? {
        let b = ByteReader(bytes)
        guard b.matches([0x89, 0x50, 0x4E, 0x47], at: 0),
              bytes.firstRange(of: Array("Raw profile type ".utf8)) != nil, let ctx = spng_ctx_new(0) else { return nil }
        defer { spng_ctx_free(ctx) }
        spng_set_chunk_limits(ctx, 1 << 20, 4 << 20)
        return bytes.withUnsafeBytes { raw -> (bytes: [UInt8], tiff: Int)? in
            var count: UInt32 = 0
            guard spng_set_png_buffer(ctx, raw.baseAddress, raw.count) == 0,
                  spng_get_text(ctx, nil, &count) == 0, count > 0, count <= 256 else { return nil }
            var texts = [spng_text](repeating: spng_text(), count: Int(count))
            guard spng_get_text(ctx, &texts, &count) == 0 else { return nil }
            for text in texts.prefix(Int(count)) {
                let keyword = withUnsafeBytes(of: text.keyword) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
                guard keyword == "Raw profile type exif" || keyword == "Raw profile type APP1", let chars = text.text,
                      text.length > 0, text.length <= 4 << 20 else { continue }
                let body = UnsafeRawBufferPointer(start: chars, count: text.length)
                guard let exif = rawProfile(Array(body)) else { continue }
                return (exif, ByteReader(exif).matches(Array("Exif\0\0".utf8), at: 0) ? 6 : 0)
            }
            return nil
        }
    }

    /// ImageMagick's raw profile text: a name line, the length in bytes, then that many bytes
    /// in hex, across lines. At most 64 KB; nil when the digits are fewer or not hex.
    static func rawProfile(_ text: [UInt8]) -> [UInt8]? {
        var i = 0
        func skipSpace() { while i < text.count, text[i] == 0x0A || text[i] == 0x20 || text[i] == 0x0D || text[i] == 0x09 { i += 1 } }
        skipSpace()
        while i < text.count, text[i] != 0x0A { i += 1 }  // the profile's name
        skipSpace()
        var length = 0
        while i < text.count, (0x30...0x39).contains(text[i]), length <= headBytes { length = length * 10 + Int(text[i] - 0x30); i += 1 }
        guard length > 0, length <= headBytes else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(length)
        var high: UInt8?
        while out.count < length, i < text.count {
            let c = text[i]
            i += 1
            let v: UInt8
            switch c {
            case 0x30...0x39: v = c - 0x30
            case 0x61...0x66: v = c - 0x61 + 10
            case 0x41...0x46: v = c - 0x41 + 10
            case 0x0A, 0x0D, 0x20, 0x09: continue
            default: return nil
            }
            if let h = high { out.append(h << 4 | v); high = nil } else { high = v }
        }
        return out.count == length ? out : nil
    }

    /// The values of XMP property `key` in a packet, in order (an attribute `key="…"` or
    /// `key='…'`, or an element `<key>…</key>`), each at most `limit` bytes.
    static func xmpValues(_ key: String, in packet: ArraySlice<UInt8>, limit: Int) -> [String] {
        let pattern = Array(key.utf8)
        var values: [String] = []
        var from = packet.startIndex
        while let found = packet[from...].firstRange(of: pattern) {
            var at = found.upperBound
            from = at
            while at < packet.endIndex, packet[at] == 0x20 { at += 1 }
            guard at < packet.endIndex else { break }
            let close: UInt8
            if packet[at] == UInt8(ascii: "=") {
                at += 1
                while at < packet.endIndex, packet[at] == 0x20 { at += 1 }
                guard at < packet.endIndex, packet[at] == UInt8(ascii: "\"") || packet[at] == UInt8(ascii: "'") else { continue }
                close = packet[at]
            } else if packet[at] == UInt8(ascii: ">") {
                close = UInt8(ascii: "<")
            } else {
                continue
            }
            values.append(String(decoding: packet[(at + 1)...].prefix(limit).prefix { $0 != close }, as: UTF8.self))
        }
        return values
    }

    /// Where the metadata lies in a file's head: the EXIF block (from its TIFF header to its
    /// end), the XMP packet and a JPEG's IPTC (Photoshop's APP13), for JPEG, PNG, WebP and TIFF.
    struct Blocks {
        var exif: (tiff: Int, end: Int)?
        var xmp: Range<Int>?
        var iptc: Range<Int>?

        init(head bytes: [UInt8]) {
            let b = ByteReader(bytes)
            if b.matches([0xFF, 0xD8], at: 0) {
                let xmpHeader = Array("http://ns.adobe.com/xap/1.0/\0".utf8), photoshop = Array("Photoshop 3.0\0".utf8)
                // One pass over the segments before the frame: APP1 (EXIF, XMP) and APP13 (IPTC).
                _ = b.firstJPEGSegment { marker, at, length -> Bool? in
                    if ByteReader.isJPEGFrame(marker) { return true }
                    let end = min(bytes.count, at + 2 + length)
                    if marker == 0xE1, exif == nil, b.matches(Array("Exif\0\0".utf8), at: at + 4) { exif = (at + 10, end) }
                    if marker == 0xE1, xmp == nil, b.matches(xmpHeader, at: at + 4), at + 4 + xmpHeader.count <= end {
                        xmp = (at + 4 + xmpHeader.count)..<end
                    }
                    // A segment that says it is shorter than its own header holds nothing.
                    if marker == 0xED, iptc == nil, b.matches(photoshop, at: at + 4), at + 4 + photoshop.count <= end {
                        iptc = (at + 4 + photoshop.count)..<end
                    }
                    return nil
                }
            } else if b.matches([0x89, 0x50, 0x4E, 0x47], at: 0) {
                var at = 8
                for _ in 0..<1024 {
                    guard let length = b.u32be(at), length <= bytes.count, at + 12 + length <= bytes.count else { break }
                    if exif == nil, b.matches(Array("eXIf".utf8), at: at + 4) { exif = (at + 8, at + 8 + length) }
                    if xmp == nil, b.matches(Array("iTXtXML:com.adobe.xmp\0".utf8), at: at + 4) { xmp = (at + 8)..<(at + 8 + length) }
                    // Before the pixels as the PNG spec's extension asks, or after them as some writers put it.
                    if b.matches(Array("IEND".utf8), at: at + 4) { break }
                    at += 12 + length
                }
            } else if b.matches(Array("RIFF".utf8), at: 0), b.matches(Array("WEBP".utf8), at: 8) {
                var at = 12
                for _ in 0..<64 {
                    guard let size = b.u32le(at + 4), size <= bytes.count else { break }
                    let start = at + 8, end = min(bytes.count, start + size)
                    if exif == nil, b.matches(Array("EXIF".utf8), at: at) {
                        exif = (b.matches(Array("Exif\0\0".utf8), at: start) ? start + 6 : start, end)
                    }
                    if xmp == nil, b.matches(Array("XMP ".utf8), at: at), start <= end { xmp = start..<end }
                    at = start + size + (size & 1)
                    guard at + 8 <= bytes.count else { break }
                }
            } else if b.matches(Array("II*\0".utf8), at: 0) || b.matches(Array("MM\0*".utf8), at: 0) {
                exif = (0, bytes.count)
            }
        }
    }
}
