import CarouselCore
import Glibc

/// Turns a file into what a slot shows. Workers call it off the render thread, and tests
/// inject slow or counting decoders through it.
public protocol ImageDecoding: Sendable {
    /// The image at `source`, upright and aspect-fitted to `box`, in device pixels.
    func decode(_ source: ImageSource, fittingIn box: Size) throws(ImageError) -> PixelImage
    /// The same, with its blurred backdrop (`--fill`) when `withBackdrop`.
    func decode(_ source: ImageSource, fittingIn box: Size, withBackdrop: Bool) throws(ImageError) -> PixelImage
    /// The part `part` (fractions 0–1 of the upright picture) of the image at `source`,
    /// fitted to `box`: the detail a zoom shows.
    func decode(_ source: ImageSource, part: Rect, fittingIn box: Size) throws(ImageError) -> PixelImage
    /// Ends whatever the decoder keeps running (helper processes); decodes under way fail.
    func stop()
}

extension ImageDecoding {
    public func stop() {}

    /// Made here from the fitted picture; a decoder with helpers has them make it.
    public func decode(_ source: ImageSource, fittingIn box: Size, withBackdrop: Bool) throws(ImageError) -> PixelImage {
        var image = try decode(source, fittingIn: box)
        if withBackdrop && image.backdrop == nil { image.backdrop = BlurredBackdrop.make(from: image) }
        return image
    }

    /// A decoder that cannot decode parts says so; the zoom keeps the fitted picture.
    public func decode(_ source: ImageSource, part: Rect, fittingIn box: Size) throws(ImageError) -> PixelImage {
        throw ImageError(path: source.path, reason: "cannot be decoded in part here")
    }
}

/// The real decoder: reads the file, refuses oversized headers before allocating, decodes
/// JPEGs at the smallest DCT scale that still covers the box (seed 002: a 24 MP photo is
/// 96 MB decoded) and fits them row by row as libjpeg hands the rows out, PNGs row by row,
/// WebPs scaled while decoding, HEIF/AVIF and JPEG XL through libheif and libjxl, GIF's
/// first frame through giflib, Netpbm in Swift and the rarer formats through SDL_image;
/// turns each upright (EXIF for JPEG, the format's own field for HEIF and JPEG XL),
/// area-averages it down to the fitted size and converts its colours from what the file
/// declares to sRGB or the screen's profile (`ColourConverter`). Runs in a decoder helper
/// (`IsolatedDecoder`); in the main process only in tests and `carousel bench`'s
/// in-process comparison.
public struct FittingDecoder: ImageDecoding {
    /// Largest image accepted, in pixels: a guard against files that would exhaust memory.
    public var maxPixels: Int
    /// Off only to measure what DCT scaling saves.
    public var dctScaling: Bool
    /// Into the screen's colours.
    public var colour: ColourConverter
    /// A JPEG that ends early shows what arrived, with a note saying so (`--broken show`).
    public var showsPartial = false
    /// Only a thumbnail the file carries (HEIF's `thmb` item), never the picture: a HEIF
    /// without one fails (`EmbeddedThumbnail`).
    public var thumbnailOnly = false
    /// A decoder helper's memory: a size a decoder learns only as it decodes (a TGA's,
    /// whose header is not read first; an animation's canvas) is refused against it too,
    /// before its pixels are allocated. nil: only the megapixel limit.
    var budget: MemoryBudget?

    public init(maxPixels: Int = 100_000_000, dctScaling: Bool = true, colour: ColourConverter = ColourConverter()) {
        self.maxPixels = maxPixels
        self.dctScaling = dctScaling
        self.colour = colour
    }

    public func decode(_ source: ImageSource, fittingIn box: Size) throws(ImageError) -> PixelImage {
        try decode(ImageFile.read(source.path), name: source.path, fittingIn: box)
    }

    public func decode(_ source: ImageSource, part: Rect, fittingIn box: Size) throws(ImageError) -> PixelImage {
        try decode(ImageFile.read(source.path), name: source.path, part: part, fittingIn: box)
    }

