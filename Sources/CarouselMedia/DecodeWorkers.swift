import CarouselCore
import Foundation

/// A bounded pool of background threads that decode images, most urgent request first.
/// The render thread only posts requests and collects results; it never waits on a worker.
/// Requests no longer wanted are dropped before they start.
public final class DecodeWorkers: @unchecked Sendable {
    public struct Request: Hashable, Sendable {
        public var item: Int
        public var source: ImageSource
        /// The box the image is fitted to: a result for an old box is stale after a resize.
        public var box: Size
        /// Only this part of the picture (fractions of it: a zoom's detail); nil: all of it.
        public var part: Rect?

        public init(item: Int, source: ImageSource, box: Size, part: Rect? = nil) {
            self.item = item
            self.source = source
            self.box = box
            self.part = part
        }
    }

    public struct Completed: Sendable {
        public var request: Request
        public var result: Result<PixelImage, ImageError>
    }

    /// Guards every stored property below it.
    private let condition = NSCondition()
    private var queue: [Request] = []
    private var running: Set<Request> = []
    private var completed: [Completed] = []
    private var stopping = false
    private var started = 0
    private var dropped = 0
    private var moving = false
    private let decoder: any ImageDecoding
    private let wake: @Sendable () -> Void
    private let stopsDecoder: Bool
    /// Decodes run at once while the view moves (`whileMoving`); all threads at rest.
    private let movingThreads: Int
    /// Run on each picture decoded, on the worker.
    private let finish: (@Sendable (inout PixelImage) -> Void)?
    /// Whole pictures come with their blurred backdrop (`--fill`), made by the decoder.
    private let backdrops: Bool

    /// `wake` is called on a worker thread after each result, to wake the main loop.
    /// `stopsDecoder`: `stop` stops the decoder too (its helpers); false where the decoder
    /// is borrowed from another view, whose helpers must outlive these workers.
    /// `whileMoving`: at most this many decodes at once while the view says it moves
    /// (`setMoving`), so the render thread keeps its core; nil: all `threads` always.
    public init(decoder: any ImageDecoding, threads: Int = DecodeWorkers.defaultThreadCount,
                whileMoving: Int? = nil, stopsDecoder: Bool = true, backdrops: Bool = false,
                finish: (@Sendable (inout PixelImage) -> Void)? = nil, wake: @escaping @Sendable () -> Void = {}) {
        self.decoder = decoder
        self.backdrops = backdrops
        self.finish = finish
        self.wake = wake
        self.stopsDecoder = stopsDecoder
        self.movingThreads = max(1, min(whileMoving ?? threads, threads))
        for n in 0..<max(1, threads) {
            let thread = Thread { [self] in work() }
            thread.name = "decode-\(n)"
            thread.start()
        }
    }

    /// Cores less one for the render thread, at least one.
    public static var defaultThreadCount: Int { max(1, ProcessInfo.processInfo.activeProcessorCount - 1) }
    /// Every core: for a view at rest, whose render thread has nothing to draw.
    public static var restingThreadCount: Int { max(1, ProcessInfo.processInfo.activeProcessorCount) }

    /// Whether the view moves (a drag, a fling, a settle): decodes beyond `whileMoving`
    /// wait until it rests; those running finish.
    public func setMoving(_ isMoving: Bool) {
        condition.lock()
        if moving != isMoving {
            moving = isMoving
            condition.broadcast()
        }
        condition.unlock()
    }

    deinit { stop() }

    /// Replaces the queue with `requests`, most urgent first. Queued requests that are not
    /// among them are dropped; those already running finish and are delivered.
    public func want(_ requests: [Request]) {
        condition.lock()
        let keep = Set(requests)
        dropped += queue.count(where: { !keep.contains($0) })
        queue = requests.filter { !running.contains($0) }
        condition.broadcast()
        condition.unlock()
    }

    /// Results delivered since the last call, without waiting.
    public func take() -> [Completed] {
        condition.lock()
        defer { completed.removeAll(); condition.unlock() }
        return completed
    }

    /// Blocks until a result is ready or nothing is queued or running. For `carousel
    /// render` only, whose snapshots wait for their images.
    public func waitForResult() {
        condition.lock()
        while completed.isEmpty && !(queue.isEmpty && running.isEmpty) { condition.wait() }
        condition.unlock()
    }

    /// Decodes started since creation: how much work scrolling really caused.
    public var decodesStarted: Int { locked { started } }
    /// Requests dropped from the queue before they started.
    public var requestsDropped: Int { locked { dropped } }
    /// Requests queued or running.
    public var busy: Bool { locked { !queue.isEmpty || !running.isEmpty } }

    /// Lets the workers finish their current decode and exit; a decoder with helper
    /// processes ends them (unless borrowed), so a decode that hangs cannot hold anything up.
    public func stop() {
        let first = locked { () -> Bool in
            defer { stopping = true; queue.removeAll(); condition.broadcast() }
            return !stopping
        }
        if first && stopsDecoder { decoder.stop() }
    }

    private func work() {
        BackgroundPriority.lowerThisThread()
        while true {
            condition.lock()
            while (queue.isEmpty || moving && running.count >= movingThreads) && !stopping { condition.wait() }
            if stopping { condition.unlock(); return }
            let request = queue.removeFirst()
            running.insert(request)
            started += 1
            condition.unlock()

            let result: Result<PixelImage, ImageError>
            do {
                if let part = request.part {
                    var image = try decoder.decode(request.source, part: part, fittingIn: request.box)
                    finish?(&image)
                    result = .success(image)
                } else {
                    var image = try decoder.decode(request.source, fittingIn: request.box, withBackdrop: backdrops)
                    finish?(&image)
                    result = .success(image)
                }
            }
            catch { result = .failure(error) }

            condition.lock()
            running.remove(request)
            completed.append(Completed(request: request, result: result))
            condition.broadcast()
            condition.unlock()
            wake()
        }
    }

    private func locked<T>(_ body: () -> T) -> T {
        condition.lock()
        defer { condition.unlock() }
        return body()
    }
}
