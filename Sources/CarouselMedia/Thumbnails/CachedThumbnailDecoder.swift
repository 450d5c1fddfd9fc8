import CarouselCore

/// Decodes a picture's thumbnail from the cache, if one made from the file as it is now is
/// there (by the wall, or by the machine's file manager), and nothing else: a picture
/// without one fails at once, without a decode. What the carousel shows, blurred, while a
/// picture decodes at full size. The thumbnail is decoded through `inner`, the isolated
/// helpers: a file in the cache is a file from outside like any other.
public struct CachedThumbnailDecoder: ImageDecoding {
    public let inner: any ImageDecoding
    public let cache: ThumbnailCache
    /// The sizes looked for, in order: the standard's 512 px first (sharp enough, cheap).
    public static let sizes: [ThumbnailCache.Size] = [.xLarge, .large, .xxLarge]

    public init(inner: any ImageDecoding, cache: ThumbnailCache) {
        self.inner = inner
        self.cache = cache
    }

    public func decode(_ source: ImageSource, fittingIn box: Size) throws(ImageError) -> PixelImage {
        guard let stamp = source.stamp ?? FileStamp.of(source.path),
              let thumbnail = Self.sizes.lazy.compactMap({ cache.lookUp(source.path, stamp: stamp, size: $0, counting: false) }).first
        else { throw ImageError(path: source.path, reason: "has no thumbnail in the cache") }
        return try inner.decode(ImageSource(path: thumbnail, title: source.title), fittingIn: box)
    }

    /// The helpers belong to the view's own loading.
    public func stop() {}
}
