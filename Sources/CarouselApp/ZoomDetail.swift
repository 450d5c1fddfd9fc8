import CarouselCore
import CarouselMedia
import CarouselSDL

/// The sharp detail of a zoomed picture: the part of it on screen (and a margin) decoded
/// again in a helper at the resolution the zoom shows it at (`ZoomPan.wantedRegion`), held
/// in one texture and drawn over the fitted picture scaled up, which shows until it comes.
/// One region at a time, at most twice the screen's pixels; let go when the zoom ends or
/// memory gets tight. Main thread only.
final class ZoomDetail {
    private let workers: DecodeWorkers
    private let renderer: SDLRenderer
    private var texture: SDLTexture?
    /// What the texture holds.
    private(set) var held: ZoomRegion?
    /// What the worker was last asked for, and when (monotonic seconds).
    private var asked: ZoomRegion?
    private var askedAt = 0.0
    /// The last detail shown and how long it took from the asking, seconds: the event log's.
    private(set) var lastShown: (region: ZoomRegion, seconds: Double)?
    /// Regions decoded and uploaded so far (the tests count them).
    private(set) var uploads = 0

    init(workers: DecodeWorkers, renderer: SDLRenderer) {
        self.workers = workers
        self.renderer = renderer
    }

    deinit { workers.stop() }

    /// Asks for the detail `zoom` needs of `sources`, if the one held does not serve; lets
    /// the held one go when nothing is zoomed. `wait`: until it is decoded (render).
    func update(_ zoom: ZoomPan?, sources: [ImageSource], wait: Bool) throws(SDLError) {
        guard let zoom, zoom.isZoomed, let item = zoom.target?.item, sources.indices.contains(item) else {
            release()
            return
        }
        if let held, held.item != item { release() }
        guard let wanted = zoom.wantedRegion, let visible = zoom.visiblePart else { return }
        if let held, held.serves(wanted, visible: visible) { return }
        if let asked, asked.serves(wanted, visible: visible) { return }
        asked = wanted
        askedAt = EventQueue.now
        workers.want([DecodeWorkers.Request(item: item, source: sources[item], box: wanted.size, part: wanted.part)])
        if wait {
            while workers.busy { workers.waitForResult(); if try pump() { break } }
            _ = try pump()
        }
    }

    /// Uploads a detail the worker finished; whether one came.
    @discardableResult
    func pump() throws(SDLError) -> Bool {
        var changed = false
        for done in workers.take() {
            guard let asked, let part = done.request.part, part == asked.part, done.request.item == asked.item,
                  case .success(let image) = done.result else { continue }
            // Made once as large as needed so far and filled in its corner: a pan to a part of
            // another shape does not allocate 16 MB on the drawing thread again.
            if (texture?.width ?? 0) < image.width || (texture?.height ?? 0) < image.height {
                let (w, h) = (max(texture?.width ?? 0, image.width), max(texture?.height ?? 0, image.height))
                texture = nil
                texture = try renderer.makeTexture(width: w, height: h)
            }
            try texture?.update(with: image)
            texture?.setBlending(!image.isOpaque)
            held = ZoomRegion(item: asked.item, part: part, size: Size(width: Double(image.width), height: Double(image.height)))
            uploads += 1
            changed = true
            if let held { lastShown = (held, EventQueue.now - askedAt) }
        }
        return changed
    }

    /// Drops the texture and any request: the zoom ended, or memory is tight.
    func release() {
        if asked != nil { workers.want([]) }
        texture = nil
        held = nil
        asked = nil
    }

    /// The detail to draw over the picture `zoom` has at `frame` (its rectangle on screen).
    func drawing(over frame: Rect, item: Int) -> (picture: ShownPicture, rect: Rect)? {
        guard let texture, let held, held.item == item else { return nil }
        return (ShownPicture(texture: texture, width: Int(held.size.width), height: Int(held.size.height)), Rect(x: frame.minX + held.part.minX * frame.size.width, y: frame.minY + held.part.minY * frame.size.height,
                              width: held.part.size.width * frame.size.width, height: held.part.size.height * frame.size.height))
    }
}
