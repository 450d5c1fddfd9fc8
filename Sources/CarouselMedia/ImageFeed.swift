import CarouselCore

/// The render thread's side of background decoding: tells the workers what to decode from
/// the engine's load order, keeps the fitted images of the covered and prefetched items
/// (and nothing else, so memory does not grow with the collection), and hands them out
/// for upload. Main thread only.
public final class ImageFeed {
    public enum Outcome: Equatable {
        case image(PixelImage)
        case failed(reason: String)
    }

    public private(set) var sources: [ImageSource]
    private let workers: DecodeWorkers
    private var images: [Int: PixelImage] = [:]
    /// Files that failed, with the reason: not decoded again (until replaced).
    private var failures: [FileIdentity: String] = [:]
    /// Where each file is in `sources`, to place results of requests made before a change.
    /// Made when first needed (a result for an item that moved): hashing 10,000 paths
    /// took ~3 ms of the frame that opens a carousel on the wall.
    private lazy var indexOfFile: [FileIdentity: Int] = Self.index(sources)
    private var box = Size(width: 0, height: 0)
    private var wanted: Set<Int> = []

    public init(sources: [ImageSource], workers: DecodeWorkers) {
        self.sources = sources
        self.workers = workers
    }

    /// Takes a new list of sources (reshuffled, or files added, removed or replaced): the
    /// images already decoded follow their files to their new places; a replaced file's
    /// old image is forgotten.
    public func replaceSources(_ new: [ImageSource]) {
        let newIndex = Self.index(new)
        var moved: [Int: PixelImage] = [:]
        for (i, image) in images where sources.indices.contains(i) {
            if let j = newIndex[sources[i].file] { moved[j] = image }
        }
        images = moved
        sources = new
        indexOfFile = newIndex
    }

    private static func index(_ sources: [ImageSource]) -> [FileIdentity: Int] {
        var index: [FileIdentity: Int] = [:]
        for (i, s) in sources.enumerated() where index[s.file] == nil { index[s.file] = i }
        return index
    }

    /// Decodes started and requests dropped so far, from the workers.
    public var decodesStarted: Int { workers.decodesStarted }
    public var requestsDropped: Int { workers.requestsDropped }
    /// Whether the workers still have something to do.
    public var isLoading: Bool { workers.busy }
    /// Images decoded and files failed since this feed began.
    public private(set) var decoded = 0
    public private(set) var failed = 0
    /// Fitted images held in memory now.
    public var cachedCount: Int { images.count }

    /// Makes `order` (most urgent first) the items to have ready at `box` size: forgets
    /// images outside it and queues the missing ones.
    public func plan(_ order: [Int], box newBox: Size) {
        if newBox != box {
            images.removeAll()
            box = newBox
        }
        wanted = Set(order)
        images = images.filter { wanted.contains($0.key) }
        let missing = order.filter { item in
            sources.indices.contains(item) && images[item] == nil && failures[sources[item].file] == nil
        }
        workers.want(missing.map { DecodeWorkers.Request(item: $0, source: sources[$0], box: box) })
    }

    /// Drops the queued decodes; those running finish. The images held stay, and the
    /// next `plan` queues again what is missing: a screen turned off decodes nothing.
    public func stopLoading() { workers.want([]) }

    /// Takes what the workers finished; returns the items that now have an outcome.
    public func collect() -> [Int] {
        var ready: [Int] = []
        for done in workers.take() {
            let r = done.request
            // The item may have moved since the request (files added or removed before it).
            let item = sources.indices.contains(r.item) && sources[r.item].file == r.source.file
                ? r.item : indexOfFile[r.source.file]
            guard r.box == box, let item else { continue }
            switch done.result {
            case .success(let image):
                decoded += 1
                guard wanted.contains(item) else { continue }
                images[item] = image
            case .failure(let error) where error.transient:
                // Still to come: the next plan asks again (a good picture a busy machine
                // could not decode once was left out of a kiosk's show for good).
                continue
            case .failure(let error):
                failed += 1
                failures[r.source.file] = error.reason
            }
            ready.append(item)
        }
        return ready
    }

    /// The item's image or failure when known; nil while it is still to come.
    public func outcome(for item: Int) -> Outcome? {
        guard sources.indices.contains(item) else { return nil }
        if let reason = failures[sources[item].file] { return .failed(reason: reason) }
        return images[item].map(Outcome.image)
    }

    /// Blocks until the workers deliver something or run out of work (render only).
    public func waitForWorkers() { workers.waitForResult() }
}
