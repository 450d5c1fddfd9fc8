import CarouselCore
import CarouselMedia
import CarouselSDL
import CarouselPainting
import CarouselSources

/// The carousel view: its engine (the strip's layout and paging physics), the shared image
/// pipeline behind its slots, and the painter. What both `carousel render` and the
/// interactive app draw. Lives on the main thread.
public final class CarouselScene: EngineScene, OpenedScene {
    public var engine: Carousel
    /// The engine, by its own name.
    public var carousel: Carousel { engine }
    public let pipeline: ImagePipeline
    public var painter: FramePainter
    private var passes = PassShuffle.Tracker()
    /// Shown instead of the strip when there are no images.
    private var emptyMessage = SceneChange.noPictures
    /// Under `high`, only the slot pool's images are kept and nothing is prefetched.
    public private(set) var memoryPressure = MemoryPressureLevel.normal
    /// The centred clip, playing while the strip rests on it.
    private let clip: ClipStage?
    /// Whether the engine was told the clip holds the show.
    private var holding = false
    /// The clip in focus waits for its poster's decode before it plays.
    private var awaitingPoster = false
    /// Where and when a group's timeline steps the show next (`SceneChange.nextStep`).
    private var groupNext: (item: Int, at: Double)?
    /// When the strip last came to rest (its settle's end, not the pass that saw it): a
    /// group's clip is timed from it.
    private var restedAt: Double?
    /// A group's step for an instant past what the engine catches up (this screen joined,
    /// or woke, during the group's clip): how late the strip moved, so the clip there is
    /// timed from the group's rest, not this screen's. Zero otherwise.
    private var stepLateness = 0.0
    /// `stepLateness` of the last rest.
    private var restLateness = 0.0
    /// What `--caption-format` says of each picture shown, its file read once at rest.
    private let captionFacts: CaptionFacts

    public init(sources: [ImageSource], viewport: Size, settings: CarouselSettings, startIndex: Int,
                renderer: SDLRenderer, painter: FramePainter, loading: ImageLoading, log: EventLog?, time: Double,
                timeOrigin: Double? = nil, parked: Bool = false, warn: @escaping (String) -> Void) throws(SDLError) {
        self.engine = Carousel(itemCount: sources.count, viewport: viewport, settings: settings,
                                 startIndex: startIndex, time: time)
        self.pipeline = ImagePipeline(sources: sources, loading: loading, renderer: renderer, log: log,
                                      timeOrigin: timeOrigin ?? time, warn: warn)
        self.painter = painter
        captionFacts = CaptionFacts(places: loading.places, waits: loading.waitsForImages)
        let pipeline = self.pipeline
        clip = pipeline.loading.clips.map { playing in
            ClipStage(playing: playing, renderer: renderer, waits: pipeline.loading.waitsForImages,
                      record: { pipeline.record($0, at: $1, $2) }, warn: pipeline.warn)
        }
        // --order fair: the picture it starts on is shown.
        if !parked { loading.fairRound?.shown(at: startIndex, in: sources) }
        if parked {
            // Made ahead (the wall's carousel): the slots and their textures, no decode, no
            // log of a pool nobody sees; `reopen` starts it for real.
            _ = engine.takeEvents()
            _ = engine.takeSlotChanges()
            try pipeline.configure(count: engine.slotCount, box: imageBoxSize)
            park()
        } else {
            try engineMoved()
        }
    }

    public var slots: SlotTextures { pipeline.slots }
    public var feed: ImageFeed { pipeline.feed }
    public var state: ViewState { ViewState(kind: .carousel, viewport: engine.viewport, focus: engine.currentIndex) }
    /// Moving by itself, Ken Burns included, or a zoom's detail going up a band a frame:
    /// the loop draws every frame.
    public var activity: ViewActivity {
        ViewActivity(moving: engine.isAnimating || engine.kenBurnsMoving || pipeline.detail?.isUploading == true,
                     held: engine.isInteracting,
                     nextStep: [engine.nextScheduledTime, clip?.nextDue, preparationDue].compactMap { $0 }.min(),
                     heldUntil: clip?.remaining(at: engine.time).map { engine.time + $0 })
    }

    /// The clip playing in the centre, as `carousel bench` measures it.
    public var clipFigures: ClipFigures? { clip?.figures }