    /// The image in the open file `fd`, upright and fitted to `box`; `name` names it in
    /// errors. A PNG is read as it decodes; other formats are read whole first.
    public func decode(file fd: Int32, name: String, fittingIn box: Size) throws(ImageError) -> PixelImage {
        var head = [UInt8](repeating: 0, count: 24)
        let n = head.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
        let header = ImageHeader.read(Array(head.prefix(max(0, n))))
        if header.format == .png, let w = header.width, let h = header.height {
            try checkSize(width: w, height: h, path: name)
            let (image, embedded) = try PNGCodec.decode(file: fd, fittingIn: box, path: name, deepColour: colour)
            var fitted = Self.withFullSize(embedded.map { converted(image, $0) } ?? image, header: header)
            // An APNG: found from its chunk headers (the file is never read whole here).
            if APNGFrames.declaresFrames(file: fd) { fitted.motion = .frames }
            return fitted
        }
        // A JPEG is decoded from the page cache through a read-only mapping: a camera's
        // 4–20 MB file is never copied (the copy was 3–4 ms of a 24 MP picture's 60).
        if header.format == .jpeg, let mapped = MappedFile(fd) {
            if let w = header.width, let h = header.height { try checkSize(width: w, height: h, path: name) }
            defer { mapped.unmap() }
            return try decodeJPEG(mapped.bytes, markers: JPEGCodec.markers(mapped.bytes), box: box, path: name)
        }
        return try decode(ImageFile.read(fd, name: name), name: name, fittingIn: box)
    }

    /// The encoded image `bytes`, upright and fitted to `box`; `name` names it in errors.
    /// What a decoder helper runs.
    public func decode(_ bytes: [UInt8], name path: String, fittingIn box: Size) throws(ImageError) -> PixelImage {
        var image = Self.withFullSize(try fitted(bytes, name: path, fittingIn: box), header: ImageHeader.read(bytes))
        // An animated GIF, WebP or PNG: its frames play when the carousel arrives on it.
        if PictureAnimation.isAnimated(bytes) { image.motion = .frames }
        return image
    }

    /// The part `part` (fractions 0–1 of the upright picture) of the encoded image `bytes`,
    /// fitted to `box`: what a zoom shows sharp. A JPEG decodes only that part, at the
    /// smallest DCT scale that still covers `box` (`JPEGCodec.Crop`); any other format is
    /// decoded whole at full size (`wholeForParts`), then cut (the helper's memory limit
    /// bounds it).
    public func decode(_ bytes: [UInt8], name path: String, part: Rect, fittingIn box: Size) throws(ImageError) -> PixelImage {
        if let whole = try wholeForParts(bytes, name: path) { return Self.cut(part, of: whole, fittingIn: box) }
        let part = Self.clamped(part)
        return try bytes.withUnsafeBytes { raw in
            Result { () throws(ImageError) in try decodeJPEGPart(raw, markers: bytes, part: part, box: box, path: path) }
        }.get()
    }

    /// The whole picture at its own size, upright, that parts of a format decoded only
    /// whole are cut from (a helper keeps it while a zoom asks for parts); nil for a JPEG,
    /// which decodes each part on its own.
    public func wholeForParts(_ bytes: [UInt8], name path: String) throws(ImageError) -> PixelImage? {
        let header = ImageHeader.read(bytes)
        if let w = header.width, let h = header.height { try checkSize(width: w, height: h, path: path) }
        guard header.format != .jpeg else { return nil }
        // A square as large as the picture's longer side fits it, upright either way, at 1:1.
        let side = Double(max(header.width ?? 8192, header.height ?? 8192))
        return try fitted(bytes, name: path, fittingIn: Size(width: side, height: side))
    }

