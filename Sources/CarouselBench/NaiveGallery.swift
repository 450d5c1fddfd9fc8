import CarouselApp
import CarouselCore
import CarouselMedia
import CarouselSDL
import CarouselPainting

/// The gallery seed 002 warns against, measured beside ours: every image decoded at full
/// size (no DCT scaling, no fitting) and uploaded as its own texture before the first
/// frame, then drawn scaled down by the renderer. The same engine moves it, so only the
/// image path differs.
final class NaiveGallery: BenchSubject {
    private(set) var carousel: Carousel
    private let style: ViewStyle
    /// Full-size textures by item; nil where an image could not be decoded.
    private var textures: [SDLTexture?] = []

    /// Decodes and uploads every one of `sources`: this is the naive start-up. The decoding
    /// itself goes through a decoder helper at each picture's own size (no format decoder
    /// runs in this process, naive or not).
    init(sources: [ImageSource], viewport: Size, settings: CarouselSettings, style: ViewStyle,
         renderer: SDLRenderer, time: Double, helper: IsolatedDecoder.Settings) throws {
        carousel = Carousel(itemCount: sources.count, viewport: viewport, settings: settings, time: time)
        self.style = style
        var settings = helper
        settings.dctScaling = false
        let decoder = IsolatedDecoder(settings, helpers: 1, warn: { _ in })
        defer { decoder.stop() }
        for s in sources {
            let header = (try? ImageFile.read(s.path)).map(ImageHeader.read)
            guard let w = header?.width, let h = header?.height,
                  let image = try? decoder.decode(s, fittingIn: Size(width: Double(w), height: Double(h)))
            else { textures.append(nil); continue }
            let texture = try renderer.makeTexture(width: image.width, height: image.height)
            try texture.update(with: image)
            texture.setBlending(!image.isOpaque)
            textures.append(texture)
        }
    }

    func handle(_ input: ViewInput) { carousel.handle(input) }
    func advance(to time: Double) { carousel.advance(to: time) }
    func pump() -> Bool { false }
    /// Nothing changes for it: the bench plays no reloads, screens or memory pressure.
    func apply(_ change: SceneChange) {}
    var activity: ViewActivity { ViewActivity(moving: carousel.isAnimating, held: carousel.isInteracting) }
    var itemsWithoutImage: Int { 0 }
    var itemsShowingPreview: Int { 0 }
    var isLoading: Bool { false }
    var gestureStep: (length: Double, axis: Axis) { (carousel.layout.stride, .horizontal) }
    /// Full size: nothing is fitted.
    var pictureBox: Size { carousel.layout.viewport }

    func draw(on renderer: SDLRenderer) {
        renderer.clear(style.background)
        for item in carousel.visibleItems {
            let box = style.imageBox(for: item.frame)
            guard let t = textures[item.item] else {
                renderer.fill(box, style.failedPlaceholder)
                continue
            }
            let r = AspectFit.rect(of: Size(width: Double(t.width), height: Double(t.height)), in: box)
            let border = style.borderWidth(for: item.frame.size)
            if border > 0 {
                renderer.fill(Rect(x: r.minX - border, y: r.minY - border,
                                   width: r.size.width + 2 * border, height: r.size.height + 2 * border), style.borderColor)
            }
            renderer.draw(t, source: (t.width, t.height), in: r)
        }
    }
}
