import CarouselCore
import CJPEG

/// The only file of this module that calls libjpeg: every JPEG libjpeg-turbo can read
/// (baseline, progressive, arithmetic-coded, any chroma subsampling, grey, CMYK and YCCK),
/// shrunk by a DCT scale while decoding and fitted row by row as the rows arrive
/// (`RowScaler`), so neither the full-size nor the DCT-scaled picture is ever whole in
/// memory. Errors come back as codes through the C shim (libjpeg's longjmp never crosses
/// Swift frames).
public enum JPEGCodec {
    /// Progressive scans accepted: cameras and editors write about ten; a hostile file
    /// makes thousands of tiny ones to keep a decoder busy (TurboJPEG's own limit).
    static let maxScans: Int32 = 500
    /// Rows handed from decoding to fitting at a time: fewer hand-overs (each may wake the
    /// fitting thread) against a ring that stays in the cache.
    static let batchRows = 32

    /// What a decode gives before colour management: RGBA fitted to the target size in the
    /// file's stored axes, or CMYK (four channels in the same layout) for CMYK and YCCK
    /// files, which `ColourConverter` turns into RGB.
    public struct Decoded {
        public var image: PixelImage
        /// The four channels are C, M, Y, K, not R, G, B, A.
        public var isCMYK: Bool
        /// CMYK stored inverted, as Adobe's applications write it (an Adobe marker).
        public var isInverted: Bool
        /// `finishRows` has had every row (an RGB picture given one).
        public var rowsFinished: Bool
        /// A file that ends early, decoded in part: what to say of it; nil: it was whole.
        public var truncation: String? = nil
    }

    /// The size of `jpeg`'s frame, or why it cannot be read.
    public static func size(_ jpeg: UnsafeRawBufferPointer, path: String) throws(ImageError) -> (width: Int, height: Int) {
        let f = try frame(jpeg, path: path)
        return (f.width, f.height)
    }

    /// The size of `jpeg`'s frame and whether its pixels are CMYK (or YCCK), or why it
    /// cannot be read.
    public static func frame(_ jpeg: UnsafeRawBufferPointer, path: String) throws(ImageError) -> (width: Int, height: Int, isCMYK: Bool) {
        try withDecoder(jpeg, path: path) { j throws(ImageError) in
            let space = j.pointee.d.jpeg_color_space
            return (Int(j.pointee.d.image_width), Int(j.pointee.d.image_height), space == JCS_CMYK || space == JCS_YCCK)
        }
    }

    /// The bytes of `jpeg` before its first scan: its markers (EXIF, ICC, the frame), what
    /// `ExifOrientation` and `ICCExtraction` read, without copying the compressed picture.
    public static func markers(_ jpeg: UnsafeRawBufferPointer) -> [UInt8] {
        var at = 2
        let limit = min(jpeg.count, ICCExtraction.maxBytes + (1 << 20))
        while at + 4 <= limit, jpeg[at] == 0xFF {
            let marker = jpeg[at + 1]
            if marker == 0xFF { at += 1; continue }
            if marker == 0xDA || marker == 0xD9 { break }
            if marker == 0xD8 || marker == 0x01 || (0xD0...0xD7).contains(marker) { at += 2; continue }
            at += 2 + (Int(jpeg[at + 2]) << 8 | Int(jpeg[at + 3]))
        }
        return Array(jpeg.prefix(min(max(at, 0), limit)))
    }

    /// `jpeg` decoded at `scale` and resampled to `target` (stored axes; nil: the scaled
    /// size as it is). A file that ends early is an error, not a half-grey picture.
    /// `finishRows` (an RGB picture's colour conversion) runs over the fitted rows as they
    /// complete. libjpeg decodes on this thread and the rows are fitted on a second one
    /// (`RowPipeline`), so fitting and converting overlap decoding.
    public static func decode(_ jpeg: [UInt8], scale: DCTScale, target: (width: Int, height: Int)? = nil,
                              path: String, finishRows: ((UnsafeMutableRawPointer, Int) -> Void)? = nil) throws(ImageError) -> Decoded {
        try jpeg.withUnsafeBytes { raw in
            Result { () throws(ImageError) in try decode(raw, scale: scale, target: target, path: path, finishRows: finishRows) }
        }.get()
    }

    /// A part of the picture, in pixels of the DCT-scaled output (stored axes).
    public struct Crop: Equatable, Sendable {
        public var x: Int, y: Int, width: Int, height: Int
        public init(x: Int, y: Int, width: Int, height: Int) {
            self.x = x; self.y = y; self.width = width; self.height = height
        }
    }

