import CarouselCore
import CWebP

/// The only file of this module that calls libwebp: WebP decoding straight to the fitted
/// size with libwebp's own scaler, so the full-size picture is never built. An animated
/// WebP shows its first frame (through libwebpdemux).
public enum WebPCodec {
    /// `webp` decoded into RGBA and aspect-fitted to `box`; `path` names it in errors.
    public static func decode(_ webp: [UInt8], fittingIn box: Size, path: String) throws(ImageError) -> PixelImage {
        try webp.withUnsafeBufferPointer { buf in
            Result { () throws(ImageError) -> PixelImage in
                try decode(buf.baseAddress, buf.count, box: box, path: path, allowFrames: true)
            }
        }.get()
    }

    private static func decode(_ data: UnsafePointer<UInt8>?, _ size: Int, box: Size, path: String,
                               allowFrames: Bool) throws(ImageError) -> PixelImage {
        var config = WebPDecoderConfig()
        guard WebPInitDecoderConfig(&config) != 0 else { throw ImageError(path: path, reason: "WebP decoder unavailable") }
        try check(WebPGetFeatures(data, size, &config.input), path)
        if config.input.has_animation != 0 {
            guard allowFrames else { throw ImageError(path: path, reason: "is a corrupt WebP (an animation inside a frame)") }
            return try firstFrame(data, size, box: box, path: path)
        }
        let w = Int(config.input.width), h = Int(config.input.height)
        guard w > 0, h > 0 else { throw ImageError(path: path, reason: "has no pixels") }
        let fitted = AspectFit.size(of: Size(width: Double(w), height: Double(h)), in: box)
        let fw = Int(fitted.width), fh = Int(fitted.height)
        // libwebp scales down while decoding; a picture smaller than its box is decoded as
        // it is and enlarged afterwards, as every other format is.
        let shrinks = fw < w || fh < h
        let (ow, oh) = shrinks ? (fw, fh) : (w, h)
        if shrinks {
            config.options.use_scaling = 1
            config.options.scaled_width = Int32(ow)
            config.options.scaled_height = Int32(oh)
        }
        var pixels = [UInt8](repeating: 0, count: ow * oh * 4)
        let status = pixels.withUnsafeMutableBufferPointer { out -> VP8StatusCode in
            config.output.colorspace = MODE_RGBA
            config.output.is_external_memory = 1
            config.output.u.RGBA.rgba = out.baseAddress
            config.output.u.RGBA.stride = Int32(ow * 4)
            config.output.u.RGBA.size = out.count
            return WebPDecode(data, size, &config)
        }
        WebPFreeDecBuffer(&config.output)
        try check(status, path)
        let opaque = config.input.has_alpha == 0 || PixelImage.allOpaque(pixels)
        let image = PixelImage(width: ow, height: oh, pixels: pixels, isOpaque: opaque)
        return shrinks ? image : ImageScaler.resize(image, width: fw, height: fh)
    }

    private static func firstFrame(_ data: UnsafePointer<UInt8>?, _ size: Int, box: Size,
                                   path: String) throws(ImageError) -> PixelImage {
        var whole = WebPData(bytes: data, size: size)
        guard let demux = WebPDemux(&whole) else { throw ImageError(path: path, reason: "is a corrupt animated WebP") }
        defer { WebPDemuxDelete(demux) }
        var frame = WebPIterator()
        guard WebPDemuxGetFrame(demux, 1, &frame) != 0 else {
            throw ImageError(path: path, reason: "is an animated WebP without frames")
        }
        defer { WebPDemuxReleaseIterator(&frame) }
        return try decode(frame.fragment.bytes, frame.fragment.size, box: box, path: path, allowFrames: false)
    }

    private static func check(_ status: VP8StatusCode, _ path: String) throws(ImageError) {
        switch status {
        case VP8_STATUS_OK: return
        case VP8_STATUS_NOT_ENOUGH_DATA: throw ImageError(path: path, reason: "is truncated (the WebP data ends early)")
        case VP8_STATUS_OUT_OF_MEMORY: throw ImageError(path: path, reason: "cannot be decoded (out of memory)")
        case VP8_STATUS_UNSUPPORTED_FEATURE: throw ImageError(path: path, reason: "uses a WebP feature that is not supported")
        default: throw ImageError(path: path, reason: "is a corrupt WebP (libwebp status \(status.rawValue))")
        }
    }
}
