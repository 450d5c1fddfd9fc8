import CSDL2
import CarouselCore

/// One texture per slot of the engine's pool, created for the pool's size and reused as
/// slots are recycled; re-created only when the slot size changes.
public final class SlotTextures {
    /// What a slot shows.
    public enum Content: Equatable {
        case empty
        case loading(ImageSource)
        /// The image's fitted size in the slot texture's top-left corner.
        case loaded(ImageSource, width: Int, height: Int)
        case failed(ImageSource)
    }

    private let renderer: SDLRenderer
    private var textures: [SDLTexture] = []
    public private(set) var contents: [Content] = []
    private var labels: [SDLTexture?] = []
    /// Slots showing a stand-in (a thumbnail, drawn scaled up) until their image comes.
    private var previews: [Bool] = []
    /// Slots whose image has no transparent pixel: drawn, it hides what is under it.
    private var opaque: [Bool] = []
    /// The whole picture's size behind each loaded slot, when the decoder said it.
    private var fullSizes: [Size?] = []
    /// Uploads into each slot so far: which picture a copy was made of.
    private var versions: [Int] = []
    /// A crossfade's copy of one slot's picture (`opaqueCopy`), and of which upload.
    private var fadeCopy: (slot: Int, version: Int, texture: SDLTexture)?
    /// Each slot's backdrop (`--fill`): a small texture drawn scaled up, smoothly, and its
    /// average colour; made once a slot has one, reused after.
    private var backdrops: [SDLTexture?] = []
    private var backdropShown: [(size: (width: Int, height: Int), average: Color)?] = []
    public private(set) var slotSize = (width: 0, height: 0)
    /// Textures created so far: stays at the slot count unless the slot size changes.
    public private(set) var texturesCreated = 0
    /// Image uploads so far.
    public private(set) var uploads = 0

    public init(renderer: SDLRenderer) {
        self.renderer = renderer
    }

    /// Makes `count` slots of `width` × `height`; keeps existing textures when nothing changed.
    public func configure(count: Int, width: Int, height: Int) throws(SDLError) {
        let sameSize = width == slotSize.width && height == slotSize.height
        if sameSize && count == textures.count { return }
        if !sameSize { textures.removeAll() }
        while textures.count > count { textures.removeLast() }
        while textures.count < count {
            textures.append(try renderer.makeTexture(width: width, height: height))
            texturesCreated += 1
        }
        slotSize = (width, height)
        contents = Array(repeating: .empty, count: count)
        labels = Array(repeating: nil, count: count)
        previews = Array(repeating: false, count: count)
        opaque = Array(repeating: false, count: count)
        fullSizes = Array(repeating: nil, count: count)
        versions = Array(repeating: 0, count: count)
        fadeCopy = nil
        backdrops = Array(repeating: nil, count: count)
        backdropShown = Array(repeating: nil, count: count)
    }

    /// The slot now shows `source`, not yet decoded.
    public func assign(_ slot: Int, _ source: ImageSource) {
        contents[slot] = .loading(source)
        labels[slot] = nil
        previews[slot] = false
    }

    /// Told how long each upload took, seconds (the benchmark listens; nobody else does).
    public var uploadObserver: ((Double) -> Void)?

    /// Whether the slot's image (its own or a stand-in) has no transparent pixel.
    public func isOpaque(_ slot: Int) -> Bool { opaque.indices.contains(slot) && opaque[slot] }

    /// Whether the slot shows a stand-in, not yet its image.
    public func isPreview(_ slot: Int) -> Bool { previews.indices.contains(slot) && previews[slot] }

    /// The whole picture's size behind the slot's image, when known.
    public func fullSize(_ slot: Int) -> Size? { fullSizes.indices.contains(slot) ? fullSizes[slot] : nil }

    /// Shows `image` (a smaller version: a thumbnail) until the slot's own image comes.
    public func fillPreview(_ slot: Int, with image: PixelImage) throws(SDLError) {
        guard case .loading = contents[slot] else { return }
        try fill(slot, with: image)
        previews[slot] = true
    }

    public func fill(_ slot: Int, with image: PixelImage) throws(SDLError) {
        let source: ImageSource
        switch contents[slot] {
        case .loading(let s): source = s
        case .loaded(let s, _, _) where previews[slot]: source = s
        default: return
        }
        previews[slot] = false
        // An image fitted for another slot size is a bug upstream; a kiosk shows the
        // placeholder rather than stop.
        guard image.width <= textures[slot].width, image.height <= textures[slot].height else { return }
        let started = uploadObserver == nil ? 0 : SDL_GetPerformanceCounter()
        try textures[slot].update(with: image)
        textures[slot].setBlending(!image.isOpaque)
        opaque[slot] = image.isOpaque
        fullSizes[slot] = image.fullSize
        versions[slot] += 1
        backdropShown[slot] = nil
        if let b = image.backdrop {
            if backdrops[slot] == nil || backdrops[slot]!.width < BlurredBackdropSide.side || backdrops[slot]!.height < BlurredBackdropSide.side {
                let t = try renderer.makeTexture(width: BlurredBackdropSide.side, height: BlurredBackdropSide.side)
                t.setSmoothScaling()
                backdrops[slot] = t
            }
            if b.width <= BlurredBackdropSide.side, b.height <= BlurredBackdropSide.side {
                try backdrops[slot]?.update(with: b.image)
                backdropShown[slot] = ((b.width, b.height), Color(r: b.average.r, g: b.average.g, b: b.average.b))
            }
        }
        if let observer = uploadObserver {
            observer(Double(SDL_GetPerformanceCounter() - started) / Double(SDL_GetPerformanceFrequency()))
        }
        uploads += 1
        contents[slot] = .loaded(source, width: image.width, height: image.height)
    }

