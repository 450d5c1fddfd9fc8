import CarouselCore
import CarouselMedia
import CarouselSources

/// Makes the image loading of each view a command shows, all over one pool of decoder
/// helpers, started when this is made. Made before the folders are scanned and the screen
/// is set up, the first decode finds a helper ready instead of waiting 25–50 ms for one to
/// start; and a carousel opened from the wall decodes through the wall's helpers instead
/// of starting its own on the tap (a 40 ms frame). The first loading made (the home view's)
/// owns the helpers, which end with its view; later ones (views opened over it) borrow them.
public final class LoadingMaker {
    private let source: SourceOptions
    private let helpers: IsolatedDecoder
    private var made = 0
    /// `--broken skip`: the pictures every view made here leaves out; nil: they show as failed.
    public let broken: BrokenPictures?
    /// What was said of broken pictures: once for all the views made here.
    private let reports = PictureReports()
    /// `{place}`'s tables, read once for all the views made here when a caption first asks.
    private let places: PlaceLookup

    /// Starts a helper for each decode worker of the home view: the wall decodes on every
    /// core while it rests (its first screen), the carousel on all but one.
    /// `readsPlaces`: a caption says `{place}`, so GeoNames' tables are read from now on (on
    /// a thread of their own), before the first frame asks.
    public init(_ source: SourceOptions, home: ViewKind, broken: BrokenMode = .show, readsPlaces: Bool = false) {
        self.source = source
        self.broken = broken == .skip ? BrokenPictures() : nil
        places = PlaceLookup(path: source.placeNames ?? PlaceLookup.defaultTable, say: { Log.warn($0) })
        if readsPlaces { places.start() }
        let helpers = home.isTiled ? DecodeWorkers.restingThreadCount : DecodeWorkers.defaultThreadCount
        // A JPEG that ends early shows what arrived under --broken show; skip leaves it out.
        var settings = source.decoderSettings
        settings.showsPartial = broken == .show
        self.helpers = IsolatedDecoder(settings, helpers: helpers, inBackground: true, warn: { Log.warn($0) })
    }

    /// Workers as `source` asks for them: `wake` is called from a worker when an image is
    /// ready; `waitsForImages` makes every frame wait for its images (render);
    /// `tiles`: for the wall's tiles (every core at rest, one fewer in motion);
    /// `thumbnails`: decode through this thumbnail cache, at this size (the wall's tiles);
    /// `previewsFrom`: show the thumbnails this cache has while pictures decode (the
    /// carousel: on a worker of its own, through the same helpers).
    /// The loading `ViewOptions.makeScene` asks for, per view: a wall's tiles through the
    /// thumbnail cache at the size it gives (`thumbnails`, when there is a cache), the
    /// carousel straight, with previews from `previews` (none where frames must not depend
    /// on how fast the workers were).
    /// `backdrops`: each picture of the carousel comes with its blurred backdrop (`--fill`).
    public func perView(wake: @escaping @Sendable () -> Void = {}, waitsForImages: Bool = false, thumbnails: ThumbnailCache?,
                 previews: ThumbnailCache? = nil, backdrops: Bool = false) -> (ThumbnailCache.Size?) -> ImageLoading {
        { size in
            self.make(wake: wake, waitsForImages: waitsForImages, tiles: size != nil, backdrops: backdrops && size == nil,
                      thumbnails: size.flatMap { s in thumbnails.map { ($0, s) } }, previewsFrom: previews)
        }
    }

    public func make(wake: @escaping @Sendable () -> Void = {}, waitsForImages: Bool = false, tiles: Bool = false, backdrops: Bool = false,
              thumbnails: (cache: ThumbnailCache, size: ThumbnailCache.Size)? = nil,
              previewsFrom cache: ThumbnailCache? = nil) -> ImageLoading {
        made += 1
        var decoder: any ImageDecoding = thumbnails.map {
            ThumbnailingDecoder(inner: helpers, cache: $0.cache, size: $0.size)
        } ?? helpers
        let library = source.remoteLibrary
        if let library { decoder = RemoteDecoder(inner: decoder, library: library) }
        // A pair (--pair-portraits) is made of its two pictures, each decoded (and cached) alone.
        decoder = PairDecoder(inner: decoder)
        // The zoom's detail: its own worker, through the same helpers (and web cache).
        // Turned into the texture's byte order on the worker: 16 MB swizzled on the drawing
        // thread was 4 ms of the frame it arrived in.
        let detail = tiles ? nil : DecodeWorkers(decoder: PairDecoder(inner: library.map { RemoteDecoder(inner: helpers, library: $0) } ?? helpers),
                                                 threads: 1, stopsDecoder: false, finish: { $0.turnToBGRA() }, wake: wake)
        // The carousel's previews: the cache's thumbnail of a picture, blurred while it decodes.
        // The wall's: the file's own embedded thumbnail while the tile's is made or read (a
        // millisecond's work, so a fling's tiles are not blank), not where every frame waits
        // for its images anyway (render).
        let previews = thumbnails == nil ? cache.map {
            DecodeWorkers(decoder: PairDecoder(inner: CachedThumbnailDecoder(inner: helpers, cache: $0), failsWhole: true), threads: 1, stopsDecoder: false, wake: wake)
        } : waitsForImages ? nil : DecodeWorkers(decoder: PairDecoder(inner: EmbeddedThumbnailDecoder(helpers: helpers), failsWhole: true),
                                                 threads: 1, stopsDecoder: false, wake: wake)
        return ImageLoading(
            // Tiles take a few ms each: at rest one per core (a first screen of 25 in half the
            // time), in motion one fewer; one running when motion starts ends soon.
            workers: DecodeWorkers(decoder: decoder,
                                   threads: tiles ? DecodeWorkers.restingThreadCount : DecodeWorkers.defaultThreadCount,
                                   whileMoving: tiles ? DecodeWorkers.defaultThreadCount : nil,
                                   stopsDecoder: made == 1, backdrops: backdrops, wake: wake),
            prefetch: source.prefetch, reshufflesEachPass: source.order == .random && source.seededGroup == nil, fairRound: source.fairRound, waitsForImages: waitsForImages,
            previews: previews,
            detail: detail,
            locate: { path in
                guard let library, RemoteURL.isRemote(path) else { return path }
                return try? library.file(for: path)
            },
            broken: broken,
            // A frame's arrival wakes the loop to look: it draws only when one falls due. The
            // wall plays its animated tiles the same way.
            clips: clipPlaying(library: library, waits: waitsForImages),
            reports: reports,
            places: places)
    }

    /// How the carousel plays clips: web ones from their cached copies.
    private func clipPlaying(library: RemoteLibrary?, waits: Bool) -> ClipPlaying {
        var playing = ClipPlaying(settings: helpers.settings, wake: { WakeReason.workDone.post() },
                                  maxSeconds: source.videoMax, motion: source.motion)
        playing.sound = source.audio
        if let library {
            // `carousel render` waits for the file (a frame never depends on a download's speed);
            // the window asks without waiting and is woken when it has come.
            playing.localFile = { path in
                guard RemoteURL.isRemote(path) else { return path }
                if waits { return try? library.file(for: path, within: 60) }
                return library.fileIfReady(for: path) { WakeReason.workDone.post() }
            }
        }
        return playing
    }
}
