import CarouselCore
import CHeif

/// The only file of this module that calls libheif: HEIF pictures (iPhone HEIC, HEVC) and
/// AVIF (AV1), the primary image turned upright by its own irot/imir (libheif applies
/// them; EXIF is never applied a second time) and fitted as its rows are copied out. A
/// file's thumbnail is decoded instead when it covers the box: a phone's 12 MP photo
/// carries a 320×240 one, which covers a wall's tile. libheif cannot decode at a reduced
/// size: the primary image is decoded whole (12 MP: its YCbCr planes and the RGBA result,
/// about 66 MB) and then fitted.
public enum HEIFCodec {
    /// `bytes`' primary image (or a thumbnail that covers `box`), upright, fitted to `box`,
    /// with the colour its file gives. `check` refuses a size before anything is decoded.
    /// `thumbnailOnly`: the file's own thumbnail of the picture's shape, whatever its size
    /// (never larger than it is), or a failure: a wall's tile while its thumbnail is made.
    public static func decode(_ bytes: [UInt8], fittingIn box: Size, path: String, thumbnailOnly: Bool = false,
                              check: (Int, Int) throws(ImageError) -> Void) throws(ImageError) -> (PixelImage, EmbeddedColour) {
        // The upright size from the file's own boxes where libheif's is the stored one turned.
        let boxes = ISOBMFFHeader.read(ByteReader(bytes))
        return try withPrimary(bytes, path: path) { primary throws(ImageError) -> (PixelImage, EmbeddedColour) in
            let (w, h) = upright(Int(heif_image_handle_get_width(primary)), Int(heif_image_handle_get_height(primary)),
                                 boxes: boxes.flatMap { b in b.width.flatMap { w in b.height.map { (w, $0) } } })
            try check(w, h)
            var fitted = AspectFit.size(of: Size(width: Double(w), height: Double(h)), in: box)
            let thumbnail = thumbnailOnly ? coveringThumbnail(primary, width: 1, height: 1, aspect: Double(w) / Double(h))
                                          : coveringThumbnail(primary, width: Int(fitted.width), height: Int(fitted.height), aspect: Double(w) / Double(h))
            defer { if let thumbnail { heif_image_handle_release(thumbnail) } }
            if thumbnailOnly {
                guard let thumbnail else { throw ImageError(path: path, reason: "has no embedded thumbnail") }
                let tw = Double(heif_image_handle_get_width(thumbnail)), th = Double(heif_image_handle_get_height(thumbnail))
                fitted = AspectFit.size(of: Size(width: Double(w), height: Double(h)), in: Size(width: min(box.width, tw), height: min(box.height, th)))
            }
            let handle = thumbnail ?? primary
            let colour = colourOf(handle, fallback: primary)
            guard let options = heif_decoding_options_alloc() else { throw ImageError(path: path, reason: "HEIF decoder unavailable") }
            defer { heif_decoding_options_free(options) }
            // 8-bit RGBA whatever the picture's depth: libheif takes 10- and 12-bit HEIC and
            // AVIF down itself (its 16-bit output would double the largest buffer).
            var image: OpaquePointer? = nil
            try verify(heif_decode_image(handle, &image, heif_colorspace_RGB, heif_chroma_interleaved_RGBA, options), path)
            guard let image else { throw ImageError(path: path, reason: "is a corrupt HEIF (no image decoded)") }
            defer { heif_image_release(image) }
            let iw = Int(heif_image_get_width(image, heif_channel_interleaved))
            let ih = Int(heif_image_get_height(image, heif_channel_interleaved))
            var stride: Int32 = 0
            guard iw > 0, ih > 0, heif_image_get_bits_per_pixel(image, heif_channel_interleaved) == 32,
                  let plane = heif_image_get_plane_readonly(image, heif_channel_interleaved, &stride),
                  Int(stride) >= iw * 4 else {
                throw ImageError(path: path, reason: "is a corrupt HEIF (no pixels)")
            }
            // Fitted to the decoded picture's own shape: should its size still disagree with the
            // one asked, the pixels are right and the number wrong.
            var target = fitted
            if (iw > ih) != (fitted.width > fitted.height), iw != ih, abs(fitted.width - fitted.height) > 1 {
                target = AspectFit.size(of: Size(width: Double(iw), height: Double(ih)), in: box)
            }
            var scaler = RowScaler(sourceWidth: iw, sourceHeight: ih, width: Int(target.width), height: Int(target.height))
            for y in 0..<ih {
                scaler.add(row: UnsafeBufferPointer(start: plane + y * Int(stride), count: iw * 4))
            }
            var fittedImage = scaler.image(isOpaque: true)
            fittedImage.isOpaque = heif_image_handle_has_alpha_channel(handle) == 0 || PixelImage.allOpaque(fittedImage.pixels)
            return (fittedImage, colour)
        }
    }

