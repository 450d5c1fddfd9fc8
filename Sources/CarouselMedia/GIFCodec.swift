import CarouselCore
import CGIF

/// The only file of this module that calls giflib: a GIF's first frame, placed on its
/// logical screen (transparent around it), at full size (`FittingDecoder` fits it). Colour
/// indices outside the palette are drawn transparent rather than read past its end.
public enum GIFCodec {
    /// `gif`'s first frame in RGBA; `path` names it in errors.
    public static func decode(_ gif: [UInt8], path: String) throws(ImageError) -> PixelImage {
        let source = ByteSource(gif)
        var error: Int32 = 0
        guard let file = DGifOpen(Unmanaged.passUnretained(source).toOpaque(), ByteSource.read, &error) else {
            throw ImageError(path: path, reason: "is not a readable GIF (\(message(error)))")
        }
        defer { var e: Int32 = 0; DGifCloseFile(file, &e); withExtendedLifetime(source) {} }
        return try firstFrame(file, path: path)
    }

    private static func firstFrame(_ file: UnsafeMutablePointer<GifFileType>, path: String) throws(ImageError) -> PixelImage {
        var transparent: Int32 = -1
        while true {
            var type = UNDEFINED_RECORD_TYPE
            try check(DGifGetRecordType(file, &type), file, path)
            switch type {
            case EXTENSION_RECORD_TYPE:
                var code: Int32 = 0
                var block: UnsafeMutablePointer<GifByteType>? = nil
                try check(DGifGetExtension(file, &code, &block), file, path)
                if code == GRAPHICS_EXT_FUNC_CODE, let b = block {
                    var gcb = GraphicsControlBlock()
                    if DGifExtensionToGCB(Int(b[0]), b + 1, &gcb) == GIF_OK { transparent = gcb.TransparentColor }
                }
                while block != nil { try check(DGifGetExtensionNext(file, &block), file, path) }
            case IMAGE_DESC_RECORD_TYPE:
                try check(DGifGetImageDesc(file), file, path)
                return try frame(file, transparent: transparent, path: path)
            case TERMINATE_RECORD_TYPE:
                throw ImageError(path: path, reason: "is a GIF without any picture")
            default:
                continue
            }
        }
    }

    private static func frame(_ file: UnsafeMutablePointer<GifFileType>, transparent: Int32,
                              path: String) throws(ImageError) -> PixelImage {
        let desc = file.pointee.Image
        let fw = Int(desc.Width), fh = Int(desc.Height)
        guard fw > 0, fh > 0 else { throw ImageError(path: path, reason: "has no pixels") }
        // A logical screen of 0 (or smaller than the frame) takes the frame's size.
        let cw = max(Int(file.pointee.SWidth), Int(desc.Left) + fw), ch = max(Int(file.pointee.SHeight), Int(desc.Top) + fh)
        let pixels = cw.multipliedReportingOverflow(by: ch)
        guard !pixels.overflow, pixels.partialValue <= 1 << 30 else {
            throw ImageError(path: path, reason: "claims \(cw)x\(ch) pixels")
        }
        guard let palette = desc.ColorMap ?? file.pointee.SColorMap, let colors = palette.pointee.Colors else {
            throw ImageError(path: path, reason: "is a corrupt GIF (no colour palette)")
        }
        let colorCount = Int(palette.pointee.ColorCount)
        var out = [UInt8](repeating: 0, count: cw * ch * 4)
        var line = [GifPixelType](repeating: 0, count: fw)
        // Interlaced frames store rows in four passes.
        let passes: [(start: Int, step: Int)] = desc.Interlace ? [(0, 8), (4, 8), (2, 4), (1, 2)] : [(0, 1)]
        for pass in passes {
            for y in stride(from: pass.start, to: fh, by: pass.step) {
                try check(DGifGetLine(file, &line, Int32(fw)), file, path)
                let row = (Int(desc.Top) + y) * cw + Int(desc.Left)
                for x in 0..<fw {
                    let index = Int(line[x])
                    guard index != Int(transparent), index < colorCount else { continue }
                    let c = colors[index], p = (row + x) * 4
                    out[p] = c.Red; out[p + 1] = c.Green; out[p + 2] = c.Blue; out[p + 3] = 255
                }
            }
        }
        return PixelImage(width: cw, height: ch, pixels: out, isOpaque: PixelImage.allOpaque(out))
    }

    private static func check(_ rc: Int32, _ file: UnsafeMutablePointer<GifFileType>, _ path: String) throws(ImageError) {
        guard rc == GIF_ERROR else { return }
        let code = file.pointee.Error
        if code == D_GIF_ERR_READ_FAILED || code == D_GIF_ERR_EOF_TOO_SOON {
            throw ImageError(path: path, reason: "is truncated (the GIF data ends early)")
        }
        throw ImageError(path: path, reason: "is a corrupt GIF (\(message(code)))")
    }

    private static func message(_ code: Int32) -> String {
        GifErrorString(code).map { String(cString: $0) } ?? "giflib error \(code)"
    }

    /// The encoded bytes giflib reads through its callback.
    private final class ByteSource {
        let bytes: [UInt8]
        var offset = 0
        init(_ bytes: [UInt8]) { self.bytes = bytes }

        static let read: InputFunc = { file, buffer, wanted in
            guard let file, let buffer, wanted > 0, let user = file.pointee.UserData else { return 0 }
            let source = Unmanaged<ByteSource>.fromOpaque(user).takeUnretainedValue()
            let n = min(Int(wanted), source.bytes.count - source.offset)
            guard n > 0 else { return 0 }
            source.bytes.withUnsafeBufferPointer { buffer.update(from: $0.baseAddress! + source.offset, count: n) }
            source.offset += n
            return Int32(n)
        }
    }
}
