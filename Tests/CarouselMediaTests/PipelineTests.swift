import CarouselCore
import CarouselMedia
import Foundation
import Testing

/// A decoder that decodes nothing until the test lets it: each permit lets one decode
/// finish. Counts what was started and finished, and which items.
final class GatedDecoder: ImageDecoding, @unchecked Sendable {
    private let condition = NSCondition()
    private var permits = 0
    private(set) var started: [String] = []
    private(set) var finished = 0

    func decode(_ source: ImageSource, fittingIn box: Size) throws(ImageError) -> PixelImage {
        condition.lock()
        started.append(source.title)
        while permits == 0 { condition.wait() }
        permits -= 1
        finished += 1
        condition.broadcast()
        condition.unlock()
        return PixelImage(width: 4, height: 3, fill: (9, 9, 9, 255))
    }

    /// Lets `n` decodes finish and waits (at most 5 s) until they have.
    func allow(_ n: Int, wait: Bool = true) {
        condition.lock()
        let goal = finished + n
        permits += n
        condition.broadcast()
        let deadline = Date().addingTimeInterval(5)
        while wait && finished < goal && condition.wait(until: deadline) {}
        condition.unlock()
    }

    /// Waits (at most 5 s) until some decode has started beyond `count`.
    func waitForStart(beyond count: Int) {
        let deadline = Date().addingTimeInterval(5)
        while Date() < deadline {
            condition.lock(); let n = started.count; condition.unlock()
            if n > count { return }
            usleep(1000)
        }
    }

    var counts: (started: Int, finished: Int) {
        condition.lock(); defer { condition.unlock() }
        return (started.count, finished)
    }

    /// Lets every decode through from now on, so worker threads can end.
    func openForever() { allow(1_000_000, wait: false) }
}

@Suite struct PipelineTests {
    static func sources(_ n: Int) -> [ImageSource] { (0..<n).map { ImageSource(path: "/nowhere/\($0).jpg") } }

    /// Small boxes so 200 items are quick to cross: stride 100 px in a 1280 px viewport.
    static let settings: CarouselSettings = {
        var s = CarouselSettings()
        s.layout = LayoutSpec(itemWidth: .pixels(90), itemHeight: .pixels(90), gap: .pixels(10))
        return s
    }()

    @Test func aFastFlingAcross200ItemsStartsFarFewerDecodes() throws {
        let decoder = GatedDecoder()
        defer { decoder.openForever() }
        let feed = ImageFeed(sources: Self.sources(200), workers: DecodeWorkers(decoder: decoder, threads: 1))
        var carousel = Carousel(itemCount: 200, viewport: Size(width: 1280, height: 400), settings: Self.settings)
        let box = Size(width: 90, height: 90)
        feed.plan(carousel.loadOrder(prefetch: 2), box: box)

        // A flick to the left: 900 px in 24 ms, far enough to travel the whole strip.
        var t = 1.0
        carousel.handle(.pointer(PointerEvent(.down, .mouse, x: 1100, y: 200, time: t)))
        for _ in 0..<4 {
            t += 0.006
            carousel.handle(.pointer(PointerEvent(.move, .mouse, x: 1100 - (t - 1) / 0.024 * 900, y: 200, time: t)))
        }
        carousel.handle(.pointer(PointerEvent(.up, .mouse, x: 200, y: 200, time: t)))
        let release = carousel.takeEvents().compactMap { e -> Int? in
            if case .release(let r) = e.kind { return r.to } else { return nil }
        }
        #expect(release.count == 1 && release[0] > 150, "the flick should carry most of the way: \(release)")

        // 60 frames a second; the decoder finishes one image per frame, as a busy worker would.
        var frames = 0
        while carousel.isAnimating || frames < 3 {
            t += 1.0 / 60
            frames += 1
            carousel.advance(to: t)
            feed.plan(carousel.loadOrder(prefetch: 2), box: box)
            _ = feed.collect()
            decoder.allow(1)
            #expect(frames < 200, "the fling never ended")
            if frames >= 200 { break }
        }
        let (started, _) = decoder.counts
        #expect(started < 60, "a fling across 200 items started \(started) decodes")
        #expect(feed.requestsDropped > 50, "only \(feed.requestsDropped) requests were dropped")

        // At rest the items around the last one are all decoded.
        for _ in 0..<100 where feed.isLoading { decoder.allow(1); _ = feed.collect() }
        _ = feed.collect()
        for item in carousel.loadOrder(prefetch: 2) {
            #expect(feed.outcome(for: item) != nil, "item \(item) is not ready at rest")
        }
    }

