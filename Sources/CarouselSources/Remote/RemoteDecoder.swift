import CarouselMedia
import CarouselCore

/// Decoding where some sources are web URLs: such a picture is decoded from its cached
/// file, downloaded first if need be (the decode worker waits for it, within the download's
/// own timeouts); a failed download fails the picture with the reason (`HTTP 404`). Local
/// files go straight to `inner`, as do the cached files: the same isolated helpers.
public struct RemoteDecoder: ImageDecoding {
    public let inner: any ImageDecoding
    public let library: RemoteLibrary

    public init(inner: any ImageDecoding, library: RemoteLibrary) {
        self.inner = inner
        self.library = library
    }

    public func decode(_ source: ImageSource, fittingIn box: Size) throws(ImageError) -> PixelImage {
        try decode(source, fittingIn: box, withBackdrop: false)
    }

    public func decode(_ source: ImageSource, fittingIn box: Size, withBackdrop: Bool) throws(ImageError) -> PixelImage {
        guard RemoteURL.isRemote(source.path) else { return try inner.decode(source, fittingIn: box, withBackdrop: withBackdrop) }
        let file = try library.file(for: source.path)
        let local = ImageSource(path: file, title: source.title, caption: source.caption, stamp: FileStamp.of(file))
        do { return try inner.decode(local, fittingIn: box, withBackdrop: withBackdrop) } catch {
            throw ImageError(path: source.path, reason: error.reason)
        }
    }

    public func decode(_ source: ImageSource, part: Rect, fittingIn box: Size) throws(ImageError) -> PixelImage {
        guard RemoteURL.isRemote(source.path) else { return try inner.decode(source, part: part, fittingIn: box) }
        let file = try library.file(for: source.path)
        let local = ImageSource(path: file, title: source.title, caption: source.caption, stamp: FileStamp.of(file))
        do { return try inner.decode(local, part: part, fittingIn: box) } catch {
            throw ImageError(path: source.path, reason: error.reason)
        }
    }

    public func stop() { inner.stop() }
}
