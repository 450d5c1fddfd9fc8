import CarouselCore

/// Where a picture or clip was taken, as its own file says: latitude and longitude in
/// degrees, north and east positive. Read from EXIF's GPS IFD (GPSLatitude, GPSLongitude
/// and their N/S, E/W references) in a JPEG's APP1, a PNG's `eXIf`, a WebP's `EXIF`, a
/// TIFF's own IFDs and a HEIF's or AVIF's Exif item; else from XMP's `exif:GPSLatitude`
/// (`41,24.5N`); else a PNG's EXIF kept as text by ImageMagick; from a clip's ISO 6709 string (`+38.7139-009.1394/`: an iPhone's
/// `com.apple.quicktime.location.ISO6709`, an Android phone's `©xyz`). Bytes from outside,
/// read like `PhotoDate`: every offset checked, reads bounded, fuzzed (`photo-location`).
public struct PhotoLocation: Sendable, Hashable {
    public var latitude: Double, longitude: Double

    /// Nil outside the globe, and at 0° 0°, which cameras without a fix write.
    public init?(latitude: Double, longitude: Double) {
        guard latitude.isFinite, longitude.isFinite, abs(latitude) <= 90, abs(longitude) <= 180,
              latitude != 0 || longitude != 0 else { return nil }
        (self.latitude, self.longitude) = (latitude, longitude)
    }

    /// The location in the file at `path`, or nil when it says none (or is no file).
    public static func read(path: String) -> PhotoLocation? {
        MetadataBytes.read(path: path).flatMap(read(metadata:))
    }

    static func read(metadata m: MetadataBytes) -> PhotoLocation? {
        read(head: m.head) ?? m.exifItem.flatMap(read(exifItem:)) ?? m.moov.flatMap(read(moov:))
    }

    private static let known = StampedMemo<PhotoLocation?>()

    /// Where a local `source` was taken, read once per stamp; nil for a web picture (its
    /// listing says its place as text) and for a file that says none.
    public static func of(_ source: ImageSource) -> PhotoLocation? {
        ImageSource.isRemote(source.path) ? nil : known.value(for: source.path, stamp: source.stamp) { read(path: source.path) }
    }

    // MARK: - Pure: the bytes in, the location out

    /// The location in a file's first bytes: EXIF's, else its XMP packet's.
    public static func read(head bytes: [UInt8]) -> PhotoLocation? {
        let b = ByteReader(bytes), blocks = MetadataBytes.Blocks(head: bytes)
        if let e = blocks.exif, let found = exif(b, tiff: e.tiff, end: e.end) { return found }
        if let x = blocks.xmp, let found = xmp(bytes[x]) { return found }
        return MetadataBytes.pngTextExif(bytes).flatMap { exif(ByteReader($0.bytes), tiff: $0.tiff, end: $0.bytes.count) }
    }

    /// A HEIF Exif item's location: after its 4-byte offset to the TIFF header.
    public static func read(exifItem bytes: [UInt8]) -> PhotoLocation? {
        let b = ByteReader(bytes)
        return LivePhotoIdentity.tiffStart(exifItem: b).flatMap { exif(b, tiff: $0, end: bytes.count) }
    }

    /// A clip's location from its `moov` atom's content: Apple's ISO 6709 key, else `©xyz`
    /// in `udta` (a 16-bit length and language, then the text).
    public static func read(moov bytes: [UInt8]) -> PhotoLocation? {
        if let value = LivePhotoIdentity.quickTimeValue("com.apple.quicktime.location.ISO6709", moov: bytes),
           let found = PhotoLocation(iso6709: String(decoding: value, as: UTF8.self)) {
            return found
        }
        let b = ByteReader(bytes)
        guard let udta = ISOBMFFHeader.box("udta", in: b, from: 0, to: bytes.count),
              let xyz = ISOBMFFHeader.box(named: [0xA9, 0x78, 0x79, 0x7A], in: b, from: udta.start, to: udta.end),
              let length = b.u16be(xyz.start), length <= 64, xyz.start + 4 + length <= xyz.end else { return nil }
        return PhotoLocation(iso6709: String(decoding: bytes[(xyz.start + 4)..<(xyz.start + 4 + length)], as: UTF8.self))
    }

