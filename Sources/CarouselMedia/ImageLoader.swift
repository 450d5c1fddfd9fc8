import CarouselCore

/// Decodes an image and fits it to the size it will be drawn at, so the renderer only
/// uploads it. Synchronous for now; the image pipeline moves this onto worker threads.
public struct ImageLoader: Sendable {
    /// Largest image accepted, in pixels: a guard against files that would exhaust memory.
    public var maxPixels: Int = 100_000_000

    public init() {}

    /// The image at `source`, aspect-fitted to `box`, in device pixels.
    public func load(_ source: ImageSource, fittingIn box: Size) throws(ImageError) -> PixelImage {
        let decoded = try SDLImageCodec.decode(path: source.path)
        guard decoded.width > 0, decoded.height > 0 else {
            throw ImageError(path: source.path, reason: "has no pixels")
        }
        guard decoded.width * decoded.height <= maxPixels else {
            throw ImageError(path: source.path, reason: "is \(decoded.width)x\(decoded.height), over the \(maxPixels / 1_000_000) MP limit")
        }
        let fitted = AspectFit.size(of: decoded.size, in: box)
        return ImageScaler.resize(decoded, width: Int(fitted.width), height: Int(fitted.height))
    }
}