    /// The part `part` (fractions 0–1) of `whole`, fitted to `box` (never enlarged).
    public static func cut(_ part: Rect, of whole: PixelImage, fittingIn box: Size) -> PixelImage {
        let part = clamped(part)
        let x = Int((part.minX * Double(whole.width)).rounded(.down)), y = Int((part.minY * Double(whole.height)).rounded(.down))
        let w = max(1, min(whole.width - x, Int((part.size.width * Double(whole.width)).rounded(.up))))
        let h = max(1, min(whole.height - y, Int((part.size.height * Double(whole.height)).rounded(.up))))
        var cropped = [UInt8](repeating: 0, count: w * h * 4)
        for row in 0..<h {
            let from = ((y + row) * whole.width + x) * 4
            cropped.replaceSubrange(row * w * 4 ..< (row + 1) * w * 4, with: whole.pixels[from ..< from + w * 4])
        }
        let size = AspectFit.size(of: Size(width: Double(w), height: Double(h)), in: box)
        var image = ImageScaler.resize(PixelImage(width: w, height: h, pixels: cropped, isOpaque: whole.isOpaque),
                                       width: min(w, Int(size.width)), height: min(h, Int(size.height)))
        image.note = whole.note
        return image
    }

    /// A part kept inside the picture, at least a millionth of it across.
    static func clamped(_ r: Rect) -> Rect {
        let x = min(max(r.minX, 0), 1), y = min(max(r.minY, 0), 1)
        return Rect(x: x, y: y, width: min(max(r.size.width, 1e-6), 1 - x), height: min(max(r.size.height, 1e-6), 1 - y))
    }

    /// A JPEG's part: found in the stored axes, decoded cropped at a DCT scale that covers
    /// `box`, then turned upright and converted as a whole picture is.
    private func decodeJPEGPart(_ bytes: UnsafeRawBufferPointer, markers: [UInt8], part: Rect, box: Size,
                                path: String) throws(ImageError) -> PixelImage {
        let frame = try JPEGCodec.frame(bytes, path: path)
        try checkSize(width: frame.width, height: frame.height, path: path)
        let orientation = ExifOrientation.read(jpeg: markers)
        let stored = orientation.storedPart(ofUpright: part)
        // The part's own size in the file, and fitted to the box (in stored axes).
        let partSize = (width: max(1, Int((stored.size.width * Double(frame.width)).rounded())),
                        height: max(1, Int((stored.size.height * Double(frame.height)).rounded())))
        let uprightPart = orientation.swapsAxes ? Size(width: Double(partSize.height), height: Double(partSize.width))
                                                : Size(width: Double(partSize.width), height: Double(partSize.height))
        let fittedPart = AspectFit.size(of: uprightPart, in: box)
        var target = orientation.swapsAxes ? (width: Int(fittedPart.height), height: Int(fittedPart.width))
                                           : (width: Int(fittedPart.width), height: Int(fittedPart.height))
        // Never larger than the file's own pixels.
        target = (min(target.width, partSize.width), min(target.height, partSize.height))
        let scale = dctScaling ? DCTScale.choose(source: partSize, target: target) : .full
        let scaledWidth = scale.scaled(frame.width), scaledHeight = scale.scaled(frame.height)
        let crop = JPEGCodec.Crop(x: Int((stored.minX * Double(scaledWidth)).rounded(.down)),
                                  y: Int((stored.minY * Double(scaledHeight)).rounded(.down)),
                                  width: Int((stored.size.width * Double(scaledWidth)).rounded(.up)),
                                  height: Int((stored.size.height * Double(scaledHeight)).rounded(.up)))
        return try decodeJPEG(bytes, isCMYK: frame.isCMYK, markers: markers, scale: scale, target: target, crop: crop,
                              path: path).oriented(orientation)
    }

    /// `image` with its whole picture's size: kept if the codec gave it, else the header's,
    /// turned the way the fitted picture is (HEIF and JPEG XL turn by their own fields).
    static func withFullSize(_ image: PixelImage, header: ImageHeader) -> PixelImage {
        guard image.fullSize == nil, let w = header.width, let h = header.height, w > 0, h > 0 else { return image }
        var image = image
        let turned = w != h && (image.width > image.height) != (w > h) && image.width != image.height
        image.fullSize = turned ? Size(width: Double(h), height: Double(w)) : Size(width: Double(w), height: Double(h))
        return image
    }

