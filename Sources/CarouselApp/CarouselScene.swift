import CarouselCore
import CarouselMedia
import CarouselSDL

/// The engine, its slot textures and the images behind them, wired together: what both
/// `carousel render` and the interactive app draw. Lives on the main thread.
public final class CarouselScene {
    public private(set) var carousel: Carousel
    /// How images are loaded: workers, prefetch, reshuffling, waiting.
    public struct Loading {
        public var workers: DecodeWorkers
        /// Items prefetched beyond each end of the slot pool.
        public var prefetch: Int
        /// `--order random`: reshuffle the images off screen at each new pass.
        public var reshufflesEachPass = false
        /// `carousel render`: every update waits until each slot of the pool has its image
        /// or its failure, so frames and events never depend on how fast the workers were.
        public var waitsForImages = false
    }

    public private(set) var sources: [ImageSource]
    private let loading: Loading
    private var passes = PassShuffle.Tracker()
    public let slots: SlotTextures
    public var painter: FramePainter
    public let feed: ImageFeed
    private let log: EventLog?
    /// Files whose failure was reported: each once.
    private var reported: Set<String> = []
    /// Called with one line for each image that cannot be shown.
    public var warn: (String) -> Void
    /// The clock reading that is t_ms 0 in the event log.
    private let timeOrigin: Double
    /// Shown instead of the strip when there are no images.
    public var emptyMessage = "No images found"
    /// Under `high`, only the slot pool's images are kept and nothing is prefetched.
    public private(set) var memoryPressure = MemoryPressureLevel.normal

    public init(sources: [ImageSource], viewport: Size, settings: CarouselSettings, startIndex: Int,
                renderer: SDLRenderer, painter: FramePainter, loading: Loading, log: EventLog?, time: Double,
                timeOrigin: Double? = nil, warn: @escaping (String) -> Void) throws(SDLError) {
        self.timeOrigin = timeOrigin ?? time
        self.sources = sources
        self.carousel = Carousel(itemCount: sources.count, viewport: viewport, settings: settings,
                                 startIndex: startIndex, time: time)
        self.slots = SlotTextures(renderer: renderer)
        self.painter = painter
        self.feed = ImageFeed(sources: sources, workers: loading.workers)
        self.loading = loading
        self.log = log
        self.warn = warn
        try update()
    }

