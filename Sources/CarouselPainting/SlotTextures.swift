import CarouselCore
import CarouselSDL
import CarouselClock

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

    /// One slot: its texture and what it holds.
    struct Slot {
        let texture: SDLTexture
        var content = Content.empty
        /// The placeholder's label, made once per assignment.
        var label: SDLTexture?
        /// Shows a stand-in (a thumbnail, drawn scaled up) until its image comes.
        var isPreview = false
        /// Its image has no transparent pixel: drawn, it hides what is under it.
        var isOpaque = false
        /// The whole picture's size behind the image, when the decoder said it.
        var fullSize: Size?
        /// Uploads into it so far: which picture a copy was made of.
        var version = 0
        /// Its backdrop (`--fill`): a small texture drawn scaled up, smoothly, made once
        /// the slot has one and reused after; and what of it is shown, with its average colour.
        var backdrop: SDLTexture?
        var backdropShown: (size: (width: Int, height: Int), average: Color)?

        init(texture: SDLTexture) { self.texture = texture }
    }

    private let renderer: SDLRenderer
    private var slots: [Slot] = []
    /// What each slot shows, by slot (a new array: `content(_:)` for one slot).
    public var contents: [Content] { slots.map(\.content) }
    /// What `slot` shows.
    public func content(_ slot: Int) -> Content { slots[slot].content }
    /// Slots made.
    public var count: Int { slots.count }
    /// A crossfade's copy of one slot's picture (`opaqueCopy`), and of which upload.
    private var fadeCopy: (slot: Int, version: Int, texture: SDLTexture)?
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
        if sameSize && count == slots.count { return }
        var textures = sameSize ? slots.map(\.texture) : []
        while textures.count > count { textures.removeLast() }
        while textures.count < count {
            textures.append(try renderer.makeTexture(width: width, height: height))
            texturesCreated += 1
        }
        slotSize = (width, height)
        slots = textures.map(Slot.init)
        fadeCopy = nil
    }

    /// The slot now shows `source`, not yet decoded.
    public func assign(_ slot: Int, _ source: ImageSource) {
        slots[slot].content = .loading(source)
        slots[slot].label = nil
        slots[slot].isPreview = false
    }

    /// Told how long each upload took, seconds (the benchmark listens; nobody else does).
    public var uploadObserver: ((Double) -> Void)?

    /// Whether the slot's image (its own or a stand-in) has no transparent pixel.
    public func isOpaque(_ slot: Int) -> Bool { slots.indices.contains(slot) && slots[slot].isOpaque }

    /// Whether the slot shows a stand-in, not yet its image.
    public func isPreview(_ slot: Int) -> Bool { slots.indices.contains(slot) && slots[slot].isPreview }

    /// The whole picture's size behind the slot's image, when known.
    public func fullSize(_ slot: Int) -> Size? { slots.indices.contains(slot) ? slots[slot].fullSize : nil }

    /// Shows `image` (a smaller version: a thumbnail) until the slot's own image comes.
    public func fillPreview(_ slot: Int, with image: PixelImage) throws(SDLError) {
        guard case .loading = slots[slot].content else { return }
        try fill(slot, with: image)
        slots[slot].isPreview = true
    }

    public func fill(_ slot: Int, with image: PixelImage) throws(SDLError) {
        let source: ImageSource
        switch slots[slot].content {
        case .loading(let s): source = s
        case .loaded(let s, _, _) where slots[slot].isPreview: source = s
        default: return
        }
        slots[slot].isPreview = false
        let texture = slots[slot].texture
        // An image fitted for another slot size is a bug upstream; a kiosk shows the
        // placeholder rather than stop.
        guard image.width <= texture.width, image.height <= texture.height else { return }
        let started = uploadObserver == nil ? 0 : LoopClock.system.now()
        try texture.update(with: image)
        texture.setBlending(!image.isOpaque)
        slots[slot].isOpaque = image.isOpaque
        slots[slot].fullSize = image.fullSize
        slots[slot].version += 1
        slots[slot].backdropShown = nil
        if let b = image.backdrop {
            let side = BlurredBackdropSide.side
            if slots[slot].backdrop.map({ $0.width < side || $0.height < side }) ?? true {
                let t = try renderer.makeTexture(width: BlurredBackdropSide.side, height: BlurredBackdropSide.side)
                t.setSmoothScaling()
                slots[slot].backdrop = t
            }
            if b.width <= BlurredBackdropSide.side, b.height <= BlurredBackdropSide.side {
                try slots[slot].backdrop?.update(with: b.image)
                slots[slot].backdropShown = ((b.width, b.height), Color(r: b.average.r, g: b.average.g, b: b.average.b))
            }
        }
        if let observer = uploadObserver { observer(LoopClock.system.now() - started) }
        uploads += 1
        slots[slot].content = .loaded(source, width: image.width, height: image.height)
    }

    public func fail(_ slot: Int) {
        let source: ImageSource
        switch slots[slot].content {
        case .loading(let s): source = s
        case .loaded(let s, _, _) where slots[slot].isPreview: source = s
        default: return
        }
        slots[slot].content = .failed(source)
        slots[slot].label = nil
        slots[slot].isPreview = false
    }

    /// Drops every texture, for a lost rendering device; `configure` makes them again.
    public func reset() {
        slots.removeAll()
        fadeCopy = nil
        slotSize = (0, 0)
    }

    func texture(_ slot: Int) -> SDLTexture { slots[slot].texture }

    /// The slot's picture (its own or a stand-in) and its size in the texture's corner;
    /// nil while it loads or when it failed.
    public func picture(_ slot: Int) -> ShownPicture? {
        guard slots.indices.contains(slot), case .loaded(_, let w, let h) = slots[slot].content else { return nil }
        return ShownPicture(texture: slots[slot].texture, width: w, height: h)
    }

    /// The slot's opaque picture copied once into a texture without an alpha channel: drawn
    /// translucent (a crossfade), the software renderer blends it at one alpha for all its
    /// pixels, a fast path, where a texture with an alpha channel takes the slow general one
    /// (10 ms for a 1150×860 picture). Made at the size it is drawn (`size`), so that it is
    /// never scaled while it fades (scaling and blending take the slow path again). Nil for
    /// a picture with transparent pixels.
    public func opaqueCopy(_ slot: Int, size: (width: Int, height: Int)) -> SDLTexture? {
        guard let picture = picture(slot), isOpaque(slot), size.width > 0, size.height > 0 else { return nil }
        if let c = fadeCopy, c.slot == slot, c.version == slots[slot].version, c.texture.width == size.width,
           c.texture.height == size.height { return c.texture }
        // The last fade's texture is filled again when it has the size: pictures of one
        // shape fade one after another without a new 4 MB texture each time.
        let reused = fadeCopy.flatMap { $0.texture.width == size.width && $0.texture.height == size.height ? $0.texture : nil }
        fadeCopy = nil
        guard let copy = reused ?? (try? SDLTexture(renderer: renderer, width: size.width, height: size.height,
                                                    target: true, withoutAlpha: true)) else { return nil }
        renderer.copy(picture.texture, width: picture.width, height: picture.height, into: copy)
        fadeCopy = (slot, slots[slot].version, copy)
        return copy
    }

    /// How many pictures the slot has had uploaded: what it shows changed when this did.
    public func version(_ slot: Int) -> Int { slots.indices.contains(slot) ? slots[slot].version : -1 }

    /// The slot's backdrop texture, the size of the backdrop in its corner, and its average colour.
    func backdrop(_ slot: Int) -> (texture: SDLTexture, size: (width: Int, height: Int), average: Color)? {
        guard slots.indices.contains(slot), let shown = slots[slot].backdropShown, let t = slots[slot].backdrop else { return nil }
        return (t, shown.size, shown.average)
    }

    /// The slot's placeholder label, made once per assignment.
    func label(_ slot: Int, text: TextRenderer?, color: Color, maxWidth: Int) -> SDLTexture? {
        if let l = slots[slot].label { return l }
        let title: String
        switch slots[slot].content {
        case .loading(let s): title = s.title
        case .failed(let s): title = "⚠ " + s.title
        case .empty, .loaded: return nil
        }
        let made = text?.texture(title, color: color, maxWidth: maxWidth, renderer: renderer)
        slots[slot].label = made
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