    private func fitted(_ bytes: [UInt8], name path: String, fittingIn box: Size) throws(ImageError) -> PixelImage {
        let header = ImageHeader.read(bytes)
        if let w = header.width, let h = header.height {
            try checkSize(width: w, height: h, path: path)
        }
        // The common formats through their reference libraries, fitted while decoding where
        // the library can; BMP and TGA read here; the rarer ones through SDL_image at full size.
        let check = { (w: Int, h: Int) throws(ImageError) in
            try checkSize(width: w, height: h, path: path)
            try budget?.check(ImageHeader(format: header.format, width: w, height: h), box: box, dctScaling: false, name: path)
        }
        var embedded = EmbeddedColour.sRGB
        let upright: PixelImage
        switch header.format {
        case .jpeg:
            return try bytes.withUnsafeBytes { raw in
                Result { () throws(ImageError) in try decodeJPEG(raw, markers: bytes, box: box, path: path) }
            }.get()
        case .png:
            let (image, declared) = try PNGCodec.decodeWithColour(bytes, fittingIn: box, path: path, deepColour: colour)
            // A 16-bit picture comes converted already.
            guard let declared else { return image }
            (upright, embedded) = (image, declared)
        case .webp:
            // Turned upright by its EXIF orientation, fitted in the box turned the other way.
            let orientation = ExifOrientation.read(webp: bytes)
            let stored = orientation.swapsAxes ? Size(width: box.height, height: box.width) : box
            upright = try WebPCodec.decode(bytes, fittingIn: stored, path: path).oriented(orientation)
            embedded = ICCExtraction.webp(bytes)
        case .gif: upright = try GIFCodec.decode(bytes, path: path, admit: check)
        case .heif, .avif: (upright, embedded) = try HEIFCodec.decode(bytes, fittingIn: box, path: path, thumbnailOnly: thumbnailOnly, check: check)
        case .jxl: (upright, embedded) = try JXLCodec.decode(bytes, fittingIn: box, path: path, check: check)
        case .pnm: upright = try PNMCodec.decode(bytes, path: path)
        case .tiff:
            let decoded = try TIFFCodec.decode(bytes, path: path, colour: colour, check: check)
            if decoded.converted {
                // CMYK, through its profile already: only fitted.
                let size = AspectFit.size(of: decoded.image.size, in: box)
                var image = ImageScaler.resize(decoded.image, width: Int(size.width), height: Int(size.height))
                image.note = decoded.image.note
                return image
            }
            (upright, embedded) = (decoded.image, decoded.embedded)
        case .bmp: upright = try BMPCodec.decode(bytes, path: path, partial: showsPartial, check: check)
        default:
            if TGACodec.isNamed(path) || TGACodec.hasFooter(bytes) {
                upright = try TGACodec.decode(bytes, path: path, partial: showsPartial, check: check)
            } else if BMPCodec.isHeaderlessDIB(bytes) {
                upright = try BMPCodec.decode(bytes, path: path, partial: showsPartial, check: check)
            } else {
                upright = try SDLImageCodec.decode(bytes, path: path)
                try checkSize(width: upright.width, height: upright.height, path: path)
            }
        }
        guard upright.width > 0, upright.height > 0 else { throw ImageError(path: path, reason: "has no pixels") }
        // A thumbnail stands in small: never made larger than it is.
        let fitted = AspectFit.size(of: upright.size, in: thumbnailOnly ? Size(width: min(box.width, Double(upright.width)),
                                                                               height: min(box.height, Double(upright.height))) : box)
        var shown = converted(ImageScaler.resize(upright, width: Int(fitted.width), height: Int(fitted.height)), embedded)
        // A cut BMP or TGA shown in part says so, with anything said of its colours.
        if let cut = upright.note { shown.note = [cut, shown.note].compactMap { $0 }.joined(separator: "; ") }
        return shown
    }

    /// `image` in the screen's colours, with a note when the file's colour was ignored.
    private func converted(_ image: PixelImage, _ embedded: EmbeddedColour) -> PixelImage {
        var image = image
        image.note = colour.convert(&image, from: embedded)
        return image
    }

    /// The DCT scale a JPEG in `bytes` is decoded at for `box`, and its target size in
    /// stored axes; nil when it is not a readable JPEG.
    public func jpegPlan(_ bytes: [UInt8], box: Size) -> (scale: DCTScale, target: (width: Int, height: Int))? {
        guard let stored = bytes.withUnsafeBytes({ try? JPEGCodec.size($0, path: "") }) else { return nil }
        return jpegPlan(stored: stored, orientation: ExifOrientation.read(jpeg: bytes), box: box)
    }