    /// With `crop`, only that part is decoded (libjpeg-turbo's `jpeg_crop_scanline` and
    /// `jpeg_skip_scanlines`: the columns outside it are not decoded, the rows above are
    /// skipped, decoding stops below it) and fitted to `target`.
    /// `partial`: a file that ends early shows what arrived, as djpeg and browsers do: a
    /// baseline JPEG its rows down to where the data ended (the rest transparent, the view's
    /// background showing), a progressive one the whole picture as coarse as its scans so
    /// far; one that ends before its first row still fails.
    public static func decode(_ jpeg: UnsafeRawBufferPointer, scale: DCTScale, target: (width: Int, height: Int)? = nil,
                              crop: Crop? = nil, path: String, partial: Bool = false,
                              finishRows: ((UnsafeMutableRawPointer, Int) -> Void)? = nil) throws(ImageError) -> Decoded {
        try withDecoder(jpeg, path: path) { j throws(ImageError) -> Decoded in
            let space = j.pointee.d.jpeg_color_space
            let cmyk = space == JCS_CMYK || space == JCS_YCCK
            let eighths = Int32(max(1, min(8, scale.numerator * 8 / max(1, scale.denominator))))
            j.pointee.allow_truncation = partial ? 1 : 0
            guard kc_jpeg_start(j, eighths, cmyk ? JCS_CMYK : JCS_EXT_RGBA) == 0 else { throw failure(j, path) }
            let progressive = j.pointee.d.progressive_mode != 0
            let fullWidth = Int(j.pointee.d.output_width), fullHeight = Int(j.pointee.d.output_height)
            guard fullWidth > 0, fullHeight > 0, j.pointee.d.output_components == 4 else {
                throw ImageError(path: path, reason: "is a corrupt JPEG (no pixels to decode)")
            }
            // The part decoded: its columns start `left` pixels into each row libjpeg gives.
            var (w, h, left, rowWidth, end) = (fullWidth, fullHeight, 0, fullWidth, fullHeight)
            if let c = crop {
                let x = min(max(c.x, 0), fullWidth - 1), y = min(max(c.y, 0), fullHeight - 1)
                (w, h) = (min(max(c.width, 1), fullWidth - x), min(max(c.height, 1), fullHeight - y))
                var start = UInt32(x), width = UInt32(w)
                if w < fullWidth {
                    guard kc_jpeg_crop(j, &start, &width) == 0 else { throw failure(j, path) }
                }
                (left, rowWidth, end) = (x - Int(start), Int(j.pointee.d.output_width), y + h)
                if y > 0 {
                    let skipped = kc_jpeg_skip(j, UInt32(y))
                    guard skipped == Int32(y) else {
                        if skipped < 0 { throw failure(j, path) }
                        throw ImageError(path: path, reason: "is truncated (the JPEG data ends early)")
                    }
                }
                guard left >= 0, left + w <= rowWidth else { throw ImageError(path: path, reason: "cannot be cropped there") }
            }
            let out = target ?? (w, h)
            let fitting = Fitting(RowScaler(sourceWidth: w, sourceHeight: h, width: out.width, height: out.height))
            let finish = cmyk ? nil : finishRows
            let last = UInt32(end)
            try RowPipeline.run(rowBytes: rowWidth * 4, rows: h, batch: Self.batchRows, produce: { rows throws(ImageError) -> Int in
                // libjpeg hands out at most a row of DCT blocks (a few rows) per call.
                var filled = 0
                while filled < Self.batchRows && j.pointee.d.output_scanline < last {
                    let first = Int(j.pointee.d.output_scanline)
                    let got = kc_jpeg_read(j, rows + filled, Int32(Self.batchRows - filled))
                    guard got > 0 else {
                        if got < 0 { throw failure(j, path) }
                        throw ImageError(path: path, reason: "is truncated (the JPEG data ends early)")
                    }
                    // Rows from where a baseline file's data ended are libjpeg's filling: none.
                    let cut = Int(j.pointee.truncated_at)
                    if cut >= 0 && !progressive {
                        for r in 0..<Int(got) where first + r >= cut {
                            (rows[filled + r]!).initialize(repeating: 0, count: rowWidth * 4)
                        }
                    }
                    filled += Int(got)
                }
                return filled
            }, consume: { rows, count in
                for r in 0..<count {
                    fitting.scaler.add(row: UnsafeBufferPointer(start: rows + (r * rowWidth + left) * 4, count: w * 4))
                }
                if let finish { fitting.scaler.finishCompleteRows(finish) }
            })
            var truncation: String?
            let cut = Int(j.pointee.truncated_at)
            if cut >= 0 {
                guard progressive || cut > 0 else { throw ImageError(path: path, reason: "is truncated (the JPEG data ends early)") }
                truncation = progressive ? "is truncated (the JPEG data ends early): shown as far as it came"
                    : "is truncated (the JPEG data ends early): the top \(max(1, cut * 100 / fullHeight)) % shown"
            }
            let opaque = cut < 0 || progressive
            return Decoded(image: fitting.scaler.image(isOpaque: opaque), isCMYK: cmyk,
                           isInverted: cmyk && j.pointee.d.saw_Adobe_marker != 0, rowsFinished: finish != nil,
                           truncation: truncation)
        }
    }

