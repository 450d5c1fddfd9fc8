import CarouselCore
import CJXL

/// The only file of this module that calls libjxl: JPEG XL pictures, the first frame of an
/// animation, turned upright by the codestream's own orientation field (libjxl applies it;
/// EXIF is never applied a second time), with the colour encoding the pixels come in.
/// libjxl 0.7 cannot decode at a reduced size: the picture is decoded whole into 8-bit
/// RGBA (a 12 MP picture: 48 MB, plus libjxl's own working image of about as much) and
/// then fitted. One thread: several helpers already decode side by side.
public enum JXLCodec {
    /// `bytes` decoded, upright, fitted to `box`, with the colour its pixels are in.
    /// `check` refuses a size before the pixels are decoded.
    public static func decode(_ bytes: [UInt8], fittingIn box: Size, path: String,
                              check: (Int, Int) throws(ImageError) -> Void) throws(ImageError) -> (PixelImage, EmbeddedColour) {
        guard let dec = JxlDecoderCreate(nil) else { throw ImageError(path: path, reason: "JPEG XL decoder unavailable") }
        defer { JxlDecoderDestroy(dec) }
        let events = Int32(JXL_DEC_BASIC_INFO.rawValue | JXL_DEC_COLOR_ENCODING.rawValue | JXL_DEC_FULL_IMAGE.rawValue)
        guard JxlDecoderSubscribeEvents(dec, events) == JXL_DEC_SUCCESS else {
            throw ImageError(path: path, reason: "JPEG XL decoder unavailable")
        }
        var format = JxlPixelFormat(num_channels: 4, data_type: JXL_TYPE_UINT8, endianness: JXL_NATIVE_ENDIAN, align: 0)
        var info = JxlBasicInfo()
        var colour = EmbeddedColour.sRGB
        var pixels: [UInt8] = []
        var upright = (width: 0, height: 0)
        return try bytes.withUnsafeBufferPointer { input in
            Result { () throws(ImageError) -> (PixelImage, EmbeddedColour) in
                guard JxlDecoderSetInput(dec, input.baseAddress, input.count) == JXL_DEC_SUCCESS else {
                    throw ImageError(path: path, reason: "is not a readable JPEG XL")
                }
                JxlDecoderCloseInput(dec)
                while true {
                    switch JxlDecoderProcessInput(dec) {
                    case JXL_DEC_ERROR:
                        throw ImageError(path: path, reason: "is a corrupt JPEG XL (libjxl could not decode it)")
                    case JXL_DEC_NEED_MORE_INPUT:
                        throw ImageError(path: path, reason: "is truncated (the JPEG XL data ends early)")
                    case JXL_DEC_BASIC_INFO:
                        guard JxlDecoderGetBasicInfo(dec, &info) == JXL_DEC_SUCCESS else {
                            throw ImageError(path: path, reason: "is a corrupt JPEG XL (no image header)")
                        }
                        let swaps = info.orientation.rawValue >= 5
                        upright = swaps ? (Int(info.ysize), Int(info.xsize)) : (Int(info.xsize), Int(info.ysize))
                        try check(upright.width, upright.height)
                    case JXL_DEC_COLOR_ENCODING:
                        colour = colourOf(dec, &format)
                    case JXL_DEC_NEED_IMAGE_OUT_BUFFER:
                        var size = 0
                        guard JxlDecoderImageOutBufferSize(dec, &format, &size) == JXL_DEC_SUCCESS,
                              size == upright.width * upright.height * 4 else {
                            throw ImageError(path: path, reason: "is a corrupt JPEG XL (its frame does not match its size)")
                        }
                        pixels = [UInt8](repeating: 0, count: size)
                        let rc = pixels.withUnsafeMutableBytes { JxlDecoderSetImageOutBuffer(dec, &format, $0.baseAddress, size) }
                        guard rc == JXL_DEC_SUCCESS else { throw ImageError(path: path, reason: "is a corrupt JPEG XL (no output buffer)") }
                    case JXL_DEC_FULL_IMAGE, JXL_DEC_SUCCESS:
                        // The first frame is the picture (an animation shows its first).
                        guard !pixels.isEmpty else { throw ImageError(path: path, reason: "is a JPEG XL without pixels") }
                        let opaque = info.alpha_bits == 0 || PixelImage.allOpaque(pixels)
                        let whole = PixelImage(width: upright.width, height: upright.height, pixels: pixels, isOpaque: opaque)
                        let fitted = AspectFit.size(of: whole.size, in: box)
                        return (ImageScaler.resize(whole, width: Int(fitted.width), height: Int(fitted.height)), colour)
                    default:
                        continue
                    }
                }
            }
        }.get()
    }

    /// The colour the decoded pixels come in: sRGB when libjxl says so in numbers, else
    /// the ICC profile libjxl gives for them.
    private static func colourOf(_ dec: OpaquePointer, _ format: inout JxlPixelFormat) -> EmbeddedColour {
        var encoding = JxlColorEncoding()
        if JxlDecoderGetColorAsEncodedProfile(dec, &format, JXL_COLOR_PROFILE_TARGET_DATA, &encoding) == JXL_DEC_SUCCESS,
           encoding.color_space == JXL_COLOR_SPACE_RGB || encoding.color_space == JXL_COLOR_SPACE_GRAY,
           encoding.white_point == JXL_WHITE_POINT_D65, encoding.transfer_function == JXL_TRANSFER_FUNCTION_SRGB,
           encoding.color_space == JXL_COLOR_SPACE_GRAY || encoding.primaries == JXL_PRIMARIES_SRGB {
            return .sRGB
        }
        var size = 0
        guard JxlDecoderGetICCProfileSize(dec, &format, JXL_COLOR_PROFILE_TARGET_DATA, &size) == JXL_DEC_SUCCESS,
              size > 0, size <= ICCExtraction.maxBytes else {
            return .unusable(reason: "its colour encoding cannot be read; shown as sRGB")
        }
        var icc = [UInt8](repeating: 0, count: size)
        guard JxlDecoderGetColorAsICCProfile(dec, &format, JXL_COLOR_PROFILE_TARGET_DATA, &icc, size) == JXL_DEC_SUCCESS else {
            return .unusable(reason: "its colour encoding cannot be read; shown as sRGB")
        }
        return .icc(icc)
    }
}
