import CarouselCore

/// Decoding through the thumbnail cache, for views that show pictures small (the wall's
/// tiles): a valid thumbnail is decoded instead of the picture (a 512 px PNG instead of a
/// 24 MP JPEG); otherwise the picture is decoded at the thumbnail's size, kept in the
/// cache, and fitted. Both decodes go through `inner`, the isolated helpers: a thumbnail in
/// the cache is a file from outside like any other.
public struct ThumbnailingDecoder: ImageDecoding {
    public let inner: any ImageDecoding
    public let cache: ThumbnailCache
    /// The smallest thumbnail size used: the column's width. A picture whose tile needs more
    /// (a portrait in a tile up to one and a half columns high) uses a larger size.
    public let size: ThumbnailCache.Size

    public init(inner: any ImageDecoding, cache: ThumbnailCache, size: ThumbnailCache.Size) {
        self.inner = inner
        self.cache = cache
        self.size = size
    }

    public func decode(_ source: ImageSource, fittingIn box: Size) throws(ImageError) -> PixelImage {
        guard let stamp = source.stamp ?? FileStamp.of(source.path) else { return try inner.decode(source, fittingIn: box) }
        let size = Self.size(for: source.path, in: box, atLeast: size)
        if let thumbnail = cache.find(source.path, stamp: stamp, size: size),
           var image = try? inner.decode(ImageSource(path: thumbnail.file, title: source.title), fittingIn: box) {
            // An animation's thumbnail is a still: the picture it was made from moves.
            image.motion = thumbnail.animated ? .frames : nil
            return image
        }
        let side = Double(size.rawValue)
        let made = try inner.decode(source, fittingIn: Size(width: side, height: side))
        cache.store(made, for: source.path, stamp: stamp, size: size)
        // Fitted as the thumbnail will be next time (scaled up too, should it be smaller),
        // so a tile looks the same made or read from the cache.
        let fitted = AspectFit.size(of: Size(width: Double(made.width), height: Double(made.height)), in: box)
        guard Int(fitted.width) != made.width || Int(fitted.height) != made.height else { return made }
        var resized = ImageScaler.resize(made, width: Int(fitted.width), height: Int(fitted.height))
        resized.motion = made.motion
        return resized
    }

    /// The thumbnail size for the picture at `path` fitted into `box`: the smallest whose
    /// thumbnails cover the fitted picture's longer side, judged from the file's header
    /// (`smallest` when it cannot be read), and never below `smallest`.
    static func size(for path: String, in box: Size, atLeast smallest: ThumbnailCache.Size) -> ThumbnailCache.Size {
        guard let aspect = SizeReader.aspect(of: path) else { return smallest }
        let fitted = AspectFit.size(of: Size(width: 1, height: aspect), in: box)
        let needed = ThumbnailCache.Size.atLeast(max(fitted.width, fitted.height))
        return needed.rawValue > smallest.rawValue ? needed : smallest
    }

    public func stop() { inner.stop() }
}
