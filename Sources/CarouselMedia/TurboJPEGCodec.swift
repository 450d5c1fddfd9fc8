import CarouselCore
import CTurboJPEG

/// The only file of this module that calls libturbojpeg: JPEG decoding with DCT scaling,
/// and encoding (for generated test and benchmark images). Each call has its own handle,
/// so any thread may call it.
public enum TurboJPEGCodec {
    private static func header(_ handle: tjhandle, _ jpeg: [UInt8]) -> (width: Int, height: Int)? {
        var w: Int32 = 0, h: Int32 = 0, subsamp: Int32 = 0, colorspace: Int32 = 0
        let rc = jpeg.withUnsafeBufferPointer {
            tjDecompressHeader3(handle, $0.baseAddress, UInt(jpeg.count), &w, &h, &subsamp, &colorspace)
        }
        return rc == 0 ? (Int(w), Int(h)) : nil
    }

    /// Decodes `jpeg` into RGBA, shrunk by `scale` while decoding. A file that ends early
    /// is an error, not a half-grey picture; harmless warnings are ignored.
    public static func decode(_ jpeg: [UInt8], scale: DCTScale, path: String) throws(ImageError) -> PixelImage {
        guard let handle = tjInitDecompress() else { throw ImageError(path: path, reason: "JPEG decoder unavailable") }
        defer { tjDestroy(handle) }
        guard let size = header(handle, jpeg) else {
            throw ImageError(path: path, reason: "is not a readable JPEG (\(String(cString: tjGetErrorStr2(handle))))")
        }
        // A file cut off before its frame header "reads" as 0 x 0 with only a warning.
        guard size.width > 0, size.height > 0 else {
            throw ImageError(path: path, reason: "is truncated (the JPEG data ends early)")
        }
        let w = scale.scaled(size.width), h = scale.scaled(size.height)
        var out = [UInt8](repeating: 0, count: w * h * 4)
        let rc = jpeg.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                tjDecompress2(handle, src.baseAddress, UInt(jpeg.count), dst.baseAddress,
                              Int32(w), 0, Int32(h), Int32(TJPF_RGBA.rawValue), 0)
            }
        }
        if rc != 0 {
            let text = String(cString: tjGetErrorStr2(handle))
            if text.contains("Premature end") { throw ImageError(path: path, reason: "is truncated (the JPEG data ends early)") }
            if tjGetErrorCode(handle) != Int32(TJERR_WARNING.rawValue) {
                throw ImageError(path: path, reason: "is a corrupt JPEG (\(text))")
            }
        }
        return PixelImage(width: w, height: h, pixels: out, isOpaque: true)  // JPEG has no alpha
    }

    /// Encodes `image` as a baseline 4:2:0 JPEG.
    public static func encode(_ image: PixelImage, quality: Int = 90) -> [UInt8] {
        guard let handle = tjInitCompress() else { return [] }
        defer { tjDestroy(handle) }
        var buffer: UnsafeMutablePointer<UInt8>? = nil
        var size: UInt = 0
        let rc = image.pixels.withUnsafeBufferPointer {
            tjCompress2(handle, $0.baseAddress, Int32(image.width), 0, Int32(image.height),
                        Int32(TJPF_RGBA.rawValue), &buffer, &size, Int32(TJSAMP_420.rawValue),
                        Int32(quality), 0)
        }
        defer { tjFree(buffer) }
        guard rc == 0, let buffer else { return [] }
        return Array(UnsafeBufferPointer(start: buffer, count: Int(size)))
    }
}