    /// The fitting of one decode, handed to the thread that fits.
    private final class Fitting: @unchecked Sendable {
        var scaler: RowScaler
        init(_ scaler: RowScaler) { self.scaler = scaler }
    }

    /// libjpeg-turbo's own decode of `jpeg` at `scale`, rows read and dropped, nothing else:
    /// the floor `carousel bench` compares decode-and-fit with (as `djpeg -scale` would).
    /// Whether it decoded.
    public static func decodeOnly(_ jpeg: [UInt8], scale: DCTScale) -> Bool {
        jpeg.withUnsafeBytes { decodeOnly($0, scale: scale) }
    }

    public static func decodeOnly(_ jpeg: UnsafeRawBufferPointer, scale: DCTScale) -> Bool {
        (try? withDecoder(jpeg, path: "") { j throws(ImageError) -> Bool in
            let space = j.pointee.d.jpeg_color_space
            let out = space == JCS_CMYK || space == JCS_YCCK ? JCS_CMYK : JCS_EXT_RGBA
            guard kc_jpeg_start(j, Int32(scale.numerator * 8 / max(1, scale.denominator)), out) == 0 else { return false }
            let w = Int(j.pointee.d.output_width), batch = 16
            var rows = [UInt8](repeating: 0, count: w * 4 * batch)
            return rows.withUnsafeMutableBufferPointer { buf in
                var pointers = (0..<batch).map { Optional(buf.baseAddress! + $0 * w * 4) }
                return pointers.withUnsafeMutableBufferPointer { p in
                    while j.pointee.d.output_scanline < j.pointee.d.output_height {
                        if kc_jpeg_read(j, p.baseAddress, Int32(batch)) <= 0 { return false }
                    }
                    return true
                }
            }
        }) ?? false
    }

    /// Opens a decoder on `jpeg`, reads its header and gives it to `body`; always freed.
    private static func withDecoder<T>(_ jpeg: UnsafeRawBufferPointer, path: String,
                                       _ body: (UnsafeMutablePointer<kc_jpeg>) throws(ImageError) -> T) throws(ImageError) -> T {
        let j = UnsafeMutablePointer<kc_jpeg>.allocate(capacity: 1)
        defer { kc_jpeg_close(j); j.deallocate() }
        let opened = kc_jpeg_open(j, jpeg.baseAddress?.assumingMemoryBound(to: UInt8.self), UInt(jpeg.count), maxScans)
        guard opened == 0 else {
            let e = failure(j, path)
            if e.reason.hasPrefix("is truncated") { throw e }
            let text = message(j)
            // 12-bit (and lossless 16-bit) JPEGs from medical and scientific cameras: only
            // libjpeg-turbo 3.0 and later decode them; Debian 12 carries 2.1.
            if let bits = text.split(separator: " ").last.flatMap({ Int($0) }), text.contains("data precision") {
                throw ImageError(path: path, reason: "is a \(bits)-bit JPEG, which this system's libjpeg-turbo cannot decode (it reads 8-bit JPEGs; 3.0 and later read 12-bit ones)")
            }
            throw ImageError(path: path, reason: "is not a readable JPEG (\(text))")
        }
        // A file cut off before its frame header has no size.
        guard j.pointee.d.image_width > 0, j.pointee.d.image_height > 0 else {
            throw ImageError(path: path, reason: "is truncated (the JPEG data ends early)")
        }
        return try body(j)
    }

    private static func message(_ j: UnsafeMutablePointer<kc_jpeg>) -> String {
        withUnsafeBytes(of: j.pointee.message) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
    }

    private static func failure(_ j: UnsafeMutablePointer<kc_jpeg>, _ path: String) -> ImageError {
        let text = message(j)
        if text.contains("Premature end") || text.contains("ends early") {
            return ImageError(path: path, reason: "is truncated (the JPEG data ends early)")
        }
        return ImageError(path: path, reason: "is a corrupt JPEG (\(text.isEmpty ? "unknown error" : text))")
    }
}