    public func draw(on renderer: SDLRenderer) {
        if engine.itemCount == 0 {
            painter.drawMessage(emptyMessage, viewport: engine.layout.viewport, on: renderer)
        } else {
            painter.draw(engine.visibleItems, slots: slots, viewport: engine.layout.viewport, fadeIn: engine.fadeIn,
                         detail: detailDrawing, videos: clip?.drawing.map { [$0] } ?? [], overlay: overlay, on: renderer)
        }
    }

    public func apply(_ change: SceneChange) throws(SDLError) {
        switch change {
        case .catalog(let new, let t): try replaceCatalog(new, time: t)
        case .screenOff(let t):
            clip?.stop(at: t)
            pipeline.screenTurnedOff(at: t)
        case .screenOn(let t, let reason): try screenTurnedOn(at: t, reason: reason)
        case .texturesLost(let t): try rebuildTextures(time: t)
        case .memoryPressure(let level, let t): try setMemoryPressure(level, time: t)
        case .emptyMessage(let message): emptyMessage = message
        case .seek(let seek, let t):
            clip?.seek(seek, at: t)
            followHold()
        case .nextStep(let next): groupNext = next
        case .back, .open: break
        }
    }

    /// Shows `new` instead of the current images: the centred picture stays centred if it
    /// is still there (matched by path), else its place does. Decoded images follow their
    /// files, so nothing already on screen flashes back to a placeholder. Call it at rest.
    private func replaceCatalog(_ new: [ImageSource], time: Double) throws(SDLError) {
        let current = engine.currentIndex
        let centred = current.map { sources[$0].path }
        let index = centred.flatMap { p in new.firstIndex { $0.path == p } } ?? min(current ?? 0, max(new.count - 1, 0))
        engine.advance(to: time)
        recordCatalogChange(from: sources, to: new, at: time)
        pipeline.replaceSources(new)
        engine.replaceItems(count: new.count, centredOn: index, time: time)
        try engineMoved()
    }

    /// Logs `zoom_detail` {index, width, height, wait_ms}: a sharp detail is on screen, so
    /// many pixels, so long after the zoom came to rest and asked for it.
    private func recordDetail() {
        guard let (region, seconds) = pipeline.detail?.lastShown else { return }
        pipeline.record("zoom_detail", at: engine.time, ["index": .int(region.item), "width": .int(Int(region.size.width)),
                                                         "height": .int(Int(region.size.height)), "wait_ms": .int(Int((seconds * 1000).rounded()))])
    }

    /// A crossfade's incoming picture is decoded (not a placeholder, not a stand-in).
    private var incomingDecoded: Bool {
        guard let slot = engine.fadeIn?.item.slot, case .loaded = slots.content(slot) else { return false }
        return !slots.isPreview(slot)
    }

    /// The zoomed picture's sharp detail and where it goes, with the strip at rest on it.
    private var detailDrawing: (picture: BandedPicture, rect: Rect)? {
        guard let zoom = engine.zoom, zoom.isZoomed, let t = zoom.target, engine.position == Double(t.virtualIndex) else { return nil }
        return pipeline.detail?.drawing(over: zoom.frame, item: t.item)
    }

    /// The centred item's caption and the page dots, as the style asks.
    private var overlay: Overlay? {
        let style = painter.style
        guard style.captions != .none || style.captionTemplate != nil || style.dots, let current = engine.currentIndex else { return nil }
        // A pair says each picture's lines side by side, once where both say the same.
        let pictures = [sources[current].alone] + sources[current].partners
        let each = pictures.map { source -> [String] in
            if let template = style.captionTemplate {
                return template.lines(for: captionFacts.of(source, atRest: !engine.isAnimating && !engine.isInteracting, template: template))
            }
            var lines: [String] = []
            if style.captions != .none { lines.append(source.title) }
            if style.captions == .full, let caption = source.caption, !caption.isEmpty { lines.append(caption) }
            return lines
        }
        let lines = CaptionTemplate.side(by: each)
        return Overlay(lines: lines, opacity: CaptionFade.opacity(at: engine.position),
                       dots: style.dots ? PageDots.layout(count: engine.itemCount, current: current) : [])
    }

    /// Opening hours or a touch turned the screen back on: attract mode starts afresh.
    private func screenTurnedOn(at time: Double, reason: String) throws(SDLError) {
        pipeline.screenTurnedOn(at: time, reason: reason)
        engine.restartAttract(at: time)
        try engineMoved()
    }