    @Test func theRenderThreadNeverWaitsForAStuckDecoder() throws {
        let decoder = GatedDecoder()  // closed: no decode finishes during the frames
        defer { decoder.openForever() }
        let feed = ImageFeed(sources: Self.sources(30), workers: DecodeWorkers(decoder: decoder, threads: 1))
        var carousel = Carousel(itemCount: 30, viewport: Size(width: 1280, height: 400), settings: Self.settings)
        feed.plan(carousel.loadOrder(prefetch: 2), box: Size(width: 90, height: 90))
        decoder.waitForStart(beyond: 0)

        carousel.handle(.step(.by(5), time: 0.1))
        var frames = 0, t = 0.1
        while carousel.isAnimating {
            t += 1.0 / 60
            carousel.advance(to: t)
            feed.plan(carousel.loadOrder(prefetch: 2), box: Size(width: 90, height: 90))
            #expect(feed.collect().isEmpty)
            frames += 1
        }
        // Every frame of the animation came while the worker was stuck on its first image.
        #expect(frames >= 20)
        #expect(carousel.currentIndex == 5)
        #expect(decoder.counts == (1, 0))
        #expect(feed.isLoading)

        decoder.allow(1)
        feed.waitForWorkers()
        #expect(feed.collect().count == 1)
    }

    @Test func stoppingDropsWhatIsQueuedAndTheNextPlanAsksAgain() throws {
        let decoder = GatedDecoder()
        let feed = ImageFeed(sources: Self.sources(10), workers: DecodeWorkers(decoder: decoder, threads: 1))
        let box = Size(width: 90, height: 90)
        feed.plan([0, 1, 2, 3, 4], box: box)
        decoder.waitForStart(beyond: 0)
        feed.stopLoading()
        decoder.allow(1)
        while feed.isLoading { feed.waitForWorkers() }
        #expect(decoder.counts.started == 1, "only the decode already running: \(decoder.started)")
        #expect(feed.collect() == [0])
        feed.plan([0, 1, 2, 3, 4], box: box)
        decoder.openForever()
        while feed.isLoading { feed.waitForWorkers() }
        #expect(decoder.started == ["0", "1", "2", "3", "4"], "the missing ones, and not the one held")
    }

    @Test func imagesOutsideThePlanAreForgotten() throws {
        let decoder = GatedDecoder()
        decoder.openForever()
        let feed = ImageFeed(sources: Self.sources(50), workers: DecodeWorkers(decoder: decoder, threads: 1))
        let box = Size(width: 90, height: 90)
        feed.plan([0, 1, 2], box: box)
        while feed.isLoading { feed.waitForWorkers() }
        _ = feed.collect()
        #expect(feed.cachedCount == 3)
        feed.plan([2, 3], box: box)
        #expect(feed.cachedCount == 1 && feed.outcome(for: 2) != nil && feed.outcome(for: 0) == nil)
        // A new box size makes every held image stale.
        feed.plan([2, 3], box: Size(width: 80, height: 80))
        #expect(feed.cachedCount == 0)
    }
}

/// A decoder that answers at once with an image whose width tells which file it was.
struct CountingDecoder: ImageDecoding {
    func decode(_ source: ImageSource, fittingIn box: Size) throws(ImageError) -> PixelImage {
        let n = Int(source.path.split(separator: "/").last!.split(separator: ".").first!)!
        return PixelImage(width: n + 1, height: 1, fill: (1, 1, 1, 255))
    }
}

@Suite struct FeedCatalogChangeTests {
    func feedWithDecoded(_ sources: [ImageSource]) -> ImageFeed {
        let feed = ImageFeed(sources: sources, workers: DecodeWorkers(decoder: CountingDecoder(), threads: 1))
        feed.plan(Array(sources.indices), box: Size(width: 100, height: 100))
        while feed.isLoading || feed.cachedCount < sources.count {
            feed.waitForWorkers()
            _ = feed.collect()
        }
        return feed
    }

