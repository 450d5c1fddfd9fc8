import CarouselCore
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The content identifier an iPhone writes into both halves of a Live Photo: in the still's
/// Apple maker note (Exif, tag 0x0011; a JPEG's APP1 or a HEIC's Exif item) and in the
/// motion's QuickTime metadata (`com.apple.quicktime.content.identifier`, in `moov/meta`'s
/// `keys` and `ilst`). Two phones both number from IMG_0001: in a family's merged folder
/// `IMG_0001.HEIC` of one and `IMG_0001.MOV` of the other carry different identifiers and
/// are not one Live Photo. Bytes from outside, read in the scanning process: every offset
/// and length is checked against what was read, reads are bounded, and it is fuzzed
/// (`carousel-fuzz live-photo-identity`). Each file's answer is kept by its path and stamp,
/// so a rescan reads only what changed.
public enum LivePhotoIdentity {
    /// The most of a still's head read for its Exif, and of a clip's `moov`.
    static let stillHead = 256 << 10
    static let exifLimit = 256 << 10
    static let moovLimit = 8 << 20

    /// Whether a still and a clip of the same name may be one Live Photo: unless both carry
    /// a content identifier and they differ.
    public static func belongTogether(still: String, motion: String) -> Bool {
        guard let a = identifier(ofStill: still), let b = identifier(ofMotion: motion) else { return true }
        return a == b
    }

    private static let lock = NSLock()
    nonisolated(unsafe) private static var known: [String: (stamp: FileStamp, id: String?)] = [:]

    /// The identifier in the still at `path` (JPEG or HEIC), or nil.
    public static func identifier(ofStill path: String) -> String? {
        remembered(path, as: "still") { fd, size in
            let head = read(fd, at: 0, count: min(size, stillHead))
            if head.starts(with: [0xFF, 0xD8]) { return still(jpeg: head) }
            guard let exif = exifItem(heif: head) else { return nil }
            guard exif.offset >= 0, exif.length > 0, exif.length <= exifLimit, exif.offset + exif.length <= size else { return nil }
            return still(exifItem: read(fd, at: exif.offset, count: exif.length))
        }
    }

    /// The identifier in the QuickTime clip at `path`, or nil.
    public static func identifier(ofMotion path: String) -> String? {
        remembered(path, as: "motion") { fd, size in
            guard let moov = topLevelAtom("moov", fd: fd, size: size), moov.length <= moovLimit else { return nil }
            return motion(moov: read(fd, at: moov.offset, count: moov.length))
        }
    }

