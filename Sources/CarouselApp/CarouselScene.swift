import CarouselCore
import CarouselMedia
import CarouselSDL

/// The carousel view: its engine (the strip's layout and paging physics), the shared image
/// pipeline behind its slots, and the painter. What both `carousel render` and the
/// interactive app draw. Lives on the main thread.
public final class CarouselScene: OpenedScene {
    public private(set) var carousel: Carousel
    public let pipeline: ImagePipeline
    public var painter: FramePainter
    private var passes = PassShuffle.Tracker()
    /// Shown instead of the strip when there are no images.
    public var emptyMessage = "No images found"
    /// Under `high`, only the slot pool's images are kept and nothing is prefetched.
    public private(set) var memoryPressure = MemoryPressureLevel.normal

    public init(sources: [ImageSource], viewport: Size, settings: CarouselSettings, startIndex: Int,
                renderer: SDLRenderer, painter: FramePainter, loading: ImageLoading, log: EventLog?, time: Double,
                timeOrigin: Double? = nil, warn: @escaping (String) -> Void) throws(SDLError) {
        self.carousel = Carousel(itemCount: sources.count, viewport: viewport, settings: settings,
                                 startIndex: startIndex, time: time)
        self.pipeline = ImagePipeline(sources: sources, loading: loading, renderer: renderer, log: log,
                                      timeOrigin: timeOrigin ?? time, warn: warn)
        self.painter = painter
        try update()
    }

    public var sources: [ImageSource] { pipeline.sources }
    public var slots: SlotTextures { pipeline.slots }
    public var feed: ImageFeed { pipeline.feed }
    public var viewport: Size { carousel.layout.viewport }
    public var isAnimating: Bool { carousel.isAnimating }
    public var isInteracting: Bool { carousel.isInteracting }
    public var nextScheduledTime: Double? { carousel.nextScheduledTime }
    public var currentIndex: Int? { carousel.currentIndex }
    public var time: Double { carousel.time }

    public func handle(_ input: ViewInput) throws(SDLError) {
        if case .resize(let size, let t) = input { pipeline.recordResize(size, at: t) }
        carousel.handle(input)
        try update()
    }

    public func advance(to time: Double) throws(SDLError) {
        carousel.advance(to: time)
        try update()
    }

    public func draw(on renderer: SDLRenderer) {
        if carousel.itemCount == 0 {
            painter.drawMessage(emptyMessage, viewport: carousel.layout.viewport, on: renderer)
        } else {
            painter.draw(carousel.visibleItems, slots: slots, viewport: carousel.layout.viewport,
                         overlay: overlay, on: renderer)
        }
    }

    public func apply(_ change: SceneChange) throws(SDLError) {
        switch change {
        case .catalog(let new, let t): try replaceCatalog(new, time: t)
        case .screenOff(let t): pipeline.screenTurnedOff(at: t)
        case .screenOn(let t, let reason): try screenTurnedOn(at: t, reason: reason)
        case .texturesLost(let t): try rebuildTextures(time: t)
        case .memoryPressure(let level, let t): try setMemoryPressure(level, time: t)
        case .back: break
        }
    }

    /// Shows `new` instead of the current images: the centred picture stays centred if it
    /// is still there (matched by path), else its place does. Decoded images follow their
    /// files, so nothing already on screen flashes back to a placeholder. Call it at rest.
    private func replaceCatalog(_ new: [ImageSource], time: Double) throws(SDLError) {
        let current = carousel.currentIndex
        let centred = current.map { sources[$0].path }
        let index = centred.flatMap { p in new.firstIndex { $0.path == p } } ?? min(current ?? 0, max(new.count - 1, 0))
        carousel.advance(to: time)
        recordCatalogChange(from: sources, to: new, at: time)
        pipeline.replaceSources(new)
        carousel.replaceItems(count: new.count, centredOn: index, time: time)
        try update()
    }

    /// The centred item's caption and the page dots, as the style asks.
    private var overlay: Overlay? {
        let style = painter.style
        guard style.captions != .none || style.dots, let current = carousel.currentIndex else { return nil }
        var lines: [String] = []
        if style.captions != .none { lines.append(sources[current].title) }
        if style.captions == .full, let caption = sources[current].caption, !caption.isEmpty { lines.append(caption) }
        return Overlay(lines: lines, opacity: CaptionFade.opacity(at: carousel.position),
                       dots: style.dots ? PageDots.layout(count: carousel.itemCount, current: current) : [])
    }

    /// Opening hours or a touch turned the screen back on: attract mode starts afresh.
    private func screenTurnedOn(at time: Double, reason: String) throws(SDLError) {
        pipeline.screenTurnedOn(at: time, reason: reason)
        carousel.restartAttract(at: time)
        try update()
    }

    /// Makes every slot texture again and refills it, after the renderer lost them
    /// (SDL_RENDER_DEVICE_RESET, SDL_RENDER_TARGETS_RESET). The pool is rebuilt at the same
    /// size, so a `pool` event records it.
    private func rebuildTextures(time: Double) throws(SDLError) {
        slots.reset()
        painter.forgetTextures()
        carousel.handle(.resize(carousel.layout.viewport, time: time))
        try update()
    }

