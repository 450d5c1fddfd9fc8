import CarouselCore

/// Decoding through the thumbnail cache, for views that show pictures small (the wall's
/// tiles): a valid thumbnail is decoded instead of the picture (a 512 px PNG instead of a
/// 24 MP JPEG); otherwise the picture is decoded at the thumbnail's size, kept in the
/// cache, and fitted. Both decodes go through `inner`, the isolated helpers: a thumbnail in
/// the cache is a file from outside like any other.
public struct ThumbnailingDecoder: ImageDecoding {
    public let inner: any ImageDecoding
    public let cache: ThumbnailCache
    public let size: ThumbnailCache.Size

    public init(inner: any ImageDecoding, cache: ThumbnailCache, size: ThumbnailCache.Size) {
        self.inner = inner
        self.cache = cache
        self.size = size
    }

    public func decode(_ source: ImageSource, fittingIn box: Size) throws(ImageError) -> PixelImage {
        guard let stamp = source.stamp ?? FileStamp.of(source.path) else { return try inner.decode(source, fittingIn: box) }
        if let thumbnail = cache.lookUp(source.path, stamp: stamp, size: size),
           let image = try? inner.decode(ImageSource(path: thumbnail, title: source.title), fittingIn: box) {
            return image
        }
        let side = Double(size.rawValue)
        let made = try inner.decode(source, fittingIn: Size(width: side, height: side))
        cache.store(made, for: source.path, stamp: stamp, size: size)
        let fitted = AspectFit.size(of: Size(width: Double(made.width), height: Double(made.height)), in: box)
        guard Int(fitted.width) < made.width || Int(fitted.height) < made.height else { return made }
        return ImageScaler.resize(made, width: Int(fitted.width), height: Int(fitted.height))
    }

    public func stop() { inner.stop() }
}
