import CarouselCore
import CarouselMedia
import CarouselSDL
import CarouselPainting

/// `--background-image FILE`: a picture behind everything, scaled to cover the screen.
/// Decoded once, at start, through a decoder helper like any picture (it is a file from
/// outside too), at the size that covers the screen; one that cannot be shown is said once
/// and the background colour stays.
enum BackgroundImage {
    static func load(_ path: String, viewport: Size, decoder settings: IsolatedDecoder.Settings,
                     renderer: SDLRenderer) -> SDLTexture? {
        // The box the picture must fill: its shape from the header, else the screen's.
        let aspect = SizeReader.aspect(of: path) ?? viewport.height / max(viewport.width, 1)
        let box = aspect > viewport.height / max(viewport.width, 1)
            ? Size(width: viewport.width, height: (viewport.width * aspect).rounded(.up))
            : Size(width: (viewport.height / aspect).rounded(.up), height: viewport.height)
        let decoder = IsolatedDecoder(settings, helpers: 1, warn: { Log.warn($0) })
        defer { decoder.stop() }
        do {
            let image = try decoder.decode(ImageSource(path: path), fittingIn: box)
            let texture = try renderer.makeTexture(width: image.width, height: image.height)
            try texture.update(with: image)
            texture.setBlending(!image.isOpaque)
            return texture
        } catch let e as ImageError {
            Log.warn("--background-image \(path): \(e.reason); the background colour shows instead")
        } catch {
            Log.warn("--background-image \(path): \(error); the background colour shows instead")
        }
        return nil
    }
}

extension ViewOptions {
    /// The painter these options ask for: their style, `text`, and the background picture
    /// decoded for `viewport` through a helper run as `decoder` says.
    public func painter(text: TextRenderer?, renderer: SDLRenderer, viewport: Size, decoder: IsolatedDecoder.Settings) -> FramePainter {
        var painter = FramePainter(style: style, text: text)
        painter.backdrop = backgroundImage.flatMap {
            BackgroundImage.load($0, viewport: viewport, decoder: decoder, renderer: renderer)
        }
        return painter
    }
}