    private static func remembered(_ path: String, as kind: String, _ find: (Int32, Int) -> String?) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        let stamp = FileStamp(info)
        let key = kind + ":" + path
        if let k = lock.withLock({ known[key] }), k.stamp == stamp { return k.id }
        let id = find(fd, Int(info.st_size))
        lock.withLock { known[key] = (stamp, id) }
        return id
    }

    static func read(_ fd: Int32, at offset: Int, count: Int) -> [UInt8] {
        guard count > 0 else { return [] }
        var out = [UInt8](repeating: 0, count: count)
        let got = out.withUnsafeMutableBytes { pread(fd, $0.baseAddress, count, off_t(offset)) }
        return got > 0 ? Array(out.prefix(got)) : []
    }

    // MARK: - Pure: the bytes in, the identifier out

    /// A JPEG's identifier: its Exif APP1's maker note.
    static func still(jpeg bytes: [UInt8]) -> String? {
        let b = ByteReader(bytes)
        return b.firstJPEGSegment { marker, at, length -> String? in
            guard marker == 0xE1, b.matches(Array("Exif\0\0".utf8), at: at + 4) else { return nil }
            return makerNoteIdentifier(b, tiff: at + 10, end: min(bytes.count, at + 2 + length))
        }
    }

    /// A HEIF Exif item's identifier: after its 4-byte offset to the TIFF header.
    static func still(exifItem bytes: [UInt8]) -> String? {
        let b = ByteReader(bytes)
        return tiffStart(exifItem: b).flatMap { makerNoteIdentifier(b, tiff: $0, end: bytes.count) }
    }

    /// Where a HEIF Exif item's TIFF header lies: after the item's 4-byte offset to it (and
    /// an `Exif\0\0` some writers leave there).
    static func tiffStart(exifItem b: ByteReader) -> Int? {
        guard let skip = b.u32be(0), skip < b.bytes.count else { return nil }
        let tiff = 4 + skip
        return b.matches(Array("Exif\0\0".utf8), at: tiff) ? tiff + 6 : tiff
    }

    /// IFD0 → the Exif IFD (0x8769) → the maker note (0x927C), when it is Apple's
    /// ("Apple iOS\0", a version, "MM", then an IFD whose offsets count from the note's
    /// start) → its tag 0x0011, an ASCII string.
    static func makerNoteIdentifier(_ b: ByteReader, tiff: Int, end: Int) -> String? {
        guard let ifd = TIFFWalk(b, start: tiff, end: end) else { return nil }
        guard let exifIFD = ifd.entry(0x8769, inIFDAt: ifd.first).flatMap({ ifd.value32($0) }),
              let note = ifd.entry(0x927C, inIFDAt: tiff + exifIFD),
              let noteOffset = ifd.value32(note), let noteCount = ifd.u32(note + 4) else { return nil }
        let start = tiff + noteOffset, noteEnd = min(end, start + noteCount)
        guard noteCount >= 16, b.matches(Array("Apple iOS\0".utf8), at: start), b.matches(Array("MM".utf8), at: start + 12) else { return nil }
        let apple = TIFFWalk(b, bigEndian: true, start: start, end: noteEnd)
        guard let entry = apple.entry(0x0011, inIFDAt: start + 14), apple.u16(entry + 2) == 2,
              let count = apple.u32(entry + 4), count > 1, count <= 128 else { return nil }
        let at = count <= 4 ? entry + 8 : apple.u32(entry + 8).map { start + $0 }
        guard let at, at >= 0, at + count <= noteEnd else { return nil }
        return text(Array(b.bytes[at..<(at + count)]))
    }

    /// Where a HEIF's Exif item lies in the file: from `meta`'s `iinf` (its item of type
    /// `Exif`) and `iloc` (that item's first extent), in the head read.
    static func exifItem(heif bytes: [UInt8]) -> (offset: Int, length: Int)? {
        let b = ByteReader(bytes)
        guard b.matches(Array("ftyp".utf8), at: 4), let meta = ISOBMFFHeader.box("meta", in: b, from: 0, to: bytes.count) else { return nil }
        let children = meta.start + 4  // a full box: version and flags first
        guard let iinf = ISOBMFFHeader.box("iinf", in: b, from: children, to: meta.end),
              let iloc = ISOBMFFHeader.box("iloc", in: b, from: children, to: meta.end),
              let item = exifItemID(b, iinf: iinf) else { return nil }
        return extent(of: item, b, iloc: iloc)
    }

    private static func exifItemID(_ b: ByteReader, iinf: (start: Int, end: Int)) -> Int? {
        guard let version = b.u8(iinf.start) else { return nil }
        var at = iinf.start + 4 + (version == 0 ? 2 : 4)
        for _ in 0..<4096 {
            guard at + 8 <= iinf.end, let size = b.u32be(at), size >= 8, at + size <= iinf.end else { return nil }
            if b.matches(Array("infe".utf8), at: at + 4), let v = b.u8(at + 8), v >= 2 {
                let id = v == 2 ? b.u16be(at + 12) : b.u32be(at + 12)
                let type = at + 12 + (v == 2 ? 2 : 4) + 2
                if let id, b.matches(Array("Exif".utf8), at: type) { return id }
            }
            at += size
        }
        return nil
    }

    private static func extent(of item: Int, _ b: ByteReader, iloc: (start: Int, end: Int)) -> (offset: Int, length: Int)? {
        guard let version = b.u8(iloc.start), version <= 2, let sizes = b.u8(iloc.start + 4), let more = b.u8(iloc.start + 5) else { return nil }
        let offsetSize = Int(sizes >> 4), lengthSize = Int(sizes & 15), baseSize = Int(more >> 4)
        let indexSize = version == 0 ? 0 : Int(more & 15)
        guard [0, 4, 8].contains(offsetSize), [0, 4, 8].contains(lengthSize), [0, 4, 8].contains(baseSize), [0, 4, 8].contains(indexSize) else { return nil }
        func number(_ at: Int, _ n: Int) -> Int? { n == 0 ? 0 : n == 4 ? b.u32be(at) : b.u32be(at).flatMap { hi in b.u32be(at + 4).map { hi << 32 | $0 } } }
        var at = iloc.start + 6
        guard let count = version < 2 ? b.u16be(at) : b.u32be(at) else { return nil }
        at += version < 2 ? 2 : 4
        for _ in 0..<min(count, 4096) {
            guard let id = version < 2 ? b.u16be(at) : b.u32be(at) else { return nil }
            at += version < 2 ? 2 : 4
            var method = 0
            if version >= 1 { guard let m = b.u16be(at) else { return nil }; method = m & 15; at += 2 }
            at += 2  // data reference index
            guard let base = number(at, baseSize) else { return nil }
            at += baseSize
            guard let extents = b.u16be(at) else { return nil }
            at += 2
            var first: (Int, Int)?
            for e in 0..<extents {
                at += indexSize
                guard let offset = number(at, offsetSize), let length = number(at + offsetSize, lengthSize) else { return nil }
                at += offsetSize + lengthSize
                if e == 0 { first = (offset, length) }
            }
            guard at <= iloc.end else { return nil }
            if id == item {
                guard method == 0, let (offset, length) = first, base <= Int.max / 2, offset <= Int.max / 2 else { return nil }
                return (base + offset, length)
            }
        }
        return nil
    }

    /// A clip's top-level atom of `type`: where it starts and how long it is (64-bit sizes
    /// too), found by reading each atom's header in turn.
    static func topLevelAtom(_ type: String, fd: Int32, size: Int) -> (offset: Int, length: Int)? {
        var at = 0
        for _ in 0..<256 {
            let header = read(fd, at: at, count: 16)
            let b = ByteReader(header)
            guard header.count >= 8, var length = b.u32be(0) else { return nil }
            var body = 8
            if length == 1 {
                guard let hi = b.u32be(8), let lo = b.u32be(12), hi < 1 << 30 else { return nil }
                length = hi << 32 | lo
                body = 16
            } else if length == 0 {
                length = size - at
            }
            guard length >= body, at + length <= size else { return nil }
            if b.matches(Array(type.utf8), at: 4) { return (at + body, length - body) }
            at += length
        }
        return nil
    }

    /// The identifier in a `moov` atom's content: `meta` (QuickTime's, or a full box; in
    /// `moov` or in its `udta`) →
    /// `keys` (the index of `com.apple.quicktime.content.identifier`) → `ilst` (that index's
    /// `data`, UTF-8).
    static func motion(moov bytes: [UInt8]) -> String? {
        quickTimeValue("com.apple.quicktime.content.identifier", moov: bytes).flatMap(text)
    }

    /// The UTF-8 value (at most 128 bytes) of QuickTime metadata key `key` in a `moov`
    /// atom's content: `meta` (in `moov` or its `udta`) → `keys` → `ilst`.
    static func quickTimeValue(_ key: String, moov bytes: [UInt8]) -> [UInt8]? {
        let b = ByteReader(bytes)
        // An iPhone puts it in moov/meta; ffmpeg (and some editors) in moov/udta/meta.
        let udta = ISOBMFFHeader.box("udta", in: b, from: 0, to: bytes.count)
        guard let meta = ISOBMFFHeader.box("meta", in: b, from: 0, to: bytes.count)
                ?? udta.flatMap({ ISOBMFFHeader.box("meta", in: b, from: $0.start, to: $0.end) }) else { return nil }
        // QuickTime's meta is a plain atom; MP4's a full box (4 bytes of version and flags).
        let children = b.matches(Array("hdlr".utf8), at: meta.start + 4) ? meta.start : meta.start + 4
        guard let keys = ISOBMFFHeader.box("keys", in: b, from: children, to: meta.end),
              let ilst = ISOBMFFHeader.box("ilst", in: b, from: children, to: meta.end), let count = b.u32be(keys.start + 4) else { return nil }
        guard count > 0 else { return nil }
        var at = keys.start + 8, wanted: Int?
        for index in 1...min(count, 1024) {
            guard let size = b.u32be(at), size >= 8, at + size <= keys.end else { return nil }
            if bytes[(at + 8)..<(at + size)].elementsEqual(key.utf8) { wanted = index; break }
            at += size
        }
        guard let wanted else { return nil }
        at = ilst.start
        for _ in 0..<1024 {
            guard let size = b.u32be(at), size >= 8, at + size <= ilst.end else { return nil }
            if b.u32be(at + 4) == wanted, let data = ISOBMFFHeader.box("data", in: b, from: at + 8, to: at + size), data.end - data.start >= 8,
               b.u32be(data.start) == 1, data.end - data.start - 8 <= 128 {
                return Array(bytes[(data.start + 8)..<data.end])
            }
            at += size
        }
        return nil
    }

    /// Printable ASCII up to the first NUL; nil when empty or anything else.
    private static func text(_ bytes: [UInt8]) -> String? {
        let kept = bytes.prefix { $0 != 0 }
        guard !kept.isEmpty, kept.allSatisfy({ (0x20..<0x7F).contains($0) }) else { return nil }
        return String(decoding: kept, as: UTF8.self)
    }
}