    /// Fits the upright picture, then gives that size in stored axes and the smallest DCT
    /// scale that covers it.
    private func jpegPlan(stored: (width: Int, height: Int), orientation: ExifOrientation,
                          box: Size) -> (scale: DCTScale, target: (width: Int, height: Int)) {
        let upright = orientation.swapsAxes ? Size(width: Double(stored.height), height: Double(stored.width))
                                            : Size(width: Double(stored.width), height: Double(stored.height))
        let fitted = AspectFit.size(of: upright, in: box)
        let target = orientation.swapsAxes ? (Int(fitted.height), Int(fitted.width)) : (Int(fitted.width), Int(fitted.height))
        return (dctScaling ? DCTScale.choose(source: stored, target: target) : .full, target)
    }

    /// A JPEG fitted in the file's stored axes while it decodes, then turned upright by its
    /// EXIF orientation and converted to the screen's colours (CMYK through its profile).
    /// `markers`: the file's bytes up to its first scan at least (EXIF, ICC).
    private func decodeJPEG(_ bytes: UnsafeRawBufferPointer, markers: [UInt8], box: Size, path: String) throws(ImageError) -> PixelImage {
        let frame = try JPEGCodec.frame(bytes, path: path)
        try checkSize(width: frame.width, height: frame.height, path: path)
        let orientation = ExifOrientation.read(jpeg: markers)
        let (scale, target) = jpegPlan(stored: (frame.width, frame.height), orientation: orientation, box: box)
        var image = try decodeJPEG(bytes, isCMYK: frame.isCMYK, markers: markers, scale: scale, target: target,
                                   crop: nil, path: path).oriented(orientation)
        image.fullSize = orientation.swapsAxes ? Size(width: Double(frame.height), height: Double(frame.width))
                                               : Size(width: Double(frame.width), height: Double(frame.height))
        return image
    }

    /// A JPEG (or `crop` of it) decoded at `scale` to `target` in its stored axes and
    /// converted to the screen's colours: an RGB picture as the fitted rows come, while
    /// libjpeg decodes the next ones; a CMYK one after, through its CMYK profile.
    private func decodeJPEG(_ bytes: UnsafeRawBufferPointer, isCMYK: Bool, markers: [UInt8], scale: DCTScale,
                            target: (width: Int, height: Int), crop: JPEGCodec.Crop?, path: String) throws(ImageError) -> PixelImage {
        let embedded = ICCExtraction.jpeg(markers)
        let conversion = isCMYK ? ColourConverter.Conversion(note: nil) : colour.conversion(from: embedded)
        let decoded = try JPEGCodec.decode(bytes, scale: scale, target: target, crop: crop, path: path, partial: showsPartial,
                                           finishRows: conversion.changesPixels ? { conversion.apply($0, count: $1) } : nil)
        // What to say once of it: that it is cut short, and what of its colours was ignored.
        func noted(_ note: String?) -> String? {
            let said = [decoded.truncation, note].compactMap { $0 }
            return said.isEmpty ? nil : said.joined(separator: "; ")
        }
        if decoded.isCMYK {
            var (image, note) = colour.rgba(fromCMYK: decoded.image, inverted: decoded.isInverted, profile: embedded)
            image.note = noted(note)
            return image
        }
        var image = decoded.image
        if !decoded.rowsFinished { conversion.apply(to: &image) }
        image.note = noted(conversion.note)
        return image
    }

    private func checkSize(width: Int, height: Int, path: String) throws(ImageError) {
        guard width > 0, height > 0 else { throw ImageError(path: path, reason: "has no pixels (\(width)x\(height))") }
        let pixels = width.multipliedReportingOverflow(by: height)
        if pixels.overflow || pixels.partialValue > maxPixels {
            throw ImageError(path: path, reason: "claims \(width)x\(height) pixels, over the \(Self.megapixels(maxPixels)) megapixel limit")
        }
    }

    static func megapixels(_ n: Int) -> String {
        n % 1_000_000 == 0 ? "\(n / 1_000_000)" : String(Double(n) / 1e6)
    }
}