    @Test func decodedImagesFollowTheirFilesWhenIndicesShift() {
        let s = (0..<3).map { ImageSource(path: "/p/\($0).jpg", stamp: FileStamp(size: 1, modified: 1)) }
        let feed = feedWithDecoded(s)
        let started = feed.decodesStarted
        // A new file sorts first: every index moves up by one.
        let new = [ImageSource(path: "/p/7.jpg", stamp: FileStamp(size: 1, modified: 1))] + s
        feed.replaceSources(new)
        for i in 1...3 { #expect(feed.outcome(for: i) == .image(PixelImage(width: i, height: 1, fill: (1, 1, 1, 255)))) }
        #expect(feed.outcome(for: 0) == nil)
        feed.plan([0, 1, 2, 3], box: Size(width: 100, height: 100))
        feed.waitForWorkers()
        #expect(feed.decodesStarted == started + 1, "only the new file is decoded")
    }

    @Test func aReplacedFileIsDecodedAgain() {
        let s = (0..<2).map { ImageSource(path: "/p/\($0).jpg", stamp: FileStamp(size: 1, modified: 1)) }
        let feed = feedWithDecoded(s)
        var replaced = s
        replaced[1].stamp = FileStamp(size: 2, modified: 2)
        feed.replaceSources(replaced)
        #expect(feed.outcome(for: 0) != nil)
        #expect(feed.outcome(for: 1) == nil, "the old picture of a replaced file is not shown")
    }
}

/// A decoder whose helper cannot be started the first `refusals` times (a busy machine).
final class NoHelperYetDecoder: ImageDecoding, @unchecked Sendable {
    private let lock = NSLock()
    private var refusals: Int
    init(refusals: Int) { self.refusals = refusals }
    func decode(_ source: ImageSource, fittingIn box: Size) throws(ImageError) -> PixelImage {
        let refuse = lock.withLock { () -> Bool in defer { refusals -= 1 }; return refusals > 0 }
        if refuse { throw ImageError(path: source.path, reason: "cannot be decoded: no decoder helper could be started", transient: true) }
        return PixelImage(width: 2, height: 1, fill: (1, 1, 1, 255))
    }
}

@Suite struct TransientFailureTests {
    /// Seen with two screens on a loaded machine: a helper that did not start within 10 s
    /// made good pictures broken, and a kiosk (`--broken skip`) left them out of its show
    /// until a restart. Such a failure is no outcome: the next plan asks again.
    @Test func aPictureNoHelperCouldDecodeIsAskedForAgainAndShows() {
        let source = ImageSource(path: "/p/0.jpg", stamp: FileStamp(size: 1, modified: 1))
        let feed = ImageFeed(sources: [source], workers: DecodeWorkers(decoder: NoHelperYetDecoder(refusals: 1), threads: 1))
        let box = Size(width: 100, height: 100)
        feed.plan([0], box: box)
        while feed.isLoading { feed.waitForWorkers() }
        #expect(feed.collect().isEmpty)
        #expect(feed.outcome(for: 0) == nil, "not failed: still to come")
        feed.plan([0], box: box)
        while feed.isLoading || feed.outcome(for: 0) == nil { feed.waitForWorkers(); _ = feed.collect() }
        #expect(feed.outcome(for: 0) == .image(PixelImage(width: 2, height: 1, fill: (1, 1, 1, 255))))
    }
}

/// A decoder that reports, as its image's width, the nice value of the thread it ran on.
struct NiceReportingDecoder: ImageDecoding {
    func decode(_ source: ImageSource, fittingIn box: Size) throws(ImageError) -> PixelImage {
        errno = 0
        let nice = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)  // this thread's, on Linux
        return PixelImage(width: Int(nice) + 100, height: 1, fill: (0, 0, 0, 255))
    }
}

@Suite struct WorkerPriorityTests {
    @Test func decodingRunsBelowTheRenderThreadsPriority() {
        let mine = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
        let workers = DecodeWorkers(decoder: NiceReportingDecoder(), threads: 1)
        defer { workers.stop() }
        workers.want([.init(item: 0, source: ImageSource(path: "/p/0.jpg"), box: Size(width: 10, height: 10))])
        workers.waitForResult()
        let width = (try? workers.take().first?.result.get())?.width
        #expect(width.map { $0 - 100 } == min(Int(mine) + 10, 19), "the worker's nice value: 10 above the caller's")
    }
}

@Suite struct WorkersInMotionTests {
    static func requests(_ n: Int) -> [DecodeWorkers.Request] {
        (0..<n).map { .init(item: $0, source: ImageSource(path: "/p/\($0).jpg"), box: Size(width: 10, height: 10)) }
    }

    @Test func whileTheViewMovesFewerDecodesRunAtOnceAndAtRestAllThreads() {
        let decoder = GatedDecoder()
        let workers = DecodeWorkers(decoder: decoder, threads: 2, whileMoving: 1)
        defer { decoder.openForever(); workers.stop() }
        workers.setMoving(true)
        workers.want(Self.requests(4))
        decoder.waitForStart(beyond: 0)
        usleep(100_000)  // time for a second worker to start one, were it allowed
        #expect(decoder.counts.started == 1, "one decode at a time while moving")
        decoder.allow(1)
        decoder.waitForStart(beyond: 1)
        usleep(100_000)
        #expect(decoder.counts == (started: 2, finished: 1), "the next starts only when the first is done")
        workers.setMoving(false)
        decoder.waitForStart(beyond: 2)
        #expect(decoder.counts == (started: 3, finished: 1), "at rest, both threads decode")
    }
}