    public func fail(_ slot: Int) {
        let source: ImageSource
        switch contents[slot] {
        case .loading(let s): source = s
        case .loaded(let s, _, _) where previews[slot]: source = s
        default: return
        }
        contents[slot] = .failed(source)
        labels[slot] = nil
        previews[slot] = false
    }

    /// Drops every texture, for a lost rendering device; `configure` makes them again.
    public func reset() {
        textures.removeAll()
        contents.removeAll()
        labels.removeAll()
        previews.removeAll()
        opaque.removeAll()
        fullSizes.removeAll()
        versions.removeAll()
        fadeCopy = nil
        backdrops.removeAll()
        backdropShown.removeAll()
        slotSize = (0, 0)
    }

    func texture(_ slot: Int) -> SDLTexture { textures[slot] }

    /// The slot's picture (its own or a stand-in) and its size in the texture's corner;
    /// nil while it loads or when it failed.
    public func picture(_ slot: Int) -> ShownPicture? {
        guard contents.indices.contains(slot), case .loaded(_, let w, let h) = contents[slot] else { return nil }
        return ShownPicture(texture: textures[slot], width: w, height: h)
    }

    /// The slot's opaque picture copied once into a texture without an alpha channel: drawn
    /// translucent (a crossfade), the software renderer blends it at one alpha for all its
    /// pixels, a fast path, where a texture with an alpha channel takes the slow general one
    /// (10 ms for a 1150×860 picture). Made at the size it is drawn (`size`), so that it is
    /// never scaled while it fades (scaling and blending take the slow path again). Nil for
    /// a picture with transparent pixels.
    /// How many pictures the slot has had uploaded: what it shows changed when this did.
    public func version(_ slot: Int) -> Int { versions.indices.contains(slot) ? versions[slot] : -1 }

    public func opaqueCopy(_ slot: Int, size: (width: Int, height: Int)) -> SDLTexture? {
        guard let picture = picture(slot), isOpaque(slot), size.width > 0, size.height > 0 else { return nil }
        if let c = fadeCopy, c.slot == slot, c.version == versions[slot], c.texture.width == size.width,
           c.texture.height == size.height { return c.texture }
        // The last fade's texture is filled again when it has the size: pictures of one
        // shape fade one after another without a new 4 MB texture each time.
        let reused = fadeCopy.flatMap { $0.texture.width == size.width && $0.texture.height == size.height ? $0.texture : nil }
        fadeCopy = nil
        guard let copy = reused ?? (try? SDLTexture(renderer: renderer, width: size.width, height: size.height,
                                                    target: true, withoutAlpha: true)) else { return nil }
        renderer.copy(picture.texture, width: picture.width, height: picture.height, into: copy)
        fadeCopy = (slot, versions[slot], copy)
        return copy
    }

    /// The slot's backdrop texture, the size of the backdrop in its corner, and its average colour.
    func backdrop(_ slot: Int) -> (texture: SDLTexture, size: (width: Int, height: Int), average: Color)? {
        guard backdropShown.indices.contains(slot), let shown = backdropShown[slot], let t = backdrops[slot] else { return nil }
        return (t, shown.size, shown.average)
    }

    /// The slot's placeholder label, made once per assignment.
    func label(_ slot: Int, text: TextRenderer?, color: Color, maxWidth: Int) -> SDLTexture? {
        if let l = labels[slot] { return l }
        let title: String
        switch contents[slot] {
        case .loading(let s): title = s.title
        case .failed(let s): title = "⚠ " + s.title
        case .empty, .loaded: return nil
        }
        let made = text?.texture(title, color: color, maxWidth: maxWidth, renderer: renderer)
        labels[slot] = made
        return made
    }
}

/// The largest backdrop a slot holds (`BlurredBackdrop.side`, which this layer cannot see).
enum BlurredBackdropSide {
    static let side = 64
}

/// A picture in a texture's top-left corner, `width` × `height` pixels of it.
public struct ShownPicture {
    public let texture: SDLTexture
    public let width: Int
    public let height: Int

    public init(texture: SDLTexture, width: Int, height: Int) {
        self.texture = texture
        self.width = width
        self.height = height
    }
}