    /// Makes every slot texture again and refills it, after the renderer lost them
    /// (SDL_RENDER_DEVICE_RESET, SDL_RENDER_TARGETS_RESET). The pool is rebuilt at the same
    /// size, so a `pool` event records it.
    private func rebuildTextures(time: Double) throws(SDLError) {
        clip?.stop(at: time)  // its texture is gone too; it starts again from the start
        slots.reset()
        painter.forgetTextures()
        engine.handle(.resize(engine.layout.viewport, time: time))
        try engineMoved()
    }

    /// The size, in pixels, that images are fitted to: the item box less its border.
    public var imageBoxSize: Size {
        let box = painter.style.imageBox(for: Rect(x: 0, y: 0, width: engine.layout.itemSize.width,
                                                   height: engine.layout.itemSize.height)).size
        // Ken Burns shows 1/1.12 of a picture at the end of its dwell: decoded that much
        // larger, its pixels are never stretched.
        guard engine.settings.kenBurns else { return box }
        return Size(width: (box.width * KenBurns.endScale).rounded(), height: (box.height * KenBurns.endScale).rounded())
    }

    /// The slots of the pool with the items they show, in strip order.
    private var shown: [(slot: Int, item: Int)] {
        guard let covered = engine.coveredRange else { return [] }
        return covered.compactMap { v in
            engine.slot(forVirtualIndex: v).map { ($0, engine.item(forVirtualIndex: v)) }
        }
    }

    /// Uploads the images the workers finished into the slots showing them, without
    /// waiting. Returns whether any slot changed, so the frame needs drawing.
    @discardableResult
    public func pump() throws(SDLError) -> Bool {
        var changed = try pipeline.pump(shown, time: engine.time)
        if changed { offerZoom() }
        if try clip?.pump(at: engine.time) == true { changed = true }
        followHold()
        prepareNextClip()
        if try pipeline.detail?.pump() == true {
            changed = true
            recordDetail()
        }
        return changed
    }

    /// Tells the engine which picture it may zoom and where it sits at fit: the centred
    /// one, once its image (or a stand-in) is in its slot; none while it loads or failed.
    private func offerZoom() {
        guard let zoom = engine.zoom else { return }
        let v = Int(engine.position.rounded())
        // A zoomed picture the strip carries away keeps its zoom until the strip rests.
        if zoom.isZoomed, let t = zoom.target, t.virtualIndex != v { return }
        guard let slot = engine.slot(forVirtualIndex: v), let placed = focusedPicture else {
            if engine.zoom?.target?.virtualIndex != v { engine.showZoomable(nil) }
            return
        }
        let content = placed.frame
        // The largest zoom shows the whole picture's pixels 1:1 on the screen: the frame
        // shows `crop` of the picture, whose whole is `full`.
        let full = slots.fullSize(slot) ?? Size(width: Double(placed.picture.width), height: Double(placed.picture.height))
        let shown = content.size.width / (full.width * placed.crop.size.width)
        let settings = engine.zoom?.settings ?? ZoomSettings()
        engine.showZoomable(ZoomPan.Target(item: engine.item(forVirtualIndex: v), virtualIndex: v, content: content,
                                           maxScale: max(settings.minimumMaxScale, shown > 0 ? 1 / shown : 1)))
    }

    /// Put aside behind the wall: nothing decodes and the decoded images are let go; the
    /// slot textures stay, so that opening it again makes none (9 ms of the opening frame
    /// at 1920x1080 with the software renderer).
    public func park() {
        clip?.stop(at: engine.time)
        pipeline.park(box: imageBoxSize)
    }

    /// Shown again after `park`, centred on `index` in `viewport`: a fresh engine over the
    /// same slots, logging its `pool` as a new scene would.
    public func reopen(at index: Int, viewport: Size, time: Double) throws(SDLError) {
        engine = Carousel(itemCount: sources.count, viewport: viewport, settings: engine.settings,
                            startIndex: index, time: time)
        try engineMoved()
    }

    public var focusedPicture: PlacedPicture? {
        guard let v = engine.currentIndex.map({ _ in Int(engine.position.rounded()) }),
              let slot = engine.slot(forVirtualIndex: v), let picture = slots.picture(slot) else { return nil }
        let box = painter.style.imageBox(for: engine.layout.frame(ofVirtualIndex: v, at: Double(v)))
        return painter.style.fillsBox ? .covering(picture, box) : .fitting(picture, box)
    }

