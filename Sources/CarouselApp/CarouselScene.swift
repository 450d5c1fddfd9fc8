import CarouselCore
import CarouselMedia
import CarouselSDL

/// The engine, its slot textures and the images behind them, wired together: what both
/// `carousel render` and the interactive app draw. Lives on the main thread.
public final class CarouselScene {
    public private(set) var carousel: Carousel
    public let sources: [ImageSource]
    public let slots: SlotTextures
    public var painter: FramePainter
    private let loader: ImageLoader
    private let log: EventLog?
    /// Files that failed, with the reason: each is reported once and not decoded again.
    private var failures: [String: String] = [:]
    /// Called with one line for each image that cannot be shown.
    public var warn: (String) -> Void
    /// The clock reading that is t_ms 0 in the event log.
    private let timeOrigin: Double
    /// Shown instead of the strip when there are no images.
    public var emptyMessage = "No images found"

    public init(sources: [ImageSource], viewport: Size, settings: CarouselSettings, startIndex: Int,
                renderer: SDLRenderer, painter: FramePainter, log: EventLog?, time: Double,
                warn: @escaping (String) -> Void) throws(SDLError) {
        self.timeOrigin = time
        self.sources = sources
        self.carousel = Carousel(itemCount: sources.count, viewport: viewport, settings: settings,
                                 startIndex: startIndex, time: time)
        self.slots = SlotTextures(renderer: renderer)
        self.painter = painter
        self.loader = ImageLoader()
        self.log = log
        self.warn = warn
        try update()
    }

    public func handle(_ input: CarouselInput) throws(SDLError) {
        if case .resize(let size, let t) = input {
            log?.record(timeMs: ms(t), type: "resize",
                        ["width": .int(Int(size.width)), "height": .int(Int(size.height))])
        }
        carousel.handle(input)
        try update()
    }

    public func advance(to time: Double) throws(SDLError) {
        carousel.advance(to: time)
        try update()
    }

    /// Draws the current frame into the renderer's current target.
    public func draw(on renderer: SDLRenderer) {
        if carousel.itemCount == 0 {
            painter.drawMessage(emptyMessage, viewport: carousel.layout.viewport, on: renderer)
        } else {
            painter.draw(carousel.visibleItems, slots: slots, on: renderer)
        }
    }

    /// Makes every slot texture again and refills it, after the renderer lost them.
    public func rebuildTextures(time: Double) throws(SDLError) {
        slots.reset()
        try handle(.resize(carousel.layout.viewport, time: time))
    }

    /// The size, in pixels, that images are fitted to: the item box less its border.
    public var imageBoxSize: Size {
        painter.style.imageBox(for: Rect(x: 0, y: 0, width: carousel.layout.itemSize.width,
                                         height: carousel.layout.itemSize.height)).size
    }

    /// Logs the engine's events and fills the slots it reassigned.
    private func update() throws(SDLError) {
        var rebuilt = false
        for e in carousel.takeEvents() {
            if case .pool = e.kind { rebuilt = true }
            log?.record(e, timeMs: ms(e.time)) { [sources] i in sources.indices.contains(i) ? sources[i].path : "" }
        }
        if rebuilt {
            let box = imageBoxSize
            try slots.configure(count: carousel.slotCount, width: Int(box.width), height: Int(box.height))
        }
        for change in carousel.takeSlotChanges() where sources.indices.contains(change.item) {
            let source = sources[change.item]
            slots.assign(change.slot, source)
            try load(source, into: change.slot)
        }
    }

    private func load(_ source: ImageSource, into slot: Int) throws(SDLError) {
        if failures[source.path] != nil { slots.fail(slot); return }
        do {
            let image = try loader.load(source, fittingIn: imageBoxSize)
            try slots.fill(slot, with: image)
        } catch let e as ImageError {
            failures[source.path] = e.reason
            log?.record(timeMs: ms(carousel.time), type: "load_failed",
                        ["source": .string(source.path), "reason": .string(e.reason)])
            warn("\(source.path): \(e.reason)")
            slots.fail(slot)
        } catch let e as SDLError {
            throw e
        } catch {
            slots.fail(slot)
        }
    }

    private func ms(_ seconds: Double) -> Int { Int(((seconds - timeOrigin) * 1000).rounded()) }
}