    /// ISO 6709's decimal form: a signed latitude, a signed longitude, then an optional
    /// signed altitude and `/` (`+38.7139-009.1394+012.5/`).
    public init?(iso6709 text: String) {
        let b = Array(text.utf8.prefix(64))
        func number(from i: Int) -> (Double, Int)? {
            guard i < b.count, b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-") else { return nil }
            var j = i + 1
            while j < b.count, (b[j] >= 0x30 && b[j] <= 0x39) || b[j] == UInt8(ascii: ".") { j += 1 }
            guard j > i + 1, let value = Double(String(decoding: b[i..<j], as: UTF8.self)) else { return nil }
            return (value, j)
        }
        guard let (latitude, next) = number(from: 0), let (longitude, _) = number(from: next) else { return nil }
        self.init(latitude: latitude, longitude: longitude)
    }

    /// IFD0 → the GPS IFD (0x8825): GPSLatitudeRef (1), GPSLatitude (2), GPSLongitudeRef (3),
    /// GPSLongitude (4); each coordinate three RATIONALs, degrees, minutes and seconds.
    static func exif(_ b: ByteReader, tiff: Int, end: Int) -> PhotoLocation? {
        guard let walk = TIFFWalk(b, start: tiff, end: end),
              let gps = walk.entry(0x8825, inIFDAt: walk.first).flatMap({ walk.value32($0) }).map({ tiff + $0 }) else { return nil }
        /// A reference letter: ASCII, count 2 (the letter and NUL), held in the entry.
        func reference(_ tag: Int) -> UInt8? {
            guard let entry = walk.entry(tag, inIFDAt: gps), walk.u16(entry + 2) == 2, let count = walk.u32(entry + 4),
                  (1...4).contains(count) else { return nil }
            return b.u8(entry + 8)
        }
        func degrees(_ tag: Int) -> Double? {
            guard let entry = walk.entry(tag, inIFDAt: gps), walk.u16(entry + 2) == 5, walk.u32(entry + 4) == 3,
                  let at = walk.value32(entry).map({ tiff + $0 }) else { return nil }
            var parts: [Double] = []
            for k in 0..<3 {
                guard let n = walk.u32(at + 8 * k), let d = walk.u32(at + 8 * k + 4) else { return nil }
                // A part with no denominator is unknown: a coordinate without it is none.
                guard d != 0 else { return nil }
                parts.append(Double(n) / Double(d))
            }
            // 60 itself too: ExifTool writes 11.6° as 11° 35' 60".
            guard parts[1] <= 60, parts[2] <= 60 else { return nil }
            return parts[0] + parts[1] / 60 + parts[2] / 3600
        }
        guard let north = reference(1), let latitude = degrees(2), let east = reference(3), let longitude = degrees(4),
              north == UInt8(ascii: "N") || north == UInt8(ascii: "S"), east == UInt8(ascii: "E") || east == UInt8(ascii: "W") else { return nil }
        return PhotoLocation(latitude: north == UInt8(ascii: "S") ? -latitude : latitude,
                             longitude: east == UInt8(ascii: "W") ? -longitude : longitude)
    }

    /// XMP's `exif:GPSLatitude` and `exif:GPSLongitude`: `DDD,MM.mmk` or `DDD,MM,SSk`, k
    /// one of N, S, E, W (an attribute or an element, as `PhotoDate` reads XMP's dates).
    static func xmp(_ packet: ArraySlice<UInt8>) -> PhotoLocation? {
        func value(_ key: String) -> String? { MetadataBytes.xmpValues(key, in: packet, limit: 32).first }
        func coordinate(_ text: String?, positive: Character, negative: Character) -> Double? {
            guard let text, let letter = text.last, letter == positive || letter == negative else { return nil }
            let parts = text.dropLast().split(separator: ",").map { Double($0) }
            guard (2...3).contains(parts.count), parts.allSatisfy({ $0 != nil && $0! >= 0 }) else { return nil }
            let n = parts.map { $0! }
            guard n[1] <= 60, n.count == 2 || n[2] <= 60 else { return nil }
            let degrees = n[0] + n[1] / 60 + (n.count == 3 ? n[2] / 3600 : 0)
            return letter == negative ? -degrees : degrees
        }
        guard let latitude = coordinate(value("exif:GPSLatitude"), positive: "N", negative: "S"),
              let longitude = coordinate(value("exif:GPSLongitude"), positive: "E", negative: "W") else { return nil }
        return PhotoLocation(latitude: latitude, longitude: longitude)
    }
}
