import CarouselCore
import CarouselMedia
import CarouselSDL
import CarouselPainting

/// A wall, the mosaic (seed 003) or the grid: its engine (`Wall`: a tile layout and friction
/// physics), the shared image pipeline behind its tiles, and the same painter as the carousel's (a tile
/// is an item box with no focus). Sizes come from a `SizeReader` in item order, and the
/// wall grows as they do. Lives on the main thread.
public final class WallScene: EngineScene, OpeningScene {
    public var engine: Wall
    /// The engine, by its own name.
    public var wall: Wall { engine }
    public let pipeline: ImagePipeline
    public var painter: FramePainter
    private var sizes: SizeReader
    /// Shapes known so far by file (path, size and time), kept across a new list so that a
    /// reload reads only what is new; `known` counts the items of the list placed so far.
    private var shapes: [ImageSource: Double?] = [:]
    private let wake: @Sendable () -> Void
    private let waitsForSizes: Bool
    /// Where a source's bytes are on disk (web pictures: their cached copies).
    private let locate: @Sendable (String) -> String?
    private var emptyMessage = SceneChange.noPictures
    public private(set) var memoryPressure = MemoryPressureLevel.normal
    private var configuredBox: Size?
    private var taps: [Int] = []
    /// The animated pictures playing in tiles on screen.
    private let animations: TileAnimations?

    /// Tiles tapped since the last call, oldest first: what the wall opens.
    public func takeTaps() -> [Int] {
        defer { taps.removeAll() }
        return taps
    }

    /// Back from the carousel: the item shown last is on screen, and loading resumes.
    public func returned(showing item: Int?, time: Double) throws(SDLError) {
        if let item { engine.reveal(item) }
        engine.advance(to: time)
        try engineMoved()
    }

    public func tile(showing item: Int) -> PlacedPicture? {
        guard let tile = engine.visibleItems.first(where: { $0.item == item }),
              let picture = pipeline.slots.picture(tile.slot) else { return nil }
        return PlacedPicture.covering(picture, painter.style.imageBox(for: tile.frame))
    }

    /// The carousel opened over the wall: the wall loads nothing meanwhile.
    public func covered() {
        pipeline.stopLoading()
        animations?.stop(at: engine.time)
    }

    /// `waitForSizes`: read every header before the first frame (`carousel render`, so
    /// the wall is the same every run); otherwise tiles appear as their sizes arrive.
    public init(sources: [ImageSource], viewport: Size, settings: WallSettings, renderer: SDLRenderer,
                painter: FramePainter, loading: ImageLoading, log: EventLog?, time: Double,
                timeOrigin: Double? = nil, wake: @escaping @Sendable () -> Void = {},
                warn: @escaping (String) -> Void) throws(SDLError) {
        self.engine = Wall(itemCount: sources.count, viewport: viewport, settings: settings, time: time)
        self.pipeline = ImagePipeline(sources: sources, loading: loading, renderer: renderer, log: log,
                                      timeOrigin: timeOrigin ?? time, warn: warn)
        var tiles = painter
        tiles.style.fillsBox = true
        self.painter = tiles
        self.wake = wake
        self.waitsForSizes = loading.waitsForImages
        self.locate = loading.locate
        self.sizes = SizeReader(sources: sources, locate: loading.locate, wake: wake)
        let pipeline = self.pipeline
        animations = loading.clips.map { playing in
            TileAnimations {
                ClipStage(playing: playing, renderer: renderer, waits: loading.waitsForImages,
                          record: { pipeline.record($0, at: $1, $2) }, warn: pipeline.warn)
            }
        }
        if waitsForSizes { sizes.waitUntilDone() }
        place(sizes.take())
        try engineMoved()
    }

    deinit { sizes.stop() }

    /// `mosaic` or `grid`, focused on the top item.
    public var state: ViewState { ViewState(kind: engine.settings.kind, viewport: engine.viewport, focus: engine.topItem) }

    public func draw(on renderer: SDLRenderer) {
        if sources.isEmpty {
            painter.drawMessage(emptyMessage, viewport: viewport, on: renderer)
        } else {
            painter.draw(engine.visibleItems, slots: pipeline.slots, viewport: viewport, videos: animations?.drawings ?? [],
                         on: renderer)
        }
    }

    /// The box the layout fits its pictures into (then cropped to their tiles).
    public var tileBox: Size {
        let box = engine.layout.pictureBox
        return painter.style.imageBox(for: Rect(x: 0, y: 0, width: box.width, height: box.height)).size
    }

    private var shown: [(slot: Int, item: Int)] { engine.visibleItems.map { ($0.slot, $0.item) } }

    @discardableResult
    public func pump() throws(SDLError) -> Bool {
        let arrived = sizes.take()
        if !arrived.isEmpty {
            place(arrived)
            try engineMoved()
        }
        let pumped = try pipeline.pump(shown, time: engine.time)
        holdSizesWhileTilesLoad()
        let moved = try animateTiles()
        return pumped || !arrived.isEmpty || moved
    }

    /// The animated tiles on screen play (those decoded so far); whether a frame changed.
    @discardableResult
    private func animateTiles() throws(SDLError) -> Bool {
        guard let animations else { return false }
        let sources = self.sources
        animations.update(visible: engine.visibleItems.map(\.item), motion: pipeline.motion(of:),
                          source: { sources.indices.contains($0) ? sources[$0] : nil }, resting: activity.resting, at: engine.time)
        return try animations.pump(at: engine.time)
    }

