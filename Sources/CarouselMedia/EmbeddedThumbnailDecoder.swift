import CarouselCore

/// Decodes only the small picture a file carries inside it (`EmbeddedThumbnail`), in the
/// isolated helpers: what a wall's tile shows while its own thumbnail is made or read. A
/// picture without one, a clip and a web picture fail at once.
public struct EmbeddedThumbnailDecoder: ImageDecoding {
    public let helpers: IsolatedDecoder

    public init(helpers: IsolatedDecoder) { self.helpers = helpers }

    public func decode(_ source: ImageSource, fittingIn box: Size) throws(ImageError) -> PixelImage {
        guard !ImageSource.isRemote(source.path) else { throw ImageError(path: source.path, reason: "is on the web: no embedded thumbnail read") }
        return try helpers.decodeEmbeddedThumbnail(source, fittingIn: box)
    }

    /// The helpers belong to the view's own loading.
    public func stop() {}
}
