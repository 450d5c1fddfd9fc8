import CarouselCore
import CarouselMedia
import CarouselSDL
import CarouselPainting

/// The images behind a view's slots, shared by every view: the feed that decodes them in
/// the helpers, the slot textures they are uploaded into, and the one report of each
/// picture that cannot be shown. A view says which items its slots show and in which order
/// to load; the pipeline does the rest. Lives on the main thread.
public final class ImagePipeline {
    public let feed: ImageFeed
    public let slots: SlotTextures
    private let log: EventLog?
    /// Called with one line for each image that cannot be shown.
    public var warn: (String) -> Void
    /// A smaller version of an item's picture to show while its own decodes (the wall's
    /// tile, for a carousel opened from it); nil: a placeholder shows.
    public var standIn: ((Int) -> PixelImage?)?
    public let loading: ImageLoading
    /// Cached thumbnails of the items about to be seen, shown while their own pictures
    /// decode (`loading.previews`); nil without a thumbnail cache.
    private let previews: ImageFeed?
    /// A zoomed picture's sharp detail; nil for a view that does not zoom.
    let detail: ZoomDetail?
    /// Previews are decoded at most this large (the standard's 512 px thumbnails).
    static let previewBox = Size(width: 512, height: 512)
    /// The clock reading that is t_ms 0 in the event log.
    private let timeOrigin: Double

    public init(sources: [ImageSource], loading: ImageLoading, renderer: SDLRenderer, log: EventLog?,
                timeOrigin: Double, warn: @escaping (String) -> Void) {
        self.feed = ImageFeed(sources: sources, workers: loading.workers)
        self.previews = loading.previews.map { ImageFeed(sources: sources, workers: $0) }
        self.slots = SlotTextures(renderer: renderer)
        self.detail = loading.detail.map { ZoomDetail(workers: $0, renderer: renderer) }
        self.loading = loading
        self.log = log
        self.timeOrigin = timeOrigin
        self.warn = warn
    }

    /// The worker threads hold their pool, so they would outlive a replaced view.
    deinit {
        loading.previews?.stop()
        loading.workers.stop()
    }

    public var sources: [ImageSource] { feed.sources }

    /// Whether images are still being decoded.
    public var isLoading: Bool { feed.isLoading }

    /// Makes `count` slot textures for images fitted into `box`.
    public func configure(count: Int, box: Size) throws(SDLError) {
        try slots.configure(count: count, width: Int(box.width), height: Int(box.height))
    }

    /// What to decode, most urgent first, fitted into `box`; the rest is dropped. Previews
    /// for `previewing` (the wall: along a fling's path), else for the items the slots
    /// show (the first of the order), so they do not take the cores from the decodes ahead.
    public func plan(_ order: [Int], box: Size, previewing: [Int]? = nil) {
        feed.plan(order, box: box)
        let shown = previewing ?? Array(order.prefix(slots.count))
        previews?.plan(shown.filter { feed.outcome(for: $0) == nil },
                       box: Size(width: min(box.width, Self.previewBox.width), height: min(box.height, Self.previewBox.height)))
    }

    /// A new list of sources: decoded images and previews follow their files.
    public func replaceSources(_ new: [ImageSource]) {
        feed.replaceSources(new)
        previews?.replaceSources(new)
    }

    /// Drops what is queued and every decoded image and preview (fitted to `box`): the
    /// view is put aside, its slot textures kept for when it shows again.
    public func park(box: Size) {
        detail?.release()
        // The stand-ins too: reopened, the slots wait for their images as a new view's do
        // (render waits for them), and whoever reopens it sets stand-ins again.
        standIn = nil
        feed.plan([], box: box)
        previews?.plan([], box: Self.previewBox)
    }

    /// Drops what is queued (the screen is off, or another view covers this one).
    public func stopLoading() {
        feed.stopLoading()
        previews?.stopLoading()
    }

    /// The slot now shows `item`: its placeholder at once, its image if it is ready.
    public func assign(_ slot: Int, item: Int, time: Double) throws(SDLError) {
        guard sources.indices.contains(item) else { return }
        slots.assign(slot, sources[item])
        try fill(slot, item: item, time: time)
    }

    /// Uploads the images the workers finished into the slots showing them (`shown`: slot
    /// and item pairs), without waiting. Whether any image arrived.
    @discardableResult
    public func pump(_ shown: [(slot: Int, item: Int)], time: Double) throws(SDLError) -> Bool {
        let ready = Set(feed.collect())
        // A preview goes only where the slot still waits: never over the picture itself.
        let previewed = Set(previews?.collect() ?? []).subtracting(ready)
        guard !ready.isEmpty || !previewed.isEmpty else { return false }
        for (slot, item) in shown where ready.contains(item) || previewed.contains(item) {
            try fill(slot, item: item, time: time)
        }
        return true
    }

