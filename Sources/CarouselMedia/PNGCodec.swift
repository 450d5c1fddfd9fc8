import CarouselCore
import CSPNG
import Glibc

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
        try decodeWithColour(png, fittingIn: box, path: path).0
    }

    /// As `decode`, with the colour the file declares (cICP, iCCP, sRGB, gAMA and cHRM).
    /// With `deepColour`, a 16-bit picture with a colour of its own is converted by it row
    /// by row from its 16-bit samples, before fitting (8 bits would band the shadows of a
    /// linear or wide-gamut export); the colour returned is then nil: the pixels are in the
    /// screen's colours already.
    public static func decodeWithColour(_ png: [UInt8], fittingIn box: Size, path: String,
                                        deepColour: ColourConverter? = nil) throws(ImageError) -> (PixelImage, EmbeddedColour?) {
        let ctx = try context(path)
        defer { spng_ctx_free(ctx) }
        return try png.withUnsafeBytes { buf in
            Result { () throws(ImageError) -> (PixelImage, EmbeddedColour?) in
                try check(spng_set_png_buffer(ctx, buf.baseAddress, buf.count), path)
                return try decode(ctx, box: box, path: path, deepColour: deepColour)
            }
        }.get()
    }

    /// The colour a PNG's chunks before its pixels declare (an APNG's frames are all in it),
    /// without decoding a pixel.
    public static func declaredColour(_ png: [UInt8], path: String) -> EmbeddedColour {
        guard let ctx = try? context(path) else { return .sRGB }
        defer { spng_ctx_free(ctx) }
        return png.withUnsafeBytes { buf -> EmbeddedColour in
            guard spng_set_png_buffer(ctx, buf.baseAddress, buf.count) == 0, spng_decode_chunks(ctx) == 0 else { return .sRGB }
            return colour(ctx)
        }
    }

    /// The PNG in the open file `fd`, read as it decodes: neither the file nor the picture
    /// is ever whole in memory (a 5120×2880 photo PNG is 20 to 30 MB of file). `deepColour`
    /// as for `decodeWithColour`.
    public static func decode(file fd: Int32, fittingIn box: Size, path: String,
                              deepColour: ColourConverter? = nil) throws(ImageError) -> (PixelImage, EmbeddedColour?) {
        let ctx = try context(path)
        defer { spng_ctx_free(ctx) }
        let reader = FileReader(fd)
        let stream = spng_set_png_stream(ctx, { _, user, destination, length in
            FileReader.read(user, destination, length)
        }, Unmanaged.passUnretained(reader).toOpaque())
        try check(stream, path)
        return try withExtendedLifetime(reader) { () throws(ImageError) -> (PixelImage, EmbeddedColour?) in
            try decode(ctx, box: box, path: path, deepColour: deepColour)
        }
    }

    /// A whole small PNG (an APNG frame made of its own chunks) in RGBA, at its size; its
    /// chunks' checksums are not checked (the frame's were rewritten: zlib's own still is).
    static func decodeFrame(_ png: [UInt8], path: String) throws(ImageError) -> PixelImage {
        let ctx = try context(path)
        defer { spng_ctx_free(ctx) }
        spng_set_crc_action(ctx, Int32(SPNG_CRC_USE.rawValue), Int32(SPNG_CRC_USE.rawValue))
        return try png.withUnsafeBufferPointer { buf in
            Result { () throws(ImageError) -> PixelImage in
                try check(spng_set_png_buffer(ctx, buf.baseAddress, buf.count), path)
                var ihdr = spng_ihdr()
                try check(spng_get_ihdr(ctx, &ihdr), path)
                let w = Int(ihdr.width), h = Int(ihdr.height)
                var pixels = [UInt8](repeating: 0, count: w * h * 4)
                let format = Int32(SPNG_FMT_RGBA8.rawValue), trns = Int32(SPNG_DECODE_TRNS.rawValue)
                try check(pixels.withUnsafeMutableBytes { spng_decode_image(ctx, $0.baseAddress, $0.count, format, trns) }, path)
                return PixelImage(width: w, height: h, pixels: pixels)
            }
        }.get()
    }

    private static func context(_ path: String) throws(ImageError) -> OpaquePointer {
        guard let ctx = spng_ctx_new(0) else { throw ImageError(path: path, reason: "PNG decoder unavailable") }
        // A damaged ancillary chunk (text, metadata) is skipped; damaged pixels are an error.
        spng_set_crc_action(ctx, Int32(SPNG_CRC_ERROR.rawValue), Int32(SPNG_CRC_DISCARD.rawValue))
        spng_set_chunk_limits(ctx, chunkLimit, chunkLimit)
        // Kept so that a cICP chunk (which libspng 0.7 does not know) can be read; they
        // count towards the same limit as every other ancillary chunk.
        spng_set_option(ctx, SPNG_KEEP_UNKNOWN_CHUNKS, 1)
        return ctx
    }

    /// Reads a file from its start for libspng, whatever the descriptor's offset.
    private final class FileReader {
        let fd: Int32
        var offset: off_t = 0
        init(_ fd: Int32) { self.fd = fd }

        static func read(_ user: UnsafeMutableRawPointer?, _ destination: UnsafeMutableRawPointer?, _ length: Int) -> Int32 {
            guard let user, let destination else { return Int32(SPNG_IO_ERROR.rawValue) }
            let reader = Unmanaged<FileReader>.fromOpaque(user).takeUnretainedValue()
            var done = 0
            while done < length {
                let n = pread(reader.fd, destination + done, length - done, reader.offset)
                if n < 0 && errno == EINTR { continue }
                if n < 0 { return Int32(SPNG_IO_ERROR.rawValue) }
                if n == 0 { return Int32(SPNG_IO_EOF.rawValue) }
                done += n
                reader.offset += off_t(n)
            }
            return 0
        }
    }

    private static func decode(_ ctx: OpaquePointer, box: Size, path: String,
                               deepColour: ColourConverter?) throws(ImageError) -> (PixelImage, EmbeddedColour?) {
        var ihdr = spng_ihdr()
        try check(spng_get_ihdr(ctx, &ihdr), path)
        let w = Int(ihdr.width), h = Int(ihdr.height)
        guard w > 0, h > 0 else { throw ImageError(path: path, reason: "has no pixels") }
        let fitted = AspectFit.size(of: Size(width: Double(w), height: Double(h)), in: box)
        // The chunks before the pixels are read by asking for them.
        let declared = colour(ctx)
        let deep = ihdr.bit_depth == 16 ? deepColour?.conversion(from: declared, sixteenBit: true) : nil
        let bytesPerSample = deep == nil ? 1 : 2
        let format = Int32(deep == nil ? SPNG_FMT_RGBA8.rawValue : SPNG_FMT_RGBA16.rawValue), trns = Int32(SPNG_DECODE_TRNS.rawValue)
        if ihdr.interlace_method != UInt8(SPNG_INTERLACE_NONE.rawValue) {
            var size = 0
            try check(spng_decoded_image_size(ctx, format, &size), path)
            var full = [UInt8](repeating: 0, count: size)
            try check(full.withUnsafeMutableBytes { spng_decode_image(ctx, $0.baseAddress, $0.count, format, trns) }, path)
            if let deep {
                var narrow = [UInt8](repeating: 0, count: w * h * 4)
                full.withUnsafeBytes { d in narrow.withUnsafeMutableBytes { deep.apply(sixteenBit: d.baseAddress!, to: $0.baseAddress!, count: w * h) } }
                full = narrow
            }
            let image = PixelImage(width: w, height: h, pixels: full, isOpaque: PixelImage.allOpaque(full))
            return (ImageScaler.resize(image, width: Int(fitted.width), height: Int(fitted.height)), deep == nil ? declared : nil)
        }
        try check(spng_decode_image(ctx, nil, 0, format, trns | Int32(SPNG_DECODE_PROGRESSIVE.rawValue)), path)
        var scaler = RowScaler(sourceWidth: w, sourceHeight: h, width: Int(fitted.width), height: Int(fitted.height))
        var decoded = [UInt8](repeating: 0, count: w * 4 * bytesPerSample)
        var row = deep == nil ? [] : [UInt8](repeating: 0, count: w * 4)
        var opaque = true
        while !scaler.isComplete {
            let rc = decoded.withUnsafeMutableBytes { spng_decode_row(ctx, $0.baseAddress, $0.count) }
            guard rc == 0 || rc == Int32(SPNG_EOI.rawValue) else { try check(rc, path); break }
            if let deep {
                decoded.withUnsafeBytes { d in row.withUnsafeMutableBytes { deep.apply(sixteenBit: d.baseAddress!, to: $0.baseAddress!, count: w) } }
            }
            let ready = deep == nil ? decoded : row  // not copied: neither changes while it lives
            if opaque { opaque = PixelImage.allOpaque(ready) }
            ready.withUnsafeBufferPointer { scaler.add(row: $0) }
            if rc == Int32(SPNG_EOI.rawValue) { break }
        }
        guard scaler.isComplete else { throw ImageError(path: path, reason: "is truncated (the PNG data ends early)") }
        return (scaler.image(isOpaque: opaque), deep == nil ? declared : nil)
    }

    /// The colour the chunks before the pixels declare, in the order the PNG specification
    /// (third edition) gives: cICP's code points, else an iCCP profile, else sRGB if an
    /// sRGB chunk says so, else gAMA (with cHRM when there).
    private static func colour(_ ctx: OpaquePointer) -> EmbeddedColour {
        if let cicp = codePoints(ctx) { return cicp }
        var iccp = spng_iccp()
        if spng_get_iccp(ctx, &iccp) == 0 {
            guard let profile = iccp.profile, iccp.profile_len > 0, iccp.profile_len <= ICCExtraction.maxBytes else {
                return .unusable(reason: "its iCCP profile is empty or too large; shown as sRGB")
            }
            return .icc([UInt8](UnsafeRawBufferPointer(start: profile, count: iccp.profile_len)))
        }
        var intent: UInt8 = 0
        if spng_get_srgb(ctx, &intent) == 0 { return .sRGB }
        var gamma: UInt32 = 0
        guard spng_get_gama_int(ctx, &gamma) == 0 else { return .sRGB }
        var c = spng_chrm_int()
        let chrm = spng_get_chrm_int(ctx, &c) == 0
            ? [c.white_point_x, c.white_point_y, c.red_x, c.red_y, c.green_x, c.green_y, c.blue_x, c.blue_y].map { Double($0) / 100_000 }
            : nil
        return ColourDescription.png(gamma: Int(gamma), chromaticities: chrm)
    }

    /// A cICP chunk before the pixels (kept by libspng as an unknown chunk): colour
    /// primaries, transfer characteristics, matrix coefficients (0 for RGB, the only value
    /// PNG allows) and a full-range flag, one byte each, as ITU-T H.273 numbers them.
    private static func codePoints(_ ctx: OpaquePointer) -> EmbeddedColour? {
        var count: UInt32 = 0
        guard spng_get_unknown_chunks(ctx, nil, &count) == 0, count > 0 else { return nil }
        var chunks = [spng_unknown_chunk](repeating: spng_unknown_chunk(), count: Int(count))
        guard spng_get_unknown_chunks(ctx, &chunks, &count) == 0 else { return nil }
        let cicp: [UInt8] = Array("cICP".utf8)
        for chunk in chunks.prefix(Int(count)) {
            let type = withUnsafeBytes(of: chunk.type) { Array($0) }
            guard type == cicp, chunk.location != SPNG_AFTER_IDAT else { continue }
            guard chunk.length == 4, let data = chunk.data else {
                return .unusable(reason: "its cICP chunk is \(chunk.length) bytes, not 4; shown as sRGB")
            }
            let b = UnsafeRawBufferPointer(start: data, count: 4)
            guard b[2] == 0 else {
                return .unusable(reason: "its cICP chunk gives matrix coefficients \(b[2]), which PNG does not allow; shown as sRGB")
            }
            // Narrow-range (video) levels are not stretched: such PNGs are not seen outside video tools.
            return ColourDescription.h273(primaries: Int(b[0]), transfer: Int(b[1]))
        }
        return nil
    }

    /// How hard the encoder works for a small file.
    public enum Effort: Sendable {
        /// libspng's defaults: every row filter, zlib level 6. The smallest file.
        case smallest
        /// For thumbnails, written once and read often, on the cores that draw: rows
        /// filtered by Sub or Up only (Paeth rows, photos' usual choice, are the slow ones
        /// to undo) and zlib level 4. Measured on 512 px thumbnails, against `smallest`:
        /// decoding 1.2–2.2 → 0.7–1.3 ms (demo photos) and 4.7 → 2.7 ms (synthetic),
        /// encoding 14 → 5 ms and 46 → 15 ms, files 4–7 % larger.
        case quick
    }

    /// `image` as an RGBA PNG, written to `path` (snapshots, generated pictures): libspng's
    /// encoder, so that the main process needs no SDL_image at all.
    public static func write(_ image: PixelImage, to path: String) throws(ImageError) {
        try write(try encode(image, path: path), to: path)
    }

    /// `image` as the bytes of an RGBA PNG; `path` names it in errors.
    public static func encode(_ image: PixelImage, path: String, effort: Effort = .smallest) throws(ImageError) -> [UInt8] {
        guard let ctx = spng_ctx_new(Int32(SPNG_CTX_ENCODER.rawValue)) else {
            throw ImageError(path: path, reason: "PNG encoder unavailable")
        }
        defer { spng_ctx_free(ctx) }
        spng_set_option(ctx, SPNG_ENCODE_TO_BUFFER, 1)
        if effort == .quick {
            spng_set_option(ctx, SPNG_FILTER_CHOICE, Int32(SPNG_FILTER_CHOICE_SUB.rawValue | SPNG_FILTER_CHOICE_UP.rawValue))
            spng_set_option(ctx, SPNG_IMG_COMPRESSION_LEVEL, 4)
        }
        var ihdr = spng_ihdr(width: UInt32(image.width), height: UInt32(image.height), bit_depth: 8,
                             color_type: UInt8(SPNG_COLOR_TYPE_TRUECOLOR_ALPHA.rawValue),
                             compression_method: 0, filter_method: 0, interlace_method: 0)
        spng_set_ihdr(ctx, &ihdr)
        let rc = image.pixels.withUnsafeBytes {
            spng_encode_image(ctx, $0.baseAddress, $0.count, Int32(SPNG_FMT_PNG.rawValue), Int32(SPNG_ENCODE_FINALIZE.rawValue))
        }
        guard rc == 0 else {
            throw ImageError(path: path, reason: "cannot be encoded (\(String(cString: spng_strerror(rc))))")
        }
        var length = 0, error: Int32 = 0
        guard let buffer = spng_get_png_buffer(ctx, &length, &error) else {
            throw ImageError(path: path, reason: "cannot be encoded (\(String(cString: spng_strerror(error))))")
        }
        defer { free(buffer) }
        return [UInt8](UnsafeRawBufferPointer(start: buffer, count: length))
    }

    /// Writes `bytes` to `path` (created with mode `mode`, replaced if there).
    public static func write(_ bytes: [UInt8], to path: String, mode: mode_t = 0o644) throws(ImageError) {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode)
        guard fd >= 0 else { throw ImageError(path: path, reason: "cannot be written (\(String(cString: strerror(errno))))") }
        defer { close(fd) }
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + done, bytes.count - done) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { throw ImageError(path: path, reason: "cannot be written (\(String(cString: strerror(errno))))") }
            done += n
        }
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
