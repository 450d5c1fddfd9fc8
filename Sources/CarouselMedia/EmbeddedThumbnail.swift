import CarouselCore

/// The small picture a camera or phone keeps inside its own file: in a JPEG, EXIF's second
/// IFD (IFD1) points at a JPEG of about 160x120 in the same APP1 segment. A few kilobytes,
/// decoded far sooner than the picture it stands for: what a wall's tile shows while its
/// own thumbnail is made (issue 63). Read from the file's head only, in the decoder helper
/// (the bytes are hostile: every offset is checked against the segment it must lie in; fuzzed).
public enum EmbeddedThumbnail {
    /// How much of a file's head is read: EXIF's APP1 is at most 64 KB, after at most a few
    /// small segments (JFIF's APP0, an ICC profile comes later in cameras' files).
    public static let headBytes = 128 * 1024
    /// The smallest and largest embedded JPEG taken: under 100 bytes it is no picture, and
    /// EXIF's own segment bounds it at 64 KB.
    static let sizes = 100...65_535

    /// Where the embedded JPEG lies in `bytes` (a JPEG file's head) and the orientation the
    /// picture and it are stored with (IFD0's: the thumbnail is turned as the picture is);
    /// nil when the file has none or says it wrongly.
    public static func locate(jpeg bytes: [UInt8]) -> (range: Range<Int>, orientation: ExifOrientation)? {
        let b = ByteReader(bytes)
        guard b.matches([0xFF, 0xD8], at: 0) else { return nil }
        return b.firstJPEGSegment { marker, at, length -> (Range<Int>, ExifOrientation)?? in
            if ByteReader.isJPEGFrame(marker) { return .some(nil) }
            guard marker == 0xE1, b.matches(Array("Exif\0\0".utf8), at: at + 4) else { return nil }
            return .some(inTIFF(b, start: at + 10, end: min(bytes.count, at + 2 + length)))
        } ?? nil
    }

    /// IFD1's JPEG in the TIFF structure from `start` to `end`.
    static func inTIFF(_ b: ByteReader, start: Int, end: Int) -> (Range<Int>, ExifOrientation)? {
        guard let walk = TIFFWalk(b, start: start, end: end) else { return nil }
        let ifd0 = walk.first
        guard let count = walk.u16(ifd0), let next = walk.u32(ifd0 + 2 + 12 * count), next > 0 else { return nil }
        let ifd1 = start + next
        guard ifd1 != ifd0, let offsetEntry = walk.entry(0x0201, inIFDAt: ifd1), let lengthEntry = walk.entry(0x0202, inIFDAt: ifd1),
              let offset = walk.value32(offsetEntry), let length = walk.value32(lengthEntry), sizes.contains(length) else { return nil }
        // Compression, where said, is JPEG (6); an uncompressed (1) thumbnail is not taken.
        if let compression = walk.entry(0x0103, inIFDAt: ifd1), walk.u16(compression + 8) != 6 { return nil }
        let from = start + offset
        guard from > start, from + length <= end, b.matches([0xFF, 0xD8], at: from) else { return nil }
        let orientation = walk.entry(0x0112, inIFDAt: ifd0).flatMap { walk.u16($0 + 8) }.flatMap(ExifOrientation.init(rawValue:)) ?? .up
        return (from..<(from + length), orientation)
    }
}

extension EmbeddedThumbnail {
    /// The embedded thumbnail of the JPEG whose head is `head`, decoded by `decoder`, upright
    /// and fitted to `box`. Cameras pad a 3:2 picture's 160x120 thumbnail with black bars:
    /// the thumbnail is cut to the picture's own shape (its frame header, in the head too)
    /// when the two differ, so a tile's preview has the tile's shape. Its full size is the
    /// picture's, not the thumbnail's.
    public static func decode(head: [UInt8], name: String, fittingIn box: Size, with decoder: FittingDecoder) throws(ImageError) -> PixelImage {
        guard let found = locate(jpeg: head) else { throw ImageError(path: name, reason: "has no embedded thumbnail") }
        return try decode(found, in: head, name: name, fittingIn: box, with: decoder)
    }

    /// The embedded thumbnail of the picture in the open file `file` (`name` names it): a
    /// JPEG's from its head, a HEIF's or AVIF's `thmb` item through libheif (the file read
    /// whole, as for its decode). Any other format, or a file without one, fails.
    public static func decode(file: Int32, name: String, fittingIn box: Size, with decoder: FittingDecoder) throws(ImageError) -> PixelImage {
        let head = try ImageFile.readHead(file, count: headBytes, name: name)
        switch ImageHeader.read(head).format {
        case .jpeg: return try decode(head: head, name: name, fittingIn: box, with: decoder)
        case .heif, .avif:
            var thumbnails = decoder
            thumbnails.thumbnailOnly = true
            var image = try thumbnails.decode(try ImageFile.read(file, name: name), name: name, fittingIn: box)
            image.motion = nil
            return image
        default: throw ImageError(path: name, reason: "has no embedded thumbnail")
        }
    }

    private static func decode(_ found: (range: Range<Int>, orientation: ExifOrientation), in head: [UInt8], name: String,
                               fittingIn box: Size, with decoder: FittingDecoder) throws(ImageError) -> PixelImage {
        let turned = found.orientation.swapsAxes, bytes = Array(head[found.range])
        // Never made larger than it is: the tile scales it when drawn.
        let own = ImageHeader.read(bytes)
        var fit = turned ? Size(width: box.height, height: box.width) : box
        if let w = own.width, let h = own.height, w > 0, h > 0 {
            fit = Size(width: min(fit.width, Double(w)), height: min(fit.height, Double(h)))
        }
        var stored = try decoder.decode(bytes, name: name, fittingIn: fit)
        stored.fullSize = nil
        let header = ImageHeader.read(head)
        if let w = header.width, let h = header.height, w > 0, h > 0, stored.width > 0, stored.height > 0 {
            let picture = Double(w) / Double(h), thumbnail = Double(stored.width) / Double(stored.height)
            if abs(picture / thumbnail - 1) > 0.02 {
                let part = picture > thumbnail ? Rect(x: 0, y: (1 - thumbnail / picture) / 2, width: 1, height: thumbnail / picture)
                                               : Rect(x: (1 - picture / thumbnail) / 2, y: 0, width: picture / thumbnail, height: 1)
                stored = FittingDecoder.cut(part, of: stored, fittingIn: Size(width: Double(stored.width), height: Double(stored.height)))
            }
            stored.fullSize = Size(width: Double(w), height: Double(h))
        }
        var upright = stored.oriented(found.orientation)
        upright.fullSize = stored.fullSize.map { turned ? Size(width: $0.height, height: $0.width) : $0 }
        return upright
    }
}