    /// Waits until every slot has its image or its failure (`shown` as for `pump`).
    public func waitForSlots(_ shown: () -> [(slot: Int, item: Int)], time: Double) throws(SDLError) {
        try pump(shown(), time: time)
        while slots.contents.contains(where: { if case .loading = $0 { true } else { false } }) {
            // Idle workers may still hold the last result (it is done before they are idle):
            // taken here, else a slot waiting for it stayed empty now and then (the frame
            // after a resize differed under ThreadSanitizer).
            guard feed.isLoading else { try pump(shown(), time: time); break }
            feed.waitForWorkers()
            try pump(shown(), time: time)
        }
    }

    /// Waits until every image asked for, prefetched ones too, has arrived.
    public func finishLoading(_ shown: () -> [(slot: Int, item: Int)], time: Double) throws(SDLError) {
        try pump(shown(), time: time)
        while feed.isLoading {
            feed.waitForWorkers()
            try pump(shown(), time: time)
        }
        try pump(shown(), time: time)
    }

    /// Whether a slot among `slotsInView` still waits for its image (a placeholder shows).
    public func showsPlaceholder(_ slotsInView: [Int]) -> Bool { placeholders(slotsInView) > 0 }

    /// How many of these slots show a stand-in or a preview, not yet their own image.
    public func previewsShown(_ slotsInView: [Int]) -> Int { slotsInView.count { slots.isPreview($0) } }

    /// How many of these slots still show a placeholder (their image is on its way).
    public func placeholders(_ slotsInView: [Int]) -> Int {
        slotsInView.count { if case .loading = slots.content($0) { true } else { false } }
    }

    /// Puts the item's image or failure into the slot, if the workers have it yet; a
    /// failure is logged (`load_failed`) and said once per file.
    private func fill(_ slot: Int, item: Int, time: Double) throws(SDLError) {
        switch feed.outcome(for: item) {
        case .image(let image):
            try slots.fill(slot, with: image)
            // Shown, but with something to say (a colour profile ignored): once per file.
            if let note = image.note, loading.reports.firstNote(of: sources[item].path) {
                log?.record(timeMs: ms(time), type: "load_note", ["source": .string(sources[item].path), "note": .string(note)])
                warn("\(sources[item].path): \(note)")
            }
        case .failed(let reason):
            let source = sources[item]
            if let broken = loading.broken { broken.record(source) } else { slots.fail(slot) }
            if loading.reports.firstFailure(of: source.path) {
                log?.record(timeMs: ms(time), type: "load_failed",
                            ["source": .string(source.path), "reason": .string(reason)])
                warn("\(source.path): \(reason)")
            }
        case nil:
            if let image = standIn?(item) ?? previewImage(item) { try slots.fillPreview(slot, with: image) }
        }
    }

    /// Item `item`'s clip length as its poster said it, once decoded; nil otherwise.
    func clipLength(of item: Int) -> Double? {
        if case .image(let image)? = feed.outcome(for: item) { return image.clipLength }
        return nil
    }

    /// What moves in item `item`'s picture (a Motion Photo's clip, an animation's frames),
    /// once it was decoded; nil otherwise.
    func motion(of item: Int) -> PictureMotion? {
        if case .image(let image)? = feed.outcome(for: item) { return image.motion }
        return nil
    }

    private func previewImage(_ item: Int) -> PixelImage? {
        if case .image(let image)? = previews?.outcome(for: item) { return image }
        return nil
    }

    /// Logs `catalog_changed` at `time`: how many files came, went and were replaced.
    public func recordCatalogChange(from old: [ImageSource], to new: [ImageSource], at time: Double) {
        let before = Set(old.map(\.path)), after = Set(new.map(\.path))
        let replaced = Set(old.map(\.file)).subtracting(new.map(\.file)).filter { after.contains($0.path) }
        log?.record(timeMs: ms(time), type: "catalog_changed",
                    ["added": .int(after.subtracting(before).count), "removed": .int(before.subtracting(after).count),
                     "replaced": .int(replaced.count)])
    }

    /// Logs `resize` at `time`.
    public func recordResize(_ size: Size, at time: Double) {
        log?.record(timeMs: ms(time), type: "resize", ["width": .int(Int(size.width)), "height": .int(Int(size.height))])
    }

    /// Logs an event of the view shown at `time` (seconds on the loop's clock).
    func record(_ type: String, at time: Double, _ fields: KeyValuePairs<String, EventLog.Value> = [:]) {
        log?.record(timeMs: ms(time), type: type, fields.map { ($0.key, $0.value) })
    }

    /// Logs what the view's engine did; `activate` names the item's file.
    func record(_ event: ViewEvent) {
        log?.record(event, timeMs: ms(event.time)) { [sources] i in sources.indices.contains(i) ? sources[i].path : "" }
    }

    /// The screen went dark (opening hours): logged, and nothing decodes while it sleeps,
    /// also of what was asked for before.
    func screenTurnedOff(at time: Double) {
        detail?.release()
        record("screen", at: time, ["state": .string("off")])
        stopLoading()
    }

    func screenTurnedOn(at time: Double, reason: String) {
        record("screen", at: time, ["state": .string("on"), "reason": .string(reason)])
    }

    func ms(_ seconds: Double) -> Int { Int(((seconds - timeOrigin) * 1000).rounded()) }
}
