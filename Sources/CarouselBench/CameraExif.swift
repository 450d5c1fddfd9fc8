import CarouselCore

/// What a camera writes before a photo's pixels: an EXIF APP1 segment whose IFD0 holds the
/// orientation and whose IFD1 holds a 160x120 JPEG thumbnail, padded with black bars above
/// and below when the photo is wider than 4:3 (as Canon's and Nikon's are). `carousel
/// bench`'s synthetic photos carry it, as every camera's and phone's JPEG does: the wall
/// shows it in a tile while the tile's own thumbnail is made (`EmbeddedThumbnail`).
/// ExifTool reads the thumbnail back byte for byte (`CameraExifTests`).
public enum CameraExif {
    /// The thumbnail's size, EXIF's customary one.
    public static let thumbnailSize = (width: 160, height: 120)

    /// The thumbnail of `picture` (drawn at its shape inside 160x120, black around it).
    public static func thumbnail(of picture: (Int, Int) -> PixelImage, aspect: Double) -> PixelImage {
        let (w, h) = thumbnailSize
        let inner = aspect >= Double(w) / Double(h) ? (w, max(1, Int((Double(w) / aspect).rounded())))
                                                     : (max(1, Int((Double(h) * aspect).rounded())), h)
        let drawn = picture(inner.0, inner.1)
        var pixels = [UInt8](repeating: 0, count: w * h * 4)
        for i in stride(from: 3, to: pixels.count, by: 4) { pixels[i] = 255 }
        let x0 = (w - inner.0) / 2, y0 = (h - inner.1) / 2
        for y in 0..<inner.1 {
            let from = y * inner.0 * 4, to = ((y0 + y) * w + x0) * 4
            pixels.replaceSubrange(to ..< to + inner.0 * 4, with: drawn.pixels[from ..< from + inner.0 * 4])
        }
        return PixelImage(width: w, height: h, pixels: pixels, isOpaque: true)
    }

    /// `jpeg` with an APP1 segment after its SOI holding `thumbnail` (a JPEG) and `orientation`.
    public static func inserting(thumbnail: [UInt8], orientation: Int = 1, into jpeg: [UInt8]) -> [UInt8] {
        var tiff: [UInt8] = Array("II".utf8) + le16(42) + le32(8)
        // IFD0: Orientation; then the offset of IFD1.
        let ifd0Entries = 1, ifd0Size = 2 + 12 * ifd0Entries + 4
        let ifd1At = 8 + ifd0Size
        tiff += le16(ifd0Entries) + entry(0x0112, type: 3, value: orientation) + le32(ifd1At)
        // IFD1: Compression (JPEG), the thumbnail's offset and length; no IFD after it.
        let ifd1Entries = 3, ifd1Size = 2 + 12 * ifd1Entries + 4
        let thumbnailAt = ifd1At + ifd1Size
        tiff += le16(ifd1Entries) + entry(0x0103, type: 3, value: 6) + entry(0x0201, type: 4, value: thumbnailAt)
            + entry(0x0202, type: 4, value: thumbnail.count) + le32(0)
        tiff += thumbnail
        let body = Array("Exif\0\0".utf8) + tiff
        let segment: [UInt8] = [0xFF, 0xE1] + be16(body.count + 2) + body
        return Array(jpeg.prefix(2)) + segment + Array(jpeg.dropFirst(2))
    }

    private static func entry(_ tag: Int, type: Int, value: Int) -> [UInt8] {
        le16(tag) + le16(type) + le32(1) + (type == 3 ? le16(value) + [0, 0] : le32(value))
    }
    private static func le16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8((v >> 8) & 0xFF)] }
    private static func le32(_ v: Int) -> [UInt8] { le16(v & 0xFFFF) + le16((v >> 16) & 0xFFFF) }
    private static func be16(_ v: Int) -> [UInt8] { [UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)] }
}
