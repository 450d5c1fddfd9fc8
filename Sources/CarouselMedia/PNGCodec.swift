import CarouselCore
import CSPNG

/// The only file of this module that calls libspng: PNG decoding straight to the fitted
/// size. Rows are decoded one at a time and shrunk as they arrive (`RowScaler`), so a
/// 5120×2880 PNG never needs its 59 MB full-size buffer; only interlaced PNGs, whose rows
/// come in seven passes, are decoded whole first. libspng reports errors as codes (libpng's
/// longjmp must never cross Swift frames).
public enum PNGCodec {
    /// Largest chunk accepted, and all ancillary chunks together, in bytes: text and
    /// metadata beyond this are a sign of a hostile file, not of a photo.
    static let chunkLimit = 8 << 20

    /// `png` decoded upright into RGBA and aspect-fitted to `box`; `path` names it in errors.
    public static func decode(_ png: [UInt8], fittingIn box: Size, path: String) throws(ImageError) -> PixelImage {
        guard let ctx = spng_ctx_new(0) else { throw ImageError(path: path, reason: "PNG decoder unavailable") }
        defer { spng_ctx_free(ctx) }
        // A damaged ancillary chunk (text, metadata) is skipped; damaged pixels are an error.
        spng_set_crc_action(ctx, Int32(SPNG_CRC_ERROR.rawValue), Int32(SPNG_CRC_DISCARD.rawValue))
        spng_set_chunk_limits(ctx, chunkLimit, chunkLimit)
        return try png.withUnsafeBytes { buf in
            Result { () throws(ImageError) -> PixelImage in try decode(ctx, buf, box: box, path: path) }
        }.get()
    }

    private static func decode(_ ctx: OpaquePointer, _ buf: UnsafeRawBufferPointer, box: Size,
                               path: String) throws(ImageError) -> PixelImage {
        try check(spng_set_png_buffer(ctx, buf.baseAddress, buf.count), path)
        var ihdr = spng_ihdr()
        try check(spng_get_ihdr(ctx, &ihdr), path)
        let w = Int(ihdr.width), h = Int(ihdr.height)
        guard w > 0, h > 0 else { throw ImageError(path: path, reason: "has no pixels") }
        let fitted = AspectFit.size(of: Size(width: Double(w), height: Double(h)), in: box)
        let format = Int32(SPNG_FMT_RGBA8.rawValue), trns = Int32(SPNG_DECODE_TRNS.rawValue)
        if ihdr.interlace_method != UInt8(SPNG_INTERLACE_NONE.rawValue) {
            var size = 0
            try check(spng_decoded_image_size(ctx, format, &size), path)
            var full = [UInt8](repeating: 0, count: size)
            try check(full.withUnsafeMutableBytes { spng_decode_image(ctx, $0.baseAddress, $0.count, format, trns) }, path)
            let image = PixelImage(width: w, height: h, pixels: full, isOpaque: PixelImage.allOpaque(full))
            return ImageScaler.resize(image, width: Int(fitted.width), height: Int(fitted.height))
        }
        try check(spng_decode_image(ctx, nil, 0, format, trns | Int32(SPNG_DECODE_PROGRESSIVE.rawValue)), path)
        var scaler = RowScaler(sourceWidth: w, sourceHeight: h, width: Int(fitted.width), height: Int(fitted.height))
        var row = [UInt8](repeating: 0, count: w * 4)
        var opaque = true
        while !scaler.isComplete {
            let rc = row.withUnsafeMutableBytes { spng_decode_row(ctx, $0.baseAddress, $0.count) }
            guard rc == 0 || rc == Int32(SPNG_EOI.rawValue) else { try check(rc, path); break }
            if opaque { opaque = PixelImage.allOpaque(row) }
            row.withUnsafeBufferPointer { scaler.add(row: $0) }
            if rc == Int32(SPNG_EOI.rawValue) { break }
        }
        guard scaler.isComplete else { throw ImageError(path: path, reason: "is truncated (the PNG data ends early)") }
        return scaler.image(isOpaque: opaque)
    }

    private static func check(_ rc: Int32, _ path: String) throws(ImageError) {
        guard rc != 0 else { return }
        let text = String(cString: spng_strerror(rc))
        let endsEarly = [SPNG_IO_EOF, SPNG_EOF, SPNG_EIDAT_TOO_SHORT].map { Int32($0.rawValue) }
        if endsEarly.contains(rc) {
            throw ImageError(path: path, reason: "is truncated (the PNG data ends early: \(text))")
        }
        throw ImageError(path: path, reason: "is a corrupt PNG (\(text))")
    }
}
