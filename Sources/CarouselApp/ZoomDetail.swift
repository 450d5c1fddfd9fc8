import CarouselCore
import CarouselMedia
import CarouselSDL
import CarouselClock

/// The sharp detail of a zoomed picture: the part of it on screen (and a margin) decoded
/// again in a helper at the resolution the zoom shows it at (`ZoomPan.wantedRegion`), held
/// in one banded picture and drawn over the fitted picture scaled up, which shows until it
/// comes. One region at a time, at most twice the screen's pixels (a second set of bands
/// only while a larger one is being filled behind the one shown); let go when the zoom
/// ends or memory gets tight. Main thread only.
final class ZoomDetail {
    private let workers: DecodeWorkers
    private let renderer: SDLRenderer
    /// The detail shown, and the region it is.
    private var picture: BandedPicture?
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
        askedAt = LoopClock.system.now()
        workers.want([DecodeWorkers.Request(item: item, source: sources[item], box: wanted.size, part: wanted.part)])
        if wait {
            while workers.busy { workers.waitForResult(); if try pump(all: true) { break } }
            _ = try pump(all: true)
        }
    }

    /// Uploads a detail the worker finished, a band per call (made, cleared and filled:
    /// 4 MB, 1–3 ms in software) into bands not on screen; into the bands shown, when they
    /// hold it, all at once (their pages are touched: 3 ms for 16 MB). Whether a new detail
    /// is now shown. `all`: the whole of it at once (render, which waits).
    @discardableResult
    func pump(all: Bool = false) throws(SDLError) -> Bool {
        var atOnce = all
        for done in workers.take() {
            guard let asked, let part = done.request.part, part == asked.part, done.request.item == asked.item,
                  case .success(let image) = done.result else { continue }
            let region = ZoomRegion(item: asked.item, part: part, size: Size(width: Double(image.width), height: Double(image.height)))
            if let picture, picture.holds(width: image.width, height: image.height) {
                pending = Upload(region: region, image: image, rows: picture.bandRows, bands: picture.bands, next: 0)
                atOnce = atOnce || held != nil
            } else {
                // Made as large as needed so far; the one shown stays until this is full.
                bandWidth = max(bandWidth, image.width)
                pending = Upload(region: region, image: image, rows: max(16, (4 << 20) / max(4, bandWidth * 4)), bands: [], next: 0)
            }
        }
        return try finish(all: atOnce)
    }

    /// A detail being uploaded: rows per band, the bands made so far, the next to fill.
    private struct Upload {
        let region: ZoomRegion
        let image: PixelImage
        let rows: Int
        var bands: [SDLTexture]
        var next: Int
    }
    private var pending: Upload?
    /// The widest detail so far: bands are made this wide, so a narrower one reuses them.
    private var bandWidth = 0

    /// Whether a detail is still being uploaded (the loop keeps drawing until it shows).
    var isUploading: Bool { pending != nil }

    /// Fills the next band of the pending detail (all of them with `all`), making it first
    /// if needed; shows the detail once every band is full.
    private func finish(all: Bool) throws(SDLError) -> Bool {
        guard var upload = pending else { return false }
        let (image, rows) = (upload.image, upload.rows)
        let count = BandedPicture.bandCount(height: image.height, rows: rows)
        repeat {
            let i = upload.next
            if upload.bands.count <= i { upload.bands.append(try renderer.makeTexture(width: bandWidth, height: rows)) }
            try upload.bands[i].update(with: image, rows: (i * rows)..<min(image.height, (i + 1) * rows), at: 0)
            upload.next += 1
        } while all && upload.next < count
        guard upload.next >= count else {
            pending = upload
            return false
        }
        pending = nil
        let shown = BandedPicture(bands: upload.bands, bandRows: rows, width: image.width, height: image.height)
        shown.setBlending(!image.isOpaque)
        picture = shown
        held = upload.region
        uploads += 1
        lastShown = (upload.region, LoopClock.system.now() - askedAt)
        return true
    }

    /// Drops the detail and any request: the zoom ended, or memory is tight.
    func release() {
        if asked != nil { workers.want([]) }
        picture = nil
        held = nil
        asked = nil
        pending = nil
    }

    /// The detail to draw over the picture `zoom` has at `frame` (its rectangle on screen).
    func drawing(over frame: Rect, item: Int) -> (picture: BandedPicture, rect: Rect)? {
        guard let picture, let held, held.item == item else { return nil }
        return (picture, Rect(x: frame.minX + held.part.minX * frame.size.width, y: frame.minY + held.part.minY * frame.size.height,
                              width: held.part.size.width * frame.size.width, height: held.part.size.height * frame.size.height))
    }
}
