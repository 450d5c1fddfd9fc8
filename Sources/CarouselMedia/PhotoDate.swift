import CarouselCore
import Foundation

/// When a picture or clip was taken, as its own file says: the wall time where it was taken
/// (a camera's clock), with its offset from UTC when the file gives one. Read from EXIF's
/// DateTimeOriginal (else DateTimeDigitized, else DateTime) and OffsetTimeOriginal in a
/// JPEG's APP1, a PNG's `eXIf`, a WebP's `EXIF`, a TIFF's own IFDs and a HEIF's or AVIF's
/// Exif item; from a phone's `com.apple.quicktime.creationdate` in a MOV or MP4, else its
/// `mvhd` creation time (UTC). Bytes from outside, read in the scanning process like
/// `LivePhotoIdentity`: every offset checked, reads bounded, fuzzed (`photo-date`).
public struct PhotoDate: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int
    /// Minutes east of UTC, when the file says.
    public var offsetMinutes: Int?

    public init?(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0, offsetMinutes: Int? = nil) {
        guard (1800...9999).contains(year), (1...12).contains(month), (1...31).contains(day), (0...23).contains(hour),
              (0...59).contains(minute), (0...60).contains(second), offsetMinutes.map({ abs($0) <= 18 * 60 }) ?? true else { return nil }
        (self.year, self.month, self.day, self.hour, self.minute, self.second, self.offsetMinutes) = (year, month, day, hour, minute, second, offsetMinutes)
    }

    /// The wall time as one number, for order and ranges (the offset is not counted: a
    /// photo taken at 09:00 anywhere was taken in the morning).
    var ordinal: Int { ((((year * 13 + month) * 32 + day) * 24 + hour) * 60 + minute) * 61 + second }
    public static func < (a: PhotoDate, b: PhotoDate) -> Bool { a.ordinal < b.ordinal }

    public var description: String {
        let offset = offsetMinutes.map { String(format: "%@%02d:%02d", $0 < 0 ? "-" : "+", abs($0) / 60, abs($0) % 60) } ?? ""
        return String(format: "%04d-%02d-%02d %02d:%02d:%02d", year, month, day, hour, minute, second) + offset
    }

    // MARK: - Files

    /// The date in the file at `path`, or nil when it says none (or is no file).
    public static func read(path: String) -> PhotoDate? {
        MetadataBytes.read(path: path).flatMap(read(metadata:))
    }

    /// The date in a file's parts: its head's, else its HEIF Exif item's, else its clip's.
    static func read(metadata m: MetadataBytes) -> PhotoDate? {
        read(head: m.head) ?? m.exifItem.flatMap(read(exifItem:)) ?? m.moov.flatMap(read(moov:))
    }

    private static let known = StampedMemo<PhotoDate?>()

    /// When `source` was taken: as its listing says, else as its file says (read once per
    /// stamp); a web picture without a listed date says none (its file is not read here).
    public static func of(_ source: ImageSource) -> PhotoDate? {
        if let listed = source.taken { return PhotoDate(listed: listed) }
        return ImageSource.isRemote(source.path) ? nil : remembered(path: source.path, stamp: source.stamp)
    }

    /// A date as a listing writes it: `YYYY-MM-DD`, optionally `THH:MM`, `:SS`, a fraction,
    /// and `Z`, `±HH:MM` or `±HHMM` (ISO 8601, as a manifest's `taken`, Immich, XMP and a
    /// phone's clip give it).
    public init?(listed text: String) {
        let b = Array(text.utf8)
        func number(_ from: Int, _ count: Int) -> Int? {
            guard from + count <= b.count else { return nil }
            var n = 0
            for c in b[from..<(from + count)] {
                guard c >= 0x30, c <= 0x39 else { return nil }
                n = n * 10 + Int(c - 0x30)
            }
            return n
        }
        func at(_ i: Int, _ c: Character) -> Bool { i < b.count && b[i] == c.asciiValue! }
        guard b.count <= 40, let year = number(0, 4), at(4, "-"), let month = number(5, 2), at(7, "-"), let day = number(8, 2) else { return nil }
        var hour = 0, minute = 0, second = 0, i = 10
        if at(10, "T") || at(10, " ") {
            guard let h = number(11, 2), at(13, ":"), let m = number(14, 2) else { return nil }
            (hour, minute, i) = (h, m, 16)
            if at(16, ":") {
                guard let s = number(17, 2) else { return nil }
                (second, i) = (s, 19)
                if at(19, ".") {
                    i = 20
                    while i < b.count, b[i] >= 0x30, b[i] <= 0x39 { i += 1 }
                }
            }
        }
        var offset: Int? = nil
        if at(i, "Z") {
            offset = 0
            i += 1
        } else if at(i, "+") || at(i, "-") {
            // `+02:00`, or `+0200` as a phone's clip writes it.
            let colon = at(i + 3, ":")
            guard let h = number(i + 1, 2), let m = number(i + (colon ? 4 : 3), 2) else { return nil }
            offset = (h * 60 + m) * (at(i, "-") ? -1 : 1)
            i += colon ? 6 : 5
        }
        guard i == b.count else { return nil }
        self.init(year: year, month: month, day: day, hour: hour, minute: minute, second: second, offsetMinutes: offset)
    }

    /// `read(path:)`, kept by path and stamp: a rescan reads only files that changed.
    public static func remembered(path: String, stamp: FileStamp?) -> PhotoDate? {
        known.value(for: path, stamp: stamp) { read(path: path) }
    }

    // MARK: - Pure: the bytes in, the date out

    /// The date in a file's first bytes: JPEG, PNG, WebP or TIFF (a HEIF's Exif item and a
    /// clip's `moov` lie elsewhere: `read(path:)`). EXIF's first; else its XMP packet's
    /// (`exif:DateTimeOriginal`, `photoshop:DateCreated`, `xmp:CreateDate`): what a photo
    /// edited in Lightroom, or scanned, may keep only there; else a JPEG's IPTC; else a PNG's EXIF kept as text by ImageMagick.
    public static func read(head bytes: [UInt8]) -> PhotoDate? {
        let b = ByteReader(bytes), blocks = MetadataBytes.Blocks(head: bytes)
        if let e = blocks.exif, let date = exif(b, tiff: e.tiff, end: e.end) { return date }
        if let x = blocks.xmp, let date = xmp(bytes[x]) { return date }
        if let i = blocks.iptc, let date = photoshopIPTC(b, in: i) { return date }
        return MetadataBytes.pngTextExif(bytes).flatMap { exif(ByteReader($0.bytes), tiff: $0.tiff, end: $0.bytes.count) }
    }

    /// IPTC's Date Created (2:55, `CCYYMMDD`) and Time Created (2:60, `HHMMSS±HHMM`), in the
    /// IPTC-NAA resource (0x0404) of a JPEG's Photoshop APP13: what Photo Mechanic, Picasa
    /// and news agencies' tools write.
    static func photoshopIPTC(_ b: ByteReader, in range: Range<Int>) -> PhotoDate? {
        var at = range.lowerBound
        for _ in 0..<256 {
            guard b.matches(Array("8BIM".utf8), at: at), let id = b.u16be(at + 4), let nameLength = b.u8(at + 6) else { return nil }
            let sizeAt = at + 6 + ((Int(nameLength) + 2) & ~1)
            guard let size = b.u32be(sizeAt), sizeAt + 4 + size <= range.upperBound else { return nil }
            if id == 0x0404 { return iptcRecords(b, in: (sizeAt + 4)..<(sizeAt + 4 + size)) }
            at = sizeAt + 4 + size + (size & 1)
        }
        return nil
    }

    static func iptcRecords(_ b: ByteReader, in range: Range<Int>) -> PhotoDate? {
        var day: String?, time: String?
        var at = range.lowerBound
        while at + 5 <= range.upperBound, b.u8(at) == 0x1C, let record = b.u8(at + 1), let dataset = b.u8(at + 2), let size = b.u16be(at + 3) {
            // An extended size (its top bit set) is only for large data: not a date.
            guard size & 0x8000 == 0, at + 5 + size <= range.upperBound else { return nil }
            let value = String(decoding: b.bytes[(at + 5)..<(at + 5 + size)], as: UTF8.self)
            if record == 2, dataset == 55 { day = value }
            if record == 2, dataset == 60 { time = value }
            at += 5 + size
        }
        // Cut by bytes, not characters ("\r\n" is one character of two bytes); the parse
        // that follows refuses whatever is not digits where digits belong.
        guard let day = day.map({ Array($0.utf8) }), day.count == 8 else { return nil }
        func text(_ b: ArraySlice<UInt8>) -> String { String(decoding: b, as: UTF8.self) }
        var listed = "\(text(day[0..<4]))-\(text(day[4..<6]))-\(text(day[6..<8]))"
        if let time = time.map({ Array($0.utf8) }), time.count >= 6 {
            listed += "T\(text(time[0..<2])):\(text(time[2..<4])):\(text(time[4..<6]))" + text(time[6...])
        }
        return PhotoDate(listed: listed)
    }

    /// The XMP properties that say when a picture was taken, most telling first.
    static let xmpDateKeys = ["exif:DateTimeOriginal", "photoshop:DateCreated", "xmp:CreateDate"]

    /// The date an XMP packet gives (an attribute `key="…"` or an element `<key>…</key>`).
    static func xmp(_ packet: ArraySlice<UInt8>) -> PhotoDate? {
        for key in xmpDateKeys {
            for value in MetadataBytes.xmpValues(key, in: packet, limit: 64) {
                if let date = PhotoDate(listed: value.trimmingCharacters(in: .whitespaces)) { return date }
            }
        }
        return nil
    }

    /// A HEIF Exif item's date: after its 4-byte offset to the TIFF header.
    static func read(exifItem bytes: [UInt8]) -> PhotoDate? {
        let b = ByteReader(bytes)
        return LivePhotoIdentity.tiffStart(exifItem: b).flatMap { exif(b, tiff: $0, end: bytes.count) }
    }

    /// A clip's date from its `moov` atom's content: Apple's creation date (the wall time
    /// and its offset), else `mvhd`'s creation time (seconds since 1904, UTC; 0: none).
    static func read(moov bytes: [UInt8]) -> PhotoDate? {
        if let value = LivePhotoIdentity.quickTimeValue("com.apple.quicktime.creationdate", moov: bytes),
           let date = PhotoDate(listed: String(decoding: value, as: UTF8.self)) {
            return date
        }
        let b = ByteReader(bytes)
        guard let mvhd = ISOBMFFHeader.box("mvhd", in: b, from: 0, to: bytes.count), let version = b.u8(mvhd.start) else { return nil }
        let seconds: Int?
        if version == 1 {
            seconds = b.u32be(mvhd.start + 4).flatMap { hi in hi < 1 << 20 ? b.u32be(mvhd.start + 8).map { hi << 32 | $0 } : nil }
        } else {
            seconds = b.u32be(mvhd.start + 4)
        }
        // 1904-01-01 to 1970-01-01: 2,082,844,800 s.
        guard let seconds, seconds > 0, mvhd.end - mvhd.start >= 20 else { return nil }
        return utc(seconds - 2_082_844_800)
    }

    /// IFD0 → the Exif IFD (0x8769): DateTimeOriginal (0x9003) with OffsetTimeOriginal
    /// (0x9011), else DateTimeDigitized (0x9004) with OffsetTimeDigitized (0x9012); else
    /// IFD0's DateTime (0x0132) with OffsetTime (0x9010).
    static func exif(_ b: ByteReader, tiff: Int, end: Int) -> PhotoDate? {
        guard let walk = TIFFWalk(b, start: tiff, end: end) else { return nil }
        func ascii(_ tag: Int, in ifd: Int) -> String? {
            guard let entry = walk.entry(tag, inIFDAt: ifd), walk.u16(entry + 2) == 2,
                  let bytes = walk.bytes(ofEntry: entry, maxCount: 64) else { return nil }
            return String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
        }
        let ifd0 = walk.first
        if let exifIFD = walk.entry(0x8769, inIFDAt: ifd0).flatMap({ walk.value32($0) }).map({ tiff + $0 }) {
            for (dateTag, offsetTag) in [(0x9003, 0x9011), (0x9004, 0x9012)] {
                if let text = ascii(dateTag, in: exifIFD), let date = exifDate(text, offset: ascii(offsetTag, in: exifIFD)) { return date }
            }
        }
        return ascii(0x0132, in: ifd0).flatMap { exifDate($0, offset: nil) }
    }

    /// EXIF's `YYYY:MM:DD HH:MM:SS` (blank or zero when unknown: nil) and `+HH:MM`.
    static func exifDate(_ text: String, offset: String?) -> PhotoDate? {
        let digits = text.split(whereSeparator: { $0 == ":" || $0 == " " || $0 == "-" || $0 == "T" }).map { Int($0) }
        guard digits.count >= 3, digits.allSatisfy({ $0 != nil }) else { return nil }
        let n = digits.map { $0! } + [0, 0, 0]
        return PhotoDate(year: n[0], month: n[1], day: n[2], hour: n[3], minute: n[4], second: n[5], offsetMinutes: offset.flatMap(offsetMinutes))
    }

    /// `+02:00`, `-0500`, `Z`: minutes east of UTC.
    static func offsetMinutes(_ text: String) -> Int? {
        if text == "Z" { return 0 }
        guard let sign = text.first, sign == "+" || sign == "-" else { return nil }
        let digits = text.dropFirst().filter(\.isNumber)
        guard digits.count == 4, let value = Int(digits) else { return nil }
        let minutes = value / 100 * 60 + value % 100
        return sign == "-" ? -minutes : minutes
    }

    /// `seconds` since 1970 as a UTC wall time.
    static func utc(_ seconds: Int) -> PhotoDate? {
        guard seconds > 0 else { return nil }
        let days = seconds / 86_400, rest = seconds % 86_400
        // Civil from days (Howard Hinnant's algorithm).
        let z = days + 719_468, era = z / 146_097, doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100), mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1, month = mp < 10 ? mp + 3 : mp - 9
        let year = yoe + era * 400 + (month <= 2 ? 1 : 0)
        return PhotoDate(year: year, month: month, day: day, hour: rest / 3600, minute: rest % 3600 / 60, second: rest % 60, offsetMinutes: 0)
    }
}
