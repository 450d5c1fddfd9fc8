import CarouselCore

/// EXIF orientation (tag 0x0112): how a camera's stored pixels must be turned to stand
/// upright. Cameras write the sensor's rows as they are and record the turn here.
public enum ExifOrientation: Int, Sendable, CaseIterable {
    case up = 1, mirrored = 2, upsideDown = 3, upsideDownMirrored = 4
    /// Mirrored across the main diagonal.
    case transposed = 5
    /// Displayed turned 90° clockwise.
    case rotatedClockwise = 6
    /// Mirrored across the other diagonal.
    case transversed = 7
    /// Displayed turned 90° counter-clockwise.
    case rotatedCounterClockwise = 8

    /// Whether showing upright swaps width and height.
    public var swapsAxes: Bool { rawValue >= 5 }

    /// The orientation that undoes this one.
    public var inverse: ExifOrientation {
        switch self {
        case .rotatedClockwise: .rotatedCounterClockwise
        case .rotatedCounterClockwise: .rotatedClockwise
        default: self
        }
    }

    /// The orientation recorded in a JPEG's Exif APP1 segment; `.up` when there is none
    /// or it cannot be read.
    public static func read(jpeg bytes: [UInt8]) -> ExifOrientation {
        let b = ByteReader(bytes)
        guard b.matches([0xFF, 0xD8], at: 0) else { return .up }
        // Exif lives in an APP1 segment before the first frame.
        return b.firstJPEGSegment { marker, at, length -> ExifOrientation? in
            if ByteReader.isJPEGFrame(marker) { return .up }
            guard marker == 0xE1, b.matches(Array("Exif\0\0".utf8), at: at + 4) else { return nil }
            return tiff(b, start: at + 10, end: at + 2 + length) ?? .up
        } ?? .up
    }

    /// The orientation recorded in a WebP's `EXIF` chunk (a TIFF structure, after an
    /// `Exif\0\0` some writers put first); `.up` when there is none or it cannot be read.
    public static func read(webp bytes: [UInt8]) -> ExifOrientation {
        let b = ByteReader(bytes)
        guard b.matches(Array("RIFF".utf8), at: 0), b.matches(Array("WEBP".utf8), at: 8) else { return .up }
        var at = 12
        for _ in 0..<64 {
            guard let size = b.u32le(at + 4) else { return .up }
            let start = at + 8, end = min(bytes.count, start + size)
            if b.matches(Array("EXIF".utf8), at: at) {
                let tiffStart = b.matches(Array("Exif\0\0".utf8), at: start) ? start + 6 : start
                return tiff(b, start: tiffStart, end: end) ?? .up
            }
            at = start + size + (size & 1)
            guard at + 8 <= bytes.count else { return .up }
        }
        return .up
    }

    /// The orientation recorded in a JPEG's or WebP's Exif; `.up` for any other format.
    public static func read(_ bytes: [UInt8], format: ImageHeader.Format) -> ExifOrientation {
        switch format {
        case .jpeg: read(jpeg: bytes)
        case .webp: read(webp: bytes)
        default: .up
        }
    }

    /// Looks up tag 0x0112 in IFD0 of the TIFF structure at `start`.
    private static func tiff(_ b: ByteReader, start: Int, end: Int) -> ExifOrientation? {
        guard let walk = TIFFWalk(b, start: start, end: end), let entry = walk.entry(0x0112, inIFDAt: walk.first) else { return nil }
        return walk.u16(entry + 8).flatMap(ExifOrientation.init(rawValue:))
    }
}

extension PixelImage {
    /// This image as it should be displayed when stored with `orientation`.
    public func oriented(_ orientation: ExifOrientation) -> PixelImage {
        if orientation == .up { return self }
        let sw = width, sh = height
        let (ow, oh) = orientation.swapsAxes ? (sh, sw) : (sw, sh)
        var out = [UInt8](repeating: 0, count: pixels.count)
        pixels.withUnsafeBytes { raw in
            out.withUnsafeMutableBytes { outRaw in
                let src = raw.bindMemory(to: UInt32.self)
                let dst = outRaw.bindMemory(to: UInt32.self)
                for y in 0..<oh {
                    for x in 0..<ow {
                        let (sx, sy): (Int, Int)
                        switch orientation {
                        case .up: (sx, sy) = (x, y)
                        case .mirrored: (sx, sy) = (sw - 1 - x, y)
                        case .upsideDown: (sx, sy) = (sw - 1 - x, sh - 1 - y)
                        case .upsideDownMirrored: (sx, sy) = (x, sh - 1 - y)
                        case .transposed: (sx, sy) = (y, x)
                        case .rotatedClockwise: (sx, sy) = (y, sh - 1 - x)
                        case .transversed: (sx, sy) = (sw - 1 - y, sh - 1 - x)
                        case .rotatedCounterClockwise: (sx, sy) = (sw - 1 - y, x)
                        }
                        dst[y * ow + x] = src[sy * sw + sx]
                    }
                }
            }
        }
        var turned = PixelImage(width: ow, height: oh, pixels: out, isOpaque: isOpaque)
        turned.note = note
        return turned
    }
}

extension ExifOrientation {
    /// Where a part of the upright picture (fractions 0–1 of it) lies in the stored one.
    public func storedPart(ofUpright r: Rect) -> Rect {
        let corners = [Point(x: r.minX, y: r.minY), Point(x: r.maxX, y: r.maxY)].map { p -> Point in
            let (u, v) = (p.x, p.y)
            switch self {
            case .up: return Point(x: u, y: v)
            case .mirrored: return Point(x: 1 - u, y: v)
            case .upsideDown: return Point(x: 1 - u, y: 1 - v)
            case .upsideDownMirrored: return Point(x: u, y: 1 - v)
            case .transposed: return Point(x: v, y: u)
            case .rotatedClockwise: return Point(x: v, y: 1 - u)
            case .transversed: return Point(x: 1 - v, y: 1 - u)
            case .rotatedCounterClockwise: return Point(x: 1 - v, y: u)
            }
        }
        let x0 = min(corners[0].x, corners[1].x), x1 = max(corners[0].x, corners[1].x)
        let y0 = min(corners[0].y, corners[1].y), y1 = max(corners[0].y, corners[1].y)
        return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }
}