    /// The primary image's upright size: libheif's, unless the file's boxes say the same two
    /// numbers the other way round. libheif 1.15 reports the stored size, not the turned one,
    /// when the primary item's `ipma` lists `irot` before `ispe` (a Sony ILCE-7M4 writes it
    /// so), yet hands back turned pixels; our own reading of the boxes applies `irot` in any
    /// order (`ISOBMFFHeader`).
    static func upright(_ width: Int, _ height: Int, boxes: (Int, Int)?) -> (Int, Int) {
        guard let (bw, bh) = boxes, bw == height, bh == width else { return (width, height) }
        return (bw, bh)
    }

    /// A thumbnail of `primary` at least `width` × `height`, of the same shape (within 1 %).
    private static func coveringThumbnail(_ primary: OpaquePointer, width: Int, height: Int, aspect: Double) -> OpaquePointer? {
        let n = Int(heif_image_handle_get_number_of_thumbnails(primary))
        guard n > 0 else { return nil }
        var ids = [heif_item_id](repeating: 0, count: min(n, 16))
        let got = Int(heif_image_handle_get_list_of_thumbnail_IDs(primary, &ids, Int32(ids.count)))
        for id in ids.prefix(got) {
            var thumb: OpaquePointer? = nil
            guard heif_image_handle_get_thumbnail(primary, id, &thumb).code == heif_error_Ok, let thumb else { continue }
            let tw = Int(heif_image_handle_get_width(thumb)), th = Int(heif_image_handle_get_height(thumb))
            if tw >= width, th >= height, th > 0, abs(Double(tw) / Double(th) / aspect - 1) < 0.01 { return thumb }
            heif_image_handle_release(thumb)
        }
        return nil
    }

    /// The colour `handle` (else the primary image it stands for) declares.
    private static func colourOf(_ handle: OpaquePointer, fallback primary: OpaquePointer) -> EmbeddedColour {
        for h in [handle, primary] {
            switch heif_image_handle_get_color_profile_type(h) {
            case heif_color_profile_type_prof, heif_color_profile_type_rICC:
                let size = heif_image_handle_get_raw_color_profile_size(h)
                guard size > 0, size <= ICCExtraction.maxBytes else {
                    return .unusable(reason: "its colour profile is empty or too large; shown as sRGB")
                }
                var bytes = [UInt8](repeating: 0, count: size)
                guard heif_image_handle_get_raw_color_profile(h, &bytes).code == heif_error_Ok else {
                    return .unusable(reason: "its colour profile cannot be read; shown as sRGB")
                }
                return .icc(bytes)
            case heif_color_profile_type_nclx:
                var nclx: UnsafeMutablePointer<heif_color_profile_nclx>? = nil
                guard heif_image_handle_get_nclx_color_profile(h, &nclx).code == heif_error_Ok, let nclx else { return .sRGB }
                defer { heif_nclx_color_profile_free(nclx) }
                return ColourDescription.h273(primaries: Int(nclx.pointee.color_primaries.rawValue),
                                              transfer: Int(nclx.pointee.transfer_characteristics.rawValue))
            default:
                continue
            }
        }
        return .sRGB
    }

    /// Reads `bytes` (kept alive throughout) and gives `body` the primary image's handle.
    private static func withPrimary<T>(_ bytes: [UInt8], path: String,
                                       _ body: (OpaquePointer) throws(ImageError) -> T) throws(ImageError) -> T {
        guard let ctx = heif_context_alloc() else { throw ImageError(path: path, reason: "HEIF decoder unavailable") }
        defer { heif_context_free(ctx) }
        // Whatever libheif would decode in threads (a grid's tiles), one helper decodes on
        // its own thread: several helpers already decode side by side.
        heif_context_set_max_decoding_threads(ctx, 0)
        return try bytes.withUnsafeBytes { raw in
            Result { () throws(ImageError) -> T in
                try verify(heif_context_read_from_memory_without_copy(ctx, raw.baseAddress, raw.count, nil), path)
                var primary: OpaquePointer? = nil
                try verify(heif_context_get_primary_image_handle(ctx, &primary), path)
                guard let primary else { throw ImageError(path: path, reason: "is a HEIF without a primary image") }
                defer { heif_image_handle_release(primary) }
                return try body(primary)
            }
        }.get()
    }

    private static func verify(_ error: heif_error, _ path: String) throws(ImageError) {
        guard error.code != heif_error_Ok else { return }
        // libheif's messages may end in a newline (libheif 1.15's "…supported brands.\n"):
        // the reason stays one line.
        let text = error.message.map { String(cString: $0).split(whereSeparator: \.isNewline).joined(separator: " ") }
            ?? "error \(error.code.rawValue)"
        switch error.code {
        case heif_error_Unsupported_filetype, heif_error_Unsupported_feature:
            throw ImageError(path: path, reason: "uses a HEIF feature that is not supported (\(text))")
        case heif_error_Memory_allocation_error:
            throw ImageError(path: path, reason: "cannot be decoded (out of memory: \(text))")
        case heif_error_Invalid_input where error.subcode == heif_suberror_End_of_data:
            throw ImageError(path: path, reason: "is truncated (the HEIF data ends early)")
        default:
            throw ImageError(path: path, reason: "is a corrupt HEIF (\(text))")
        }
    }
}