    /// The size, in pixels, that images are fitted to: the item box less its border.
    public var imageBoxSize: Size {
        painter.style.imageBox(for: Rect(x: 0, y: 0, width: carousel.layout.itemSize.width,
                                         height: carousel.layout.itemSize.height)).size
    }

    /// The slots of the pool with the items they show, in strip order.
    private var shown: [(slot: Int, item: Int)] {
        guard let covered = carousel.coveredRange else { return [] }
        return covered.compactMap { v in
            carousel.slot(forVirtualIndex: v).map { ($0, carousel.item(forVirtualIndex: v)) }
        }
    }

    /// Uploads the images the workers finished into the slots showing them, without
    /// waiting. Returns whether any slot changed, so the frame needs drawing.
    @discardableResult
    public func pump() throws(SDLError) -> Bool {
        try pipeline.pump(shown, time: carousel.time)
    }

    /// Put aside behind the wall: nothing decodes and the decoded images are let go; the
    /// slot textures stay, so that opening it again makes none (9 ms of the opening frame
    /// at 1920x1080 with the software renderer).
    public func park() {
        pipeline.park(box: imageBoxSize)
    }

    /// Shown again after `park`, centred on `index` in `viewport`: a fresh engine over the
    /// same slots, logging its `pool` as a new scene would.
    public func reopen(at index: Int, viewport: Size, time: Double) throws(SDLError) {
        carousel = Carousel(itemCount: sources.count, viewport: viewport, settings: carousel.settings,
                            startIndex: index, time: time)
        try update()
    }

    /// Puts stand-ins (`pipeline.standIn`) into the slots still waiting for their image.
    public func showStandIns() throws(SDLError) {
        for (slot, item) in shown {
            if case .loading = slots.contents[slot] { try pipeline.assign(slot, item: item, time: carousel.time) }
        }
    }

    /// Waits until every image asked for, prefetched ones too, has arrived (render only:
    /// a script's memory pressure then finds the same cache on every run).
    public func finishLoading() throws(SDLError) {
        try pipeline.finishLoading({ shown }, time: carousel.time)
    }

    /// Whether images are still being decoded (the loop keeps polling).
    public var isLoading: Bool { pipeline.isLoading }

    /// Logs the engine's events, fills the slots it reassigned from what is ready, and
    /// tells the workers what to decode next.
    private func update() throws(SDLError) {
        var rebuilt = false
        for e in carousel.takeEvents() {
            if case .pool = e.kind { rebuilt = true }
            if case .settled(let index) = e.kind, pipeline.loading.reshufflesEachPass,
               passes.settled(at: index, count: sources.count) {
                reshuffle()
            }
            pipeline.record(e)
        }
        if rebuilt { try pipeline.configure(count: carousel.slotCount, box: imageBoxSize) }
        // Planned first: after a resize the feed forgets the images fitted to the old box,
        // which would not fit the new slots.
        let prefetch = memoryPressure == .high ? 0 : pipeline.loading.prefetch
        pipeline.plan(carousel.loadOrder(prefetch: prefetch), box: imageBoxSize)
        for change in carousel.takeSlotChanges() {
            try pipeline.assign(change.slot, item: change.item, time: carousel.time)
        }
        if pipeline.loading.waitsForImages { try pipeline.waitForSlots({ shown }, time: carousel.time) }
    }

    /// Memory got tight or eased: under pressure the fitted images beyond the slot pool are
    /// dropped (and handed back to the system) and nothing is prefetched until it eases.
    /// Logs one line and a `memory_pressure` event {level, and under `high` cached: the
    /// images still held, dropped: those let go}.
    private func setMemoryPressure(_ level: MemoryPressureLevel, time: Double) throws(SDLError) {
        guard level != memoryPressure else { return }
        memoryPressure = level
        let before = feed.cachedCount
        try update()
        if level == .high {
            FreedMemory.returnToSystem()
            pipeline.record("memory_pressure", at: time, ["level": .string(level.rawValue), "cached": .int(feed.cachedCount),
                                                          "dropped": .int(max(0, before - feed.cachedCount))])
        } else {
            pipeline.record("memory_pressure", at: time, ["level": .string(level.rawValue)])
        }
        pipeline.warn(level == .high
             ? "memory is tight: keeping only the \(feed.cachedCount) images on screen and prefetching nothing until it eases"
             : "memory pressure eased: prefetching again")
    }

    /// A new random order for every item not in the slot pool, so none on screen moves.
    private func reshuffle() {
        let kept = Set(carousel.coveredRange.map { $0.map { carousel.item(forVirtualIndex: $0) } } ?? [])
        var rng = SystemRandomNumberGenerator()
        pipeline.replaceSources(PassShuffle.reshuffle(sources, keeping: kept, using: &rng))
    }

}