    /// The worker threads hold their pool, so they would outlive a replaced scene.
    deinit { loading.workers.stop() }

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
            painter.draw(carousel.visibleItems, slots: slots, viewport: carousel.layout.viewport,
                         stride: carousel.layout.stride, overlay: overlay, on: renderer)
        }
    }

    /// Logs `catalog_changed` at `time` with how many files came, went and were replaced.
    public func recordCatalogChange(from old: [ImageSource], to new: [ImageSource], at time: Double) {
        let before = Set(old.map(\.path)), after = Set(new.map(\.path))
        let replaced = Set(old.map(\.file)).subtracting(new.map(\.file)).filter { after.contains($0.path) }
        log?.record(timeMs: ms(time), type: "catalog_changed",
                    ["added": .int(after.subtracting(before).count), "removed": .int(before.subtracting(after).count),
                     "replaced": .int(replaced.count)])
    }

    /// Shows `new` instead of the current images: the centred picture stays centred if it
    /// is still there (matched by path), else its place does. Decoded images follow their
    /// files, so nothing already on screen flashes back to a placeholder. Call it at rest.
    public func replaceCatalog(_ new: [ImageSource], time: Double) throws(SDLError) {
        let current = carousel.currentIndex
        let centred = current.map { sources[$0].path }
        let index = centred.flatMap { p in new.firstIndex { $0.path == p } } ?? min(current ?? 0, max(new.count - 1, 0))
        carousel.advance(to: time)
        recordCatalogChange(from: sources, to: new, at: time)
        sources = new
        feed.replaceSources(new)
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

    /// Opening hours: the screen went black at `time`.
    public func screenTurnedOff(at time: Double) {
        log?.record(timeMs: ms(time), type: "screen", ["state": .string("off")])
        // Asleep means no decoding either, also of what was asked for at start.
        feed.stopLoading()
    }

    /// Opening hours or a touch turned the screen back on: attract mode starts afresh.
    public func screenTurnedOn(at time: Double, reason: String) throws(SDLError) {
        log?.record(timeMs: ms(time), type: "screen", ["state": .string("on"), "reason": .string(reason)])
        carousel.restartAttract(at: time)
        try update()
    }

    /// Makes every slot texture again and refills it, after the renderer lost them
    /// (SDL_RENDER_DEVICE_RESET, SDL_RENDER_TARGETS_RESET). The pool is rebuilt at the same
    /// size, so a `pool` event records it.
    public func rebuildTextures(time: Double) throws(SDLError) {
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

    /// Uploads the images the workers finished into the slots showing them, without
    /// waiting. Returns whether any slot changed, so the frame needs drawing.
    @discardableResult
    public func pump() throws(SDLError) -> Bool {
        let ready = Set(feed.collect())
        guard !ready.isEmpty else { return false }
        for v in carousel.coveredRange ?? 0...(-1) where ready.contains(carousel.item(forVirtualIndex: v)) {
            if let slot = carousel.slot(forVirtualIndex: v) { try fill(slot, item: carousel.item(forVirtualIndex: v)) }
        }
        return true
    }

    /// Waits until every slot of the pool has its image or its failure.
    private func waitForSlots() throws(SDLError) {
        try pump()
        while slots.contents.contains(where: { if case .loading = $0 { true } else { false } }) {
            guard feed.isLoading else { break }
            feed.waitForWorkers()
            try pump()
        }
    }

    /// Waits until every image asked for, prefetched ones too, has arrived (render only:
    /// a script's memory pressure then finds the same cache on every run).
    public func finishLoading() throws(SDLError) {
        try pump()
        while feed.isLoading {
            feed.waitForWorkers()
            try pump()
        }
    }

    /// Whether images are still being decoded (the loop keeps polling).
    public var isLoading: Bool { feed.isLoading }

    /// Logs the engine's events, fills the slots it reassigned from what is ready, and
    /// tells the workers what to decode next.
    private func update() throws(SDLError) {
        var rebuilt = false
        for e in carousel.takeEvents() {
            if case .pool = e.kind { rebuilt = true }
            if case .settled(let index) = e.kind, loading.reshufflesEachPass,
               passes.settled(at: index, count: sources.count) {
                reshuffle()
            }
            log?.record(e, timeMs: ms(e.time)) { [sources] i in sources.indices.contains(i) ? sources[i].path : "" }
        }
        if rebuilt {
            let box = imageBoxSize
            try slots.configure(count: carousel.slotCount, width: Int(box.width), height: Int(box.height))
        }
        // Planned first: after a resize the feed forgets the images fitted to the old box,
        // which would not fit the new slots.
        let prefetch = memoryPressure == .high ? 0 : loading.prefetch
        feed.plan(carousel.loadOrder(prefetch: prefetch), box: imageBoxSize)
        for change in carousel.takeSlotChanges() where sources.indices.contains(change.item) {
            slots.assign(change.slot, sources[change.item])
            try fill(change.slot, item: change.item)
        }
        if loading.waitsForImages { try waitForSlots() }
    }

    /// Memory got tight or eased: under pressure the fitted images beyond the slot pool are
    /// dropped (and handed back to the system) and nothing is prefetched until it eases.
    /// Logs one line and a `memory_pressure` event {level, and under `high` cached: the
    /// images still held, dropped: those let go}.
    public func setMemoryPressure(_ level: MemoryPressureLevel, time: Double) throws(SDLError) {
        guard level != memoryPressure else { return }
        memoryPressure = level
        let before = feed.cachedCount
        try update()
        if level == .high {
            FreedMemory.returnToSystem()
            log?.record(timeMs: ms(time), type: "memory_pressure",
                        ["level": .string(level.rawValue), "cached": .int(feed.cachedCount),
                         "dropped": .int(max(0, before - feed.cachedCount))])
        } else {
            log?.record(timeMs: ms(time), type: "memory_pressure", ["level": .string(level.rawValue)])
        }
        warn(level == .high
             ? "memory is tight: keeping only the \(feed.cachedCount) images on screen and prefetching nothing until it eases"
             : "memory pressure eased: prefetching again")
    }

    /// A new random order for every item not in the slot pool, so none on screen moves.
    private func reshuffle() {
        let kept = Set((carousel.coveredRange ?? 0...(-1)).map { carousel.item(forVirtualIndex: $0) })
        var rng = SystemRandomNumberGenerator()
        sources = PassShuffle.reshuffle(sources, keeping: kept, using: &rng)
        feed.replaceSources(sources)
    }

    /// Puts the item's image or failure into the slot, if the workers have it yet.
    private func fill(_ slot: Int, item: Int) throws(SDLError) {
        switch feed.outcome(for: item) {
        case .image(let image):
            try slots.fill(slot, with: image)
        case .failed(let reason):
            let source = sources[item]
            slots.fail(slot)
            if reported.insert(source.path).inserted {
                log?.record(timeMs: ms(carousel.time), type: "load_failed",
                            ["source": .string(source.path), "reason": .string(reason)])
                warn("\(source.path): \(reason)")
            }
        case nil:
            break
        }
    }

    private func ms(_ seconds: Double) -> Int { Int(((seconds - timeOrigin) * 1000).rounded()) }
}