/// A TIFF structure's IFDs, every read checked against its end.
struct TIFFWalk {
    let b: ByteReader
    let big: Bool
    let start: Int
    let end: Int

    /// From the byte order mark at `start`.
    init?(_ b: ByteReader, start: Int, end: Int) {
        if b.matches(Array("MM".utf8), at: start) { big = true }
        else if b.matches(Array("II".utf8), at: start) { big = false }
        else { return nil }
        (self.b, self.start, self.end) = (b, start, end)
    }

    init(_ b: ByteReader, bigEndian: Bool, start: Int, end: Int) {
        (self.b, self.big, self.start, self.end) = (b, bigEndian, start, end)
    }

    /// IFD0, from the header.
    var first: Int { u32(start + 4).map { start + $0 } ?? -1 }

    func u16(_ i: Int) -> Int? { i >= start && i + 2 <= end ? (big ? b.u16be(i) : b.u16le(i)) : nil }
    func u32(_ i: Int) -> Int? { i >= start && i + 4 <= end ? (big ? b.u32be(i) : b.u32le(i)) : nil }

    /// The entry of `tag` in the IFD at `ifd` (its 12 bytes' offset), or nil.
    func entry(_ tag: Int, inIFDAt ifd: Int) -> Int? {
        guard let count = u16(ifd) else { return nil }
        for k in 0..<min(count, 512) {
            let at = ifd + 2 + 12 * k
            guard let t = u16(at) else { return nil }
            if t == tag { return at }
        }
        return nil
    }

    /// An entry's 32-bit value (or offset) field.
    func value32(_ entry: Int) -> Int? { u32(entry + 8) }

    /// The bytes of an entry of one-byte values (ASCII, UNDEFINED) whose count is at most
    /// `maxCount`: in the entry itself when they fit in four, else where it points; nil when
    /// they lie outside the structure.
    func bytes(ofEntry entry: Int, maxCount: Int) -> ArraySlice<UInt8>? {
        guard let count = u32(entry + 4), count > 0, count <= maxCount else { return nil }
        guard let at = count <= 4 ? entry + 8 : u32(entry + 8).map({ start + $0 }), at >= start, at + count <= end else { return nil }
        return b.bytes[at..<(at + count)]
    }
}
