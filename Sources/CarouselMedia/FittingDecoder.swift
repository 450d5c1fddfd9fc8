import CarouselCore
import Glibc

/// Turns a file into what a slot shows. Workers call it off the render thread, and tests
/// inject slow or counting decoders through it.
public protocol ImageDecoding: Sendable {
    /// The image at `source`, upright and aspect-fitted to `box`, in device pixels.
    func decode(_ source: ImageSource, fittingIn box: Size) throws(ImageError) -> PixelImage
    /// Ends whatever the decoder keeps running (helper processes); decodes under way fail.
    func stop()
}

extension ImageDecoding {
    public func stop() {}
}

/// The real decoder: reads the file, refuses oversized headers before allocating, decodes
/// JPEGs at the smallest DCT scale that still covers the box (seed 002: a 24 MP photo is
/// 96 MB decoded) and turns them upright by EXIF, PNGs row by row and WebPs scaled while
/// decoding, GIF's first frame through giflib and the rarer formats through SDL_image,
/// then area-averages down to the fitted size. Runs in a decoder helper (`IsolatedDecoder`);
/// in the main process only in tests and `carousel bench`'s in-process comparison.
public struct FittingDecoder: ImageDecoding {
    /// Largest image accepted, in pixels: a guard against files that would exhaust memory.
    public var maxPixels: Int
    /// Off only to measure what DCT scaling saves.
    public var dctScaling: Bool

    public init(maxPixels: Int = 100_000_000, dctScaling: Bool = true) {
        self.maxPixels = maxPixels
        self.dctScaling = dctScaling
    }

    public func decode(_ source: ImageSource, fittingIn box: Size) throws(ImageError) -> PixelImage {
        try decode(ImageFile.read(source.path), name: source.path, fittingIn: box)
    }

    /// The image in the open file `fd`, upright and fitted to `box`; `name` names it in
    /// errors. A PNG is read as it decodes; other formats are read whole first.
    public func decode(file fd: Int32, name: String, fittingIn box: Size) throws(ImageError) -> PixelImage {
        var head = [UInt8](repeating: 0, count: 24)
        let n = head.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
        let header = ImageHeader.read(Array(head.prefix(max(0, n))))
        if header.format == .png, let w = header.width, let h = header.height {
            try checkSize(width: w, height: h, path: name)
            return try PNGCodec.decode(file: fd, fittingIn: box, path: name)
        }
        return try decode(ImageFile.read(fd, name: name), name: name, fittingIn: box)
    }

    /// The encoded image `bytes`, upright and fitted to `box`; `name` names it in errors.
    /// What a decoder helper runs.
    public func decode(_ bytes: [UInt8], name path: String, fittingIn box: Size) throws(ImageError) -> PixelImage {
        let header = ImageHeader.read(bytes)
        if let w = header.width, let h = header.height {
            try checkSize(width: w, height: h, path: path)
        }
        // The common formats through their reference libraries, fitted while decoding where
        // the library can; the rarer ones through SDL_image at full size.
        let upright: PixelImage
        switch header.format {
        case .jpeg:
            if let w = header.width, let h = header.height {
                upright = try decodeJPEG(bytes, stored: (w, h), box: box, path: path)
            } else {
                // No frame header: libturbojpeg says what is wrong.
                upright = try TurboJPEGCodec.decode(bytes, scale: .full, path: path)
            }
        case .png: upright = try PNGCodec.decode(bytes, fittingIn: box, path: path)
        case .webp: upright = try WebPCodec.decode(bytes, fittingIn: box, path: path)
        case .gif: upright = try GIFCodec.decode(bytes, path: path)
        default:
            upright = try SDLImageCodec.decode(bytes, path: path)
            try checkSize(width: upright.width, height: upright.height, path: path)
        }
        guard upright.width > 0, upright.height > 0 else { throw ImageError(path: path, reason: "has no pixels") }
        let fitted = AspectFit.size(of: upright.size, in: box)
        return ImageScaler.resize(upright, width: Int(fitted.width), height: Int(fitted.height))
    }

    private func decodeJPEG(_ bytes: [UInt8], stored: (width: Int, height: Int), box: Size,
                            path: String) throws(ImageError) -> PixelImage {
        let orientation = ExifOrientation.read(jpeg: bytes)
        // Fit the upright picture, then ask the decoder for that size in stored axes.
        let upright = orientation.swapsAxes ? Size(width: Double(stored.height), height: Double(stored.width))
                                            : Size(width: Double(stored.width), height: Double(stored.height))
        let fitted = AspectFit.size(of: upright, in: box)
        let target = orientation.swapsAxes ? (Int(fitted.height), Int(fitted.width)) : (Int(fitted.width), Int(fitted.height))
        let scale = dctScaling ? DCTScale.choose(source: stored, target: target) : .full
        return try TurboJPEGCodec.decode(bytes, scale: scale, path: path).oriented(orientation)
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
