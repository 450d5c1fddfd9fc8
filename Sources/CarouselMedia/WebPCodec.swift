import CarouselCore
import CWebP

/// The only file of this module that calls libwebp: WebP decoding straight to the fitted
/// size with libwebp's own scaler, so the full-size picture is never built. An animated
/// WebP shows its first frame (through libwebpdemux) and plays through `Frames` (libwebp's
/// animation decoder).
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

    /// How many frames `webp` has (1 for a still, 0 when it cannot be read).
    static func frameCount(_ webp: [UInt8]) -> Int {
        webp.withUnsafeBufferPointer { buf in
            var data = WebPData(bytes: buf.baseAddress, size: buf.count)
            guard let demux = WebPDemux(&data) else { return 0 }
            defer { WebPDemuxDelete(demux) }
            return Int(WebPDemuxGetI(demux, WEBP_FF_FRAME_COUNT))
        }
    }

    /// An animated WebP's frames, each the whole canvas as libwebp's animation decoder
    /// composes it (blending and disposal as the file says), in RGBA. Its loop count is how
    /// many times it plays (0: for ever). A frame that cannot be read ends the animation there.
    final class Frames: AnimationFrames {
        let width: Int
        let height: Int
        let plays: Int
        let decoder = "libwebp"
        private let bytes: UnsafeMutableBufferPointer<UInt8>
        private let animation: OpaquePointer
        private let path: String
        private var last: Int32 = 0
        private var shown = 0

        /// Every way out by a throw comes before the last property is set: `deinit`, which
        /// frees the decoder and the bytes, runs only for a whole instance.
        init(_ webp: [UInt8], path: String) throws(ImageError) {
            // The canvas's size first, from the demuxer: the animation decoder makes a canvas
            // of whatever size the file says.
            let canvas = webp.withUnsafeBufferPointer { buf -> (Int, Int) in
                var data = WebPData(bytes: buf.baseAddress, size: buf.count)
                guard let demux = WebPDemux(&data) else { return (0, 0) }
                defer { WebPDemuxDelete(demux) }
                return (Int(WebPDemuxGetI(demux, WEBP_FF_CANVAS_WIDTH)), Int(WebPDemuxGetI(demux, WEBP_FF_CANVAS_HEIGHT)))
            }
            try PictureAnimation.check(width: canvas.0, height: canvas.1, path: path)
            let copy = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(1, webp.count))
            _ = copy.initialize(from: webp)
            var data = WebPData(bytes: copy.baseAddress, size: webp.count)
            var options = WebPAnimDecoderOptions()
            var info = WebPAnimInfo()
            guard WebPAnimDecoderOptionsInit(&options) != 0 else {
                copy.deallocate()
                throw ImageError(path: path, reason: "WebP animation decoder unavailable")
            }
            options.color_mode = MODE_RGBA
            options.use_threads = 0
            guard let made = WebPAnimDecoderNew(&data, &options) else {
                copy.deallocate()
                throw ImageError(path: path, reason: "is a corrupt animated WebP")
            }
            do throws(ImageError) {
                guard WebPAnimDecoderGetInfo(made, &info) != 0 else { throw ImageError(path: path, reason: "is a corrupt animated WebP") }
                try PictureAnimation.check(width: Int(info.canvas_width), height: Int(info.canvas_height), path: path)
            } catch {
                WebPAnimDecoderDelete(made)
                copy.deallocate()
                throw error
            }
            (self.path, bytes, width, height, plays) = (path, copy, Int(info.canvas_width), Int(info.canvas_height), Int(info.loop_count))
            animation = made
        }

        deinit {
            WebPAnimDecoderDelete(animation)
            bytes.deallocate()
        }

        func rewind() throws(ImageError) {
            WebPAnimDecoderReset(animation)
            last = 0
            shown = 0
        }

        func next(into buffer: UnsafeMutableRawPointer) throws(ImageError) -> Double? {
            guard WebPAnimDecoderHasMoreFrames(animation) != 0 else { return nil }
            var canvas: UnsafeMutablePointer<UInt8>? = nil
            var timestamp: Int32 = 0
            guard WebPAnimDecoderGetNext(animation, &canvas, &timestamp) != 0, let canvas else {
                // A damaged frame after good ones ends the animation there.
                guard shown > 0 else { throw ImageError(path: path, reason: "is a corrupt animated WebP (its first frame)") }
                return nil
            }
            buffer.copyMemory(from: canvas, byteCount: width * height * 4)
            defer { last = timestamp; shown += 1 }
            return PictureAnimation.shownDelay(Double(max(0, timestamp - last)) / 1000)
        }
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
