import CarouselCore
import CGIF

/// The only file of this module that calls giflib: a GIF's first frame, placed on its
/// logical screen (transparent around it), at full size (`FittingDecoder` fits it); and an
/// animated GIF's frames (`Frames`). Colour indices outside the palette are drawn
/// transparent rather than read past its end.
public enum GIFCodec {
    /// `gif`'s first frame in RGBA; `path` names it in errors. `admit` is given the size
    /// about to be made (the screen, or the first frame's extent where that is larger) and
    /// throws when it is too large.
    public static func decode(_ gif: [UInt8], path: String,
                              admit: (Int, Int) throws(ImageError) -> Void = { _, _ in }) throws(ImageError) -> PixelImage {
        let source = ByteSource(gif)
        var error: Int32 = 0
        guard let file = DGifOpen(Unmanaged.passUnretained(source).toOpaque(), ByteSource.read, &error) else {
            throw ImageError(path: path, reason: "is not a readable GIF (\(message(error)))")
        }
        defer { var e: Int32 = 0; DGifCloseFile(file, &e); withExtendedLifetime(source) {} }
        return try firstFrame(file, path: path, admit: admit)
    }

    private static func firstFrame(_ file: UnsafeMutablePointer<GifFileType>, path: String,
                                   admit: (Int, Int) throws(ImageError) -> Void) throws(ImageError) -> PixelImage {
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
                return try frame(file, transparent: transparent, path: path, admit: admit)
            case TERMINATE_RECORD_TYPE:
                throw ImageError(path: path, reason: "is a GIF without any picture")
            default:
                continue
            }
        }
    }

    private static func frame(_ file: UnsafeMutablePointer<GifFileType>, transparent: Int32, path: String,
                              admit: (Int, Int) throws(ImageError) -> Void) throws(ImageError) -> PixelImage {
        let desc = file.pointee.Image
        let fw = Int(desc.Width), fh = Int(desc.Height)
        guard fw > 0, fh > 0 else { throw ImageError(path: path, reason: "has no pixels") }
        // A logical screen of 0 (or smaller than the frame) takes the frame's size.
        let cw = max(Int(file.pointee.SWidth), Int(desc.Left) + fw), ch = max(Int(file.pointee.SHeight), Int(desc.Top) + fh)
        let pixels = cw.multipliedReportingOverflow(by: ch)
        guard !pixels.overflow, pixels.partialValue <= 1 << 30 else {
            throw ImageError(path: path, reason: "claims \(cw)x\(ch) pixels")
        }
        // A frame far outside a small screen: judged by the same limit as the header's size.
        try admit(cw, ch)
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

    /// What one walk over `gif`'s blocks tells, nothing decoded (image blocks skipped):
    /// how many times it plays, as browsers read the NETSCAPE2.0 (or ANIMEXTS1.0) block
    /// before its first frame (a repeat count N plays N + 1 times, 0 for ever; none, once);
    /// where its first frame ends, right and down (0 × 0 when unreadable); and whether it
    /// has a second frame. A damaged file tells what is readable before the damage.
    struct Survey {
        var plays = 1
        var firstExtent = (width: 0, height: 0)
        var hasSecondFrame = false
    }

    static func survey(_ gif: [UInt8]) -> Survey {
        var found = Survey()
        let source = ByteSource(gif)
        var error: Int32 = 0
        guard let file = DGifOpen(Unmanaged.passUnretained(source).toOpaque(), ByteSource.read, &error) else { return found }
        defer { var e: Int32 = 0; DGifCloseFile(file, &e); withExtendedLifetime(source) {} }
        var frames = 0
        var type = UNDEFINED_RECORD_TYPE
        while DGifGetRecordType(file, &type) == GIF_OK {
            var block: UnsafeMutablePointer<GifByteType>? = nil
            switch type {
            case EXTENSION_RECORD_TYPE:
                var code: Int32 = 0
                guard DGifGetExtension(file, &code, &block) == GIF_OK else { return found }
                var looping = false
                if frames == 0, code == APPLICATION_EXT_FUNC_CODE, let b = block, b[0] == 11 {
                    let name = String(decoding: UnsafeBufferPointer(start: b + 1, count: 11), as: UTF8.self)
                    looping = name == "NETSCAPE2.0" || name == "ANIMEXTS1.0"
                }
                while true {
                    guard DGifGetExtensionNext(file, &block) == GIF_OK else { return found }
                    guard let b = block else { break }
                    if looping, b[0] >= 3, b[1] == 1 {
                        let count = Int(b[2]) | Int(b[3]) << 8
                        found.plays = count == 0 ? 0 : count + 1
                        looping = false
                    }
                }
            case IMAGE_DESC_RECORD_TYPE:
                guard DGifGetImageDesc(file) == GIF_OK else { return found }
                frames += 1
                if frames == 2 {
                    found.hasSecondFrame = true
                    return found
                }
                let d = file.pointee.Image
                found.firstExtent = (Int(d.Left) + Int(d.Width), Int(d.Top) + Int(d.Height))
                var code: Int32 = 0
                guard DGifGetCode(file, &code, &block) == GIF_OK else { return found }
                while block != nil { guard DGifGetCodeNext(file, &block) == GIF_OK else { return found } }
            default:
                return found
            }
        }
        return found
    }

    /// An animated GIF's frames on its logical screen (the first frame's extent where the
    /// screen is smaller): transparent at first, each frame drawn over what the one before
    /// left (kept, its rectangle cleared, or the screen before it restored, as its disposal
    /// says). Plays as browsers do: a NETSCAPE2.0 loop count of N plays N + 1 times, 0 for
    /// ever, none once (`Survey`). A frame that cannot be read ends the animation there.
    final class Frames: AnimationFrames {
        let width: Int
        let height: Int
        let plays: Int
        let decoder = "giflib"
        private let source: ByteSource
        private let path: String
        private var file: UnsafeMutablePointer<GifFileType>
        private var canvas: [UInt8]
        private var line: [GifPixelType] = []
        /// What the frame shown last asks to be done before the next is drawn.
        private var disposal: (mode: Int32, x: Int, y: Int, w: Int, h: Int, before: [UInt8]?)?
        private var shown = 0

        /// Every way out by a throw closes what it opened: `deinit` runs only for a whole instance.
        init(_ gif: [UInt8], path: String) throws(ImageError) {
            let source = ByteSource(gif)
            let opened = try Self.open(source, path: path)
            // The still's size: the screen, or the first frame's extent where that is larger
            // (checked before anything of that size is made).
            let survey = GIFCodec.survey(gif)
            let w = max(Int(opened.pointee.SWidth), survey.firstExtent.width), h = max(Int(opened.pointee.SHeight), survey.firstExtent.height)
            do throws(ImageError) {
                try PictureAnimation.check(width: w, height: h, path: path)
            } catch {
                var e: Int32 = 0
                DGifCloseFile(opened, &e)
                throw error
            }
            (self.source, self.path, file, width, height) = (source, path, opened, w, h)
            plays = survey.plays
            canvas = [UInt8](repeating: 0, count: w * h * 4)
        }

        deinit { var e: Int32 = 0; DGifCloseFile(file, &e); withExtendedLifetime(source) {} }

        private static func open(_ source: ByteSource, path: String) throws(ImageError) -> UnsafeMutablePointer<GifFileType> {
            source.offset = 0
            var error: Int32 = 0
            guard let file = DGifOpen(Unmanaged.passUnretained(source).toOpaque(), ByteSource.read, &error) else {
                throw ImageError(path: path, reason: "is not a readable GIF (\(GIFCodec.message(error)))")
            }
            return file
        }

        func rewind() throws(ImageError) {
            var e: Int32 = 0
            DGifCloseFile(file, &e)
            file = try Self.open(source, path: path)
            for i in canvas.indices { canvas[i] = 0 }
            disposal = nil
            shown = 0
        }

        func next(into buffer: UnsafeMutableRawPointer) throws(ImageError) -> Double? {
            var control = GraphicsControlBlock(DisposalMode: DISPOSAL_UNSPECIFIED, UserInputFlag: false, DelayTime: 0,
                                               TransparentColor: NO_TRANSPARENT_COLOR)
            do throws(ImageError) {
                while true {
                    var type = UNDEFINED_RECORD_TYPE
                    try GIFCodec.check(DGifGetRecordType(file, &type), file, path)
                    switch type {
                    case EXTENSION_RECORD_TYPE:
                        try readExtension(&control)
                    case IMAGE_DESC_RECORD_TYPE:
                        try GIFCodec.check(DGifGetImageDesc(file), file, path)
                        try draw(control)
                        shown += 1
                        canvas.withUnsafeBytes { buffer.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
                        return PictureAnimation.shownDelay(Double(control.DelayTime) / 100)
                    default:
                        return nil  // the trailer
                    }
                }
            } catch {
                // A damaged frame after good ones ends the animation there, as browsers show it.
                guard shown > 0 else { throw error }
                return nil
            }
        }

        /// A frame's graphic control: its delay, disposal and transparent colour.
        private func readExtension(_ control: inout GraphicsControlBlock) throws(ImageError) {
            var code: Int32 = 0
            var block: UnsafeMutablePointer<GifByteType>? = nil
            try GIFCodec.check(DGifGetExtension(file, &code, &block), file, path)
            if code == GRAPHICS_EXT_FUNC_CODE, let b = block {
                var gcb = GraphicsControlBlock()
                if DGifExtensionToGCB(Int(b[0]), b + 1, &gcb) == GIF_OK { control = gcb }
            }
            while block != nil { try GIFCodec.check(DGifGetExtensionNext(file, &block), file, path) }
        }

        /// What the last frame asked done, then this frame drawn over the canvas (clipped to it).
        private func draw(_ control: GraphicsControlBlock) throws(ImageError) {
            if let d = disposal {
                if d.mode == DISPOSE_BACKGROUND {
                    clear(x: d.x, y: d.y, w: d.w, h: d.h)
                } else if d.mode == DISPOSE_PREVIOUS, let before = d.before {
                    canvas = before
                }
            }
            let desc = file.pointee.Image
            let fx = Int(desc.Left), fy = Int(desc.Top), fw = Int(desc.Width), fh = Int(desc.Height)
            guard fw > 0, fh > 0, fw <= 65535, fh <= 65535 else { throw ImageError(path: path, reason: "has a frame without pixels") }
            guard let palette = desc.ColorMap ?? file.pointee.SColorMap, let colors = palette.pointee.Colors else {
                throw ImageError(path: path, reason: "is a corrupt GIF (no colour palette)")
            }
            disposal = (control.DisposalMode, fx, fy, fw, fh, control.DisposalMode == DISPOSE_PREVIOUS ? canvas : nil)
            let colorCount = Int(palette.pointee.ColorCount), transparent = Int(control.TransparentColor)
            if line.count < fw { line = [GifPixelType](repeating: 0, count: fw) }
            let passes: [(start: Int, step: Int)] = desc.Interlace ? [(0, 8), (4, 8), (2, 4), (1, 2)] : [(0, 1)]
            for pass in passes {
                for y in stride(from: pass.start, to: fh, by: pass.step) {
                    try GIFCodec.check(DGifGetLine(file, &line, Int32(fw)), file, path)
                    let cy = fy + y
                    guard cy < height else { continue }
                    for x in 0..<min(fw, max(0, width - fx)) {
                        let index = Int(line[x])
                        guard index != transparent, index < colorCount else { continue }
                        let c = colors[index], p = (cy * width + fx + x) * 4
                        canvas[p] = c.Red; canvas[p + 1] = c.Green; canvas[p + 2] = c.Blue; canvas[p + 3] = 255
                    }
                }
            }
        }

        private func clear(x: Int, y: Int, w: Int, h: Int) {
            let x0 = min(x, width), x1 = min(x + w, width)
            guard x1 > x0 else { return }
            for row in y..<min(y + h, height) {
                let start = (row * width + x0) * 4
                for i in start..<(start + (x1 - x0) * 4) { canvas[i] = 0 }
            }
        }
    }

    fileprivate static func check(_ rc: Int32, _ file: UnsafeMutablePointer<GifFileType>, _ path: String) throws(ImageError) {
        guard rc == GIF_ERROR else { return }
        let code = file.pointee.Error
        if code == D_GIF_ERR_READ_FAILED || code == D_GIF_ERR_EOF_TOO_SOON {
            throw ImageError(path: path, reason: "is truncated (the GIF data ends early)")
        }
        throw ImageError(path: path, reason: "is a corrupt GIF (\(message(code)))")
    }

    fileprivate static func message(_ code: Int32) -> String {
        GifErrorString(code).map { String(cString: $0) } ?? "giflib error \(code)"
    }

    /// The encoded bytes giflib reads through its callback.
    fileprivate final class ByteSource {
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