    /// Puts stand-ins (`pipeline.standIn`) into the slots still waiting for their image.
    public func showStandIns() throws(SDLError) {
        for (slot, item) in shown {
            if case .loading = slots.content(slot) { try pipeline.assign(slot, item: item, time: engine.time) }
        }
    }

    /// Waits until every image asked for, prefetched ones too, has arrived (render only:
    /// a script's memory pressure then finds the same cache on every run).
    public func finishLoading() throws(SDLError) {
        try pipeline.finishLoading({ shown }, time: engine.time)
    }

    /// Whether images are still being decoded (the loop keeps polling).
    public var isLoading: Bool { pipeline.isLoading }

    /// As every engine scene (`EngineScene.handle`), noting how late a group's step came
    /// beyond what the engine catches up (`stepLateness`); any other input forgets it.
    public func handle(_ input: ViewInput) throws(SDLError) {
        if case .resize(let size, let t) = input { pipeline.recordResize(size, at: t) }
        engine.handle(input)
        if case .step(_, let at) = input, engine.time - at > Carousel.stepCatchUp {
            stepLateness = engine.time - at
        } else {
            stepLateness = 0
        }
        try engineMoved()
    }

    /// Logs the engine's events, fills the slots it reassigned from what is ready, and
    /// tells the workers what to decode next.
    public func engineMoved() throws(SDLError) {
        // A crossfade only from a picture to a picture: an incoming one not decoded yet
        // shows at once instead of fading in from its placeholder.
        if engine.fade != nil && !incomingDecoded { engine.cutFade(time: engine.time) }
        var rebuilt = false
        for e in engine.takeEvents() {
            if case .pool = e.kind { rebuilt = true }
            if case .settled = e.kind {
                restedAt = e.time
                restLateness = stepLateness
                stepLateness = 0
            }
            if case .settled(let index) = e.kind, pipeline.loading.reshufflesEachPass,
               passes.settled(at: index, count: sources.count) {
                reshuffle()
            }
            if case .settled(let index) = e.kind, let round = pipeline.loading.fairRound {
                // Every picture shown and the strip back at its start: a new round.
                if index == 0, round.isComplete { reshuffle() }
                round.shown(at: index, in: sources)
            }
            pipeline.record(e)
        }
        if rebuilt { try pipeline.configure(count: engine.slotCount, box: imageBoxSize) }
        // Planned first: after a resize the feed forgets the images fitted to the old box,
        // which would not fit the new slots.
        let prefetch = memoryPressure == .high ? 0 : pipeline.loading.prefetch
        pipeline.plan(engine.loadOrder(prefetch: prefetch), box: imageBoxSize)
        for change in engine.takeSlotChanges() {
            try pipeline.assign(change.slot, item: change.item, time: engine.time)
        }
        if pipeline.loading.waitsForImages { try pipeline.waitForSlots({ shown }, time: engine.time) }
        offerZoom()
        try followClip()
        if memoryPressure == .high { pipeline.detail?.release() } else {
            let shown = pipeline.detail?.uploads
            try pipeline.detail?.update(engine.zoom, sources: sources, wait: pipeline.loading.waitsForImages)
            if pipeline.detail?.uploads != shown { recordDetail() }
        }
    }

    /// The clip in the centre plays while the strip rests on it (a press that does not move
    /// it, a zoom and a caption leave it playing); any motion of the strip stops it. It loops
    /// unless autoplay moves the show on.
    private func followClip() throws(SDLError) {
        guard let clip else { return }
        let resting = engine.position == engine.position.rounded() && engine.fade == nil
        var item = resting ? engine.currentIndex : nil
        // A clip starts once its poster's decode is done: one video helper decodes at a time
        // (two of a 4K HEVC clip would need more than a 1 GB board has). One made ready ahead
        // plays at once, poster or not: its helper is already there (under load the poster
        // came seconds after the strip, and the clip made ready waited for it).
        awaitingPoster = false
        if let waiting = item, waiting != clip.item, sources[waiting].isClip, pipeline.feed.outcome(for: waiting) == nil,
           clip.preparedItem != waiting {
            item = nil
            awaitingPoster = true
        }
        clip.show(item.map { sources[$0] }, motion: item.flatMap(pipeline.motion(of:)), item: item,
                  loop: engine.settings.attract.autoplayInterval == nil, box: imageBoxSize, restedAt: restedAt, behindGroup: restLateness,
                  length: item.flatMap(pipeline.clipLength(of:)), at: engine.time)
        clip.setPaused(engine.isPaused, at: engine.time)
        // `carousel render` draws what each advance leaves: the frame due then is up.
        if pipeline.loading.waitsForImages { _ = try clip.pump(at: engine.time) }
        followHold()
    }