    /// Moving, held, or the next step: the engine's, or an animated tile's next frame.
    public var activity: ViewActivity {
        ViewActivity(moving: engine.isAnimating, held: engine.isInteracting,
                     nextStep: [engine.nextScheduledTime, animations?.nextDue].compactMap { $0 }.min())
    }

    /// Animated tiles decoding now (tests: never more than the budget).
    var animationsDecoding: Int { animations?.decoding ?? 0 }

    /// Headers are read only while the tiles' decodes do not need the CPU, or when the
    /// wall lacks what lies within `loadOrder`'s reach below the screen.
    private func holdSizesWhileTilesLoad() {
        guard !waitsForSizes else { return }
        sizes.setHeld(pipeline.isLoading && engine.isPlaced(screensBelow: 2))
    }

    public func finishLoading() throws(SDLError) {
        try pipeline.finishLoading({ shown }, time: engine.time)
    }

    public var isLoading: Bool { pipeline.isLoading || !sizes.isDone }

    public func engineMoved() throws(SDLError) {
        for e in engine.takeEvents() {
            if case .tap(let index) = e.kind { taps.append(index) }
            pipeline.record(e)
        }
        let box = tileBox
        // A second decode only while the wall rests: in motion the render thread needs its core.
        pipeline.loading.workers.setMoving(!activity.resting)
        // Planned first: after a resize the feed forgets the images fitted to the old box.
        // The tiles' embedded thumbnails along a fling's path, from where it will stop: two
        // pools' worth at most (a 160 px thumbnail is ~70 KB: about 6 MB; four pools' worth
        // left no fewer blank tiles). Under memory pressure none beyond the screen.
        let high = memoryPressure == .high
        pipeline.plan(high ? engine.loadOrder(ahead: 0, behind: 0) : engine.loadOrder(), box: box,
                      previewing: engine.previewOrder(limit: high ? engine.visibleItems.count : 2 * max(1, engine.slotCount)))
        if configuredBox != box || pipeline.slots.count < engine.slotCount {
            // New or more textures (the pool grew): every tile on screen is filled again.
            try pipeline.configure(count: max(engine.slotCount, pipeline.slots.count), box: box)
            configuredBox = box
            _ = engine.takeSlotChanges()
            for item in engine.visibleItems { try pipeline.assign(item.slot, item: item.item, time: engine.time) }
        } else {
            for change in engine.takeSlotChanges() {
                try pipeline.assign(change.slot, item: change.item, time: engine.time)
            }
        }
        if pipeline.loading.waitsForImages { try pipeline.waitForSlots({ shown }, time: engine.time) }
        holdSizesWhileTilesLoad()
        // The animated tiles follow the wall; `carousel render` draws what each advance
        // leaves, so the frames due then are up.
        try animateTiles()
    }


    /// Shapes read for the next items of the list: placed, and remembered by file.
    private func place(_ arrived: [Double?]) {
        let first = engine.placedCount
        for (i, a) in arrived.enumerated() where sources.indices.contains(first + i) { shapes[sources[first + i]] = a }
        engine.sizesKnown(arrived)
    }

    public func apply(_ change: SceneChange) throws(SDLError) {
        switch change {
        case .catalog(let new, let t): try replaceCatalog(new, time: t, recording: true)
        case .screenOff(let t):
            animations?.stop(at: t)
            pipeline.screenTurnedOff(at: t)
        case .screenOn(let t, let reason):
            pipeline.screenTurnedOn(at: t, reason: reason)
            try engineMoved()
        case .texturesLost:
            pipeline.slots.reset()
            painter.forgetTextures()
            configuredBox = nil
            try engineMoved()
        case .memoryPressure(let level, let t):
            guard level != memoryPressure else { return }
            memoryPressure = level
            try engineMoved()
            pipeline.record("memory_pressure", at: t, ["level": .string(level.rawValue)])
        case .emptyMessage(let message): emptyMessage = message
        case .back, .open, .seek, .nextStep: break
        }
    }

    /// New pictures (at rest): the wall is rebuilt from the shapes already known, in order,
    /// up to the first new file; from there on a new reader reads the rest in the
    /// background, so a reload never reads thousands of files on the main thread. The
    /// tile at the top of the screen stays there if it is still in the list.
    /// `recording` false where the change was logged already.
    public func replaceCatalog(_ new: [ImageSource], time: Double, recording: Bool) throws(SDLError) {
        let previous = sources
        if recording { recordCatalogChange(from: previous, to: new, at: time) }
        let top = engine.topItem
        sizes.stop()
        pipeline.replaceSources(new)
        var known: [Double?] = []
        for source in new {
            guard let shape = shapes[source] else { break }
            known.append(shape)
        }
        shapes = shapes.filter { Set(new).contains($0.key) }
        sizes = SizeReader(sources: Array(new.dropFirst(known.count)), locate: locate, wake: wake)
        if waitsForSizes { sizes.waitUntilDone() }
        let kept = top.flatMap { old in new.firstIndex(of: previous[old]).map { (old: old, new: $0) } }
        engine.replaceItems(count: new.count, known: known, keeping: kept)
        place(sizes.take())
        try engineMoved()
    }
}