    /// Under autoplay, a clip the show goes to next is made ready in the last seconds before
    /// it does (`ClipPreparation`): while a clip plays, in its last seconds and if memory
    /// allows a second helper; on a picture, in the last seconds of its interval. Only at
    /// rest, live (`carousel render` waits for each first frame anyway); a web clip once its
    /// poster is decoded (its decode fetched the file), a local one whether or not its poster
    /// is (on a loaded machine the poster came after the step, and the clip was not ready).
    private func prepareNextClip() {
        guard let clip, let (next, due) = nextClipToPrepare else { return }
        let now = engine.time
        guard ClipPreparation.isDue(remaining: due.map { $0 - now }) else { return }
        if clip.isDecoding {
            guard let memory = SystemMemory.available(), let helper = clip.helperResident,
                  ClipPreparation.memoryAllows(availableBytes: memory.available, totalBytes: memory.total, helperBytes: helper)
            else { return }
        }
        clip.prepare(sources[next], item: next, box: imageBoxSize, at: now)
    }

    /// The clip the show goes to next and when it does, while it is still to be made ready.
    private var nextClipToPrepare: (item: Int, due: Double?)? {
        guard let clip, !pipeline.loading.waitsForImages, engine.position == engine.position.rounded(), engine.fade == nil,
              !engine.isInteracting, let next = engine.autoplayNext ?? groupNext?.item, next != engine.currentIndex,
              next < sources.count, sources[next].isClip, clip.preparedItem != next,
              pipeline.feed.outcome(for: next) != nil || !RemoteURL.isRemote(sources[next].path)
        else { return nil }
        let now = engine.time
        // A person's input while the clip played puts the step after the usual pause; a
        // group's step is where its timeline says (a clip's hold included).
        let end = clip.holdsShow ? clip.remaining(at: now).map { now + $0 } : nil
        return (next, engine.autoplayNext != nil ? engine.autoplayDue(holdEnd: end) : groupNext?.at)
    }

    /// When the loop must wake to make the next clip ready (`ClipPreparation.lead` before the
    /// show moves on to it), if that is still to come. On a picture nothing else wakes the
    /// loop in its last seconds: a clip after a picture was started on arrival, never ahead.
    private var preparationDue: Double? {
        guard let due = nextClipToPrepare?.due.map({ $0 - ClipPreparation.lead }), due > engine.time else { return nil }
        return due
    }

    /// Autoplay waits while the clip holds the show, and steps once it lets go. A clip in
    /// focus whose poster is still being decoded (it starts once that is done) holds it too,
    /// for as long as the decode may take (`--decode-timeout`): where the poster took longer
    /// than autoplay's interval (a board's first video helper, a loaded machine) autoplay
    /// stepped on before the clip ever played, and with two clips, never played either.
    private func followHold() {
        guard let clip else { return }
        let hold = clip.holdsShow || awaitingPoster
        guard hold != holding else { return }
        holding = hold
        engine.handle(.holding(holding, time: engine.time))
    }

    /// Memory got tight or eased: under pressure the fitted images beyond the slot pool are
    /// dropped (and handed back to the system) and nothing is prefetched until it eases.
    /// Logs one line and a `memory_pressure` event {level, and under `high` cached: the
    /// images still held, dropped: those let go}.
    private func setMemoryPressure(_ level: MemoryPressureLevel, time: Double) throws(SDLError) {
        guard level != memoryPressure else { return }
        memoryPressure = level
        let before = feed.cachedCount
        try engineMoved()
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

    /// A new random order (or `--order fair`'s new round) for every item not in the slot
    /// pool, so none on screen moves.
    private func reshuffle() {
        let kept = Set(engine.coveredRange.map { $0.map { engine.item(forVirtualIndex: $0) } } ?? [])
        if let round = pipeline.loading.fairRound { return pipeline.replaceSources(round.newRound(sources, keeping: kept)) }
        var rng = SystemRandomNumberGenerator()
        pipeline.replaceSources(PassShuffle.reshuffle(sources, keeping: kept, using: &rng))
    }

}
