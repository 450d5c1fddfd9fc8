import CarouselCore
import Foundation
import CarouselClock

/// Decoding in helper processes (`carousel decode-helper`), so that no format decoder ever
/// runs in the main process: a file that crashes or hangs a decoder costs one helper, which
/// is replaced, and the file fails with the reason. The main process opens each file itself
/// and passes the descriptor; the helper returns fitted pixels through sealed shared memory.
/// Any thread may call `decode`; each call takes a helper of its own from the pool.
public final class IsolatedDecoder: ImageDecoding, @unchecked Sendable {
    public struct Settings: Sendable {
        /// The program the helpers run (this program: `/proc/self/exe`).
        public var executable: String
        /// Seconds a decode may take before its helper is killed (`--decode-timeout`).
        public var timeout: Double
        /// Each helper's address-space limit in MB (`--decode-memory`).
        public var memoryLimitMB: Int
        /// Largest image accepted, in pixels (`--max-megapixels`).
        public var maxPixels: Int
        /// Off only to measure what DCT scaling saves.
        public var dctScaling: Bool
        /// The screen's ICC profile, which pictures are converted to (`--display-profile`);
        /// nil: sRGB. Each helper reads it once, before its sandbox closes.
        public var displayProfile: String?
        /// Which decoders play clips (`--video-decoder`): `auto` or `software`.
        public var videoDecoders: VideoDecoders
        /// Where GStreamer keeps its plugin registry (in the program's cache folder: the
        /// video helpers read it, and the first writes it, instead of scanning every plugin
        /// at each start); nil: GStreamer's own place.
        public var videoRegistry: String?
        /// A file that ends early shows what arrived (`--broken show`); false: it fails
        /// (`--broken skip` leaves it out).
        public var showsPartial = true
        /// Whether a helper whose system-call filter cannot be installed may decode
        /// (`--decoder-filter`).
        public var filter: DecoderFilter = .required

        public init(executable: String = IsolatedDecoder.ownExecutable, timeout: Double = 10,
                    memoryLimitMB: Int = DecodeMemory.defaultLimitMB, maxPixels: Int = 100_000_000,
                    dctScaling: Bool = true, displayProfile: String? = nil, videoDecoders: VideoDecoders = .auto,
                    videoRegistry: String? = nil, filter: DecoderFilter = .required) {
            self.filter = filter
            self.executable = executable
            self.timeout = timeout
            self.memoryLimitMB = memoryLimitMB
            self.maxPixels = maxPixels
            self.dctScaling = dctScaling
            self.displayProfile = displayProfile
            self.videoDecoders = videoDecoders
            self.videoRegistry = videoRegistry
        }

        /// Seconds a video helper may take to say it is ready. The first start after an
        /// install or a GStreamer upgrade scans every plugin (247 here) to write the registry:
        /// 0.3 s on this machine, over 10 s in the emulated kiosk of the boot proof, where a
        /// 10-s limit killed the scan (so the registry was never written) and failed the first
        /// clip's poster ("the decoder did not start within 10 s").
        var videoStartTimeout: Double { max(60, timeout) }

        /// How a video helper is started: its arguments and environment.
        var videoHelper: (arguments: [String], environment: [String]) {
            if let folder = videoRegistry.map({ ($0 as NSString).deletingLastPathComponent }) {
                try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            }
            return ([VideoHelper.subcommand, "--memory-mb", String(memoryLimitMB), "--decoders", videoDecoders.rawValue,
                     "--open-timeout", String(timeout)]
                        + (displayProfile.map { ["--display-profile", $0] } ?? []),
                    videoRegistry.map { ["GST_REGISTRY=" + $0] } ?? [])
        }
    }

    /// Which helpers a pool runs: the picture decoders, or the video helpers (GStreamer)
    /// that make clips' posters.
    enum Kind { case pictures, clips }

    /// This running program's own file: the very binary running, even if another has been
    /// installed at its path since.
    public static let ownExecutable = "/proc/self/exe"

    /// What happened to the helpers so far.
    public struct Tally: Sendable, Equatable {
        public var started = 0
        public var crashed = 0
        public var timedOut = 0
    }

    public let settings: Settings
    private let kind: Kind
    /// Guards every stored property below it.
    private let lock = NSLock()
    private var idle: [HelperProcess] = []
    private var live: [pid_t: HelperProcess] = [:]
    /// Helpers a thread has checked out: only that thread may wait for them.
    private var busy: Set<pid_t> = []
    /// Files that crashed or hung a helper, with the reason: not tried again in this run.
    private var killers: [FileIdentity: String] = [:]
    private var tally = Tally()
    /// The helper that decoded the last part of a picture for a zoom.
    private var partHelper: pid_t?
    private var stopped = false
    private var warnedUnsandboxed = false
    /// Why helpers could not be started, each said once; the last one, for the files it fails.
    private var spawnProblems: Set<String> = []
    /// The last one (a helper slow to start is transient: its pictures are tried again).
    private var lastSpawnFault: HelperFault?
    private let warn: @Sendable (String) -> Void
    private let spawner = SpawnThread()
    /// Helpers being started in the background at creation; a decode waits for one of
    /// them rather than starting another. Guarded by `starts`.
    private var starting = 0
    private let starts = NSCondition()
    /// The pool that makes clips' posters, started with the first clip (a picture pool's).
    private var clipPool: IsolatedDecoder?

    /// Starts `helpers` helpers (one per decode worker): now, or with `inBackground`,
    /// while the caller goes on (a helper takes 25–50 ms to be ready), so a program can
    /// start them before it scans folders and opens its window. `warn` hears the one line
    /// saying the sandbox is unavailable, if it is, and each helper that could not start.
    public convenience init(_ settings: Settings, helpers: Int, inBackground: Bool = false,
                            warn: @escaping @Sendable (String) -> Void) {
        self.init(settings, kind: .pictures, helpers: max(1, helpers), inBackground: inBackground, warn: warn)
    }

    /// A pool of `kind`, with `helpers` started at once (0: each when first needed).
    init(_ settings: Settings, kind: Kind, helpers: Int, inBackground: Bool = false,
         warn: @escaping @Sendable (String) -> Void) {
        self.settings = settings
        self.kind = kind
        self.warn = warn
        let count = helpers
        guard count > 0 else { return }
        guard inBackground else {
            for _ in 0..<count {
                if let h = spawn() { lock.withLock { idle.append(h) } }
            }
            return
        }
        starting = count
        let thread = Thread { [self] in
            for _ in 0..<count {
                let h = spawn()
                starts.withLock {
                    if let h { checkIn(h) }
                    starting -= 1
                    starts.broadcast()
                }
            }
        }
        thread.name = "decoder-start"
        thread.start()
    }

    deinit { stop() }

    /// Helpers started, crashed and timed out so far, the clips' included.
    public var helperTally: Tally {
        let (own, clips) = lock.withLock { (tally, clipPool) }
        guard let other = clips?.helperTally else { return own }
        return Tally(started: own.started + other.started, crashed: own.crashed + other.crashed,
                     timedOut: own.timedOut + other.timedOut)
    }
    /// Process ids of the helpers running now, the clips' included.
    public var helperProcesses: [pid_t] {
        let (own, clips) = lock.withLock { (Array(live.keys), clipPool) }
        return own + (clips?.helperProcesses ?? [])
    }

    /// The pool for clips' posters, made when the first clip comes.
    private var clips: IsolatedDecoder? {
        lock.withLock {
            guard kind == .pictures, !stopped else { return nil }
            if clipPool == nil { clipPool = IsolatedDecoder(settings, kind: .clips, helpers: 0, warn: warn) }
            return clipPool
        }
    }

    public func decode(_ source: ImageSource, fittingIn box: Size) throws(ImageError) -> PixelImage {
        try decode(source, part: nil, box: box, backdrop: false)
    }

    /// The backdrop is made in the helper, from the picture it fitted.
    public func decode(_ source: ImageSource, fittingIn box: Size, withBackdrop: Bool) throws(ImageError) -> PixelImage {
        try decode(source, part: nil, box: box, backdrop: withBackdrop)
    }

    public func decode(_ source: ImageSource, part: Rect, fittingIn box: Size) throws(ImageError) -> PixelImage {
        try decode(source, part: part as Rect?, box: box, backdrop: false)
    }

    /// The small picture the file carries inside it (EXIF's IFD1 thumbnail), upright and
    /// fitted to `box`, read and decoded in a helper; a file without one (or a clip) fails.
    public func decodeEmbeddedThumbnail(_ source: ImageSource, fittingIn box: Size) throws(ImageError) -> PixelImage {
        try decode(source, part: nil, box: box, backdrop: false, embedded: true)
    }

    private func decode(_ source: ImageSource, part: Rect?, box: Size, backdrop: Bool, embedded: Bool = false) throws(ImageError) -> PixelImage {
        let path = source.path
        if let reason = lock.withLock({ killers[source.file] }) {
            throw ImageError(path: path, reason: reason + "; not tried again until a restart")
        }
        let fd = try ImageFile.open(path)
        defer { close(fd) }
        if kind == .pictures {
            var head = [UInt8](repeating: 0, count: ClipContainer.sniffBytes)
            let n = head.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
            if ClipContainer.isClip(Array(head.prefix(max(0, n)))), let clips {
                if embedded { throw ImageError(path: path, reason: "is a clip: no embedded thumbnail") }
                return try clips.decode(source, part: part, box: box, backdrop: backdrop)
            }
        }
        guard let helper = checkOut(forPart: part != nil) else {
            let fault = lock.withLock { lastSpawnFault }
            throw ImageError(path: path, reason: "cannot be decoded: no decoder helper could be started" + (fault.map { " (\($0))" } ?? ""),
                             transient: fault?.transient ?? false)
        }
        let millionths = part.map { p in
            [p.minX, p.minY, p.size.width, p.size.height].map { Int((min(max($0, 0), 1) * 1e6).rounded()) }
        }.map { p in [p[0], p[1], max(1, min(p[2], 1_000_000 - p[0])), max(1, min(p[3], 1_000_000 - p[1]))] }
        let job = HelperMessage.DecodeJob(name: path, boxWidth: Int(box.width), boxHeight: Int(box.height),
                                          maxPixels: settings.maxPixels, dctScaling: settings.dctScaling, part: millionths,
                                          backdrop: backdrop, partial: settings.showsPartial, embedded: embedded)
        let started = SystemClock.monotonic
        switch helper.decode(job, file: fd, deadline: started + settings.timeout) {
        case .image(let image):
            // It may now hold the whole picture the next part is cut from.
            if part != nil { lock.withLock { partHelper = helper.pid } }
            checkIn(helper)
            let took = SystemClock.monotonic - started
            MediaCounters.count { if embedded { $0.embeddedThumbnails += 1 } else { $0.decodes += 1; $0.decodeSeconds += took } }
            return image
        case .failed(let reason):
            checkIn(helper)
            throw ImageError(path: path, reason: reason)
        case .timedOut:
            let reason = "took longer than \(Self.seconds(settings.timeout)) s to decode"
            replace(helper, blaming: source.file, reason: reason) { $0.timedOut += 1 }
            throw ImageError(path: path, reason: reason)
        case .lost(let how):
            if isStopped { throw ImageError(path: path, reason: "was not decoded (stopping)") }
            let reason = how.hasPrefix("SIG") ? "the decoder crashed on this file (\(how))"
                                              : "the decoder failed on this file (\(how))"
            replace(helper, blaming: source.file, reason: reason) { $0.crashed += 1 }
            throw ImageError(path: path, reason: reason)
        }
    }

    /// Asks a helper to open `path`; what it answered ("opened", "refused: …"). Tests only:
    /// shows the sandbox at work.
    public func probeOpen(_ path: String) -> String {
        probeOpen(path, inClipHelper: false)
    }

    /// The same, asked of a video helper (`inClipHelper`) or a picture helper.
    func probeOpen(_ path: String, inClipHelper: Bool) -> String {
        if inClipHelper { return clips?.probeOpen(path, inClipHelper: false) ?? "no helper" }
        guard let helper = checkOut() else { return "no helper" }
        defer { checkIn(helper) }
        switch helper.probeOpen(path, deadline: SystemClock.monotonic + settings.timeout) {
        case .failed(let answer): return answer
        default: return "no answer"
        }
    }

    /// Kills every helper, idle or busy; decodes under way end as failures. For good.
    public func stop() {
        lock.withLock { clipPool }?.stop()
        spawner.finish()
        let (all, busyNow) = lock.withLock { () -> ([HelperProcess], Set<pid_t>) in
            stopped = true
            idle.removeAll()
            defer { live.removeAll() }
            return (Array(live.values), busy)
        }
        // Busy ones are reaped by the thread that has them, when its receive sees the end.
        for h in all {
            if busyNow.contains(h.pid) { kill(h.pid, SIGKILL) } else { h.terminate() }
        }
    }

    private var isStopped: Bool { lock.withLock { stopped } }

    private func checkOut(forPart: Bool = false) -> HelperProcess? {
        let h = waitForAStart(forPart: forPart) ?? spawn()
        guard let h else { return nil }
        let ok = lock.withLock { () -> Bool in
            guard !stopped else { return false }
            busy.insert(h.pid)
            return true
        }
        if !ok { h.terminate(); return nil }
        return h
    }

    /// Blocks until the helpers started in the background at creation are ready or failed.
    public func waitUntilStarted() {
        starts.withLock { while starting > 0 { starts.wait() } }
    }

    /// An idle helper, if there is one or one being started at creation becomes ready: for
    /// a zoom's part the one that decoded the last part (it may hold the whole picture,
    /// `WholePictureCache`), for anything else another one while there is one.
    private func waitForAStart(forPart: Bool) -> HelperProcess? {
        starts.withLock {
            while true {
                if let h = lock.withLock({ () -> HelperProcess? in
                    guard !stopped, let last = idle.indices.last else { return nil }
                    return idle.remove(at: idle.lastIndex { ($0.pid == partHelper) == forPart } ?? last)
                }) { return h }
                if starting == 0 || isStopped { return nil }
                starts.wait()
            }
        }
    }

    private func checkIn(_ helper: HelperProcess) {
        let kept = lock.withLock { () -> Int? in
            busy.remove(helper.pid)
            guard !stopped else { return nil }
            idle.append(helper)
            checkIns += 1
            idleTurn[helper.pid] = checkIns
            return checkIns
        }
        guard let turn = kept else { return helper.terminate() }
        if kind == .clips { retireIfStillIdle(helper, turn: turn) }
    }

    /// Seconds a clips' poster helper waits idle before it ends: a clip plays in a helper of
    /// its own, and the poster helper beside it held 36 MB (after a 4K HEVC 10-bit poster,
    /// libav's pools: far more) while it played; posters asked for together (a strip's
    /// neighbours) still share one.
    static let clipHelperIdleSeconds = 3.0
    private var checkIns = 0
    /// Each idle helper's check-in number: a retirement planned for an earlier one is void.
    private var idleTurn: [pid_t: Int] = [:]

    /// Ends `helper` if, `clipHelperIdleSeconds` after its check-in number `turn`, it is idle
    /// still from that check-in (no decode has taken it since).
    private func retireIfStillIdle(_ helper: HelperProcess, turn: Int) {
        DispatchQueue.global(qos: .utility).asyncAfter(deadline: .now() + Self.clipHelperIdleSeconds) { [weak self] in
            guard let self else { return }
            let retire = lock.withLock { () -> Bool in
                guard idleTurn[helper.pid] == turn, let i = idle.firstIndex(where: { $0.pid == helper.pid }) else { return false }
                idle.remove(at: i)
                live[helper.pid] = nil
                idleTurn[helper.pid] = nil
                return true
            }
            if retire { helper.terminate() }
        }
    }

    /// Kills `helper`, remembers the file that did it, and starts a replacement at once.
    private func replace(_ helper: HelperProcess, blaming file: FileIdentity, reason: String,
                         count: (inout Tally) -> Void) {
        helper.terminate()
        let keepGoing = lock.withLock { () -> Bool in
            live[helper.pid] = nil
            idleTurn[helper.pid] = nil
            busy.remove(helper.pid)
            killers[file] = reason
            count(&tally)
            return !stopped
        }
        if keepGoing { MediaCounters.noteHelperRestart() }
        if keepGoing, let fresh = spawn() {
            checkIn(fresh)
        }
    }

    private func spawn() -> HelperProcess? {
        guard !isStopped else { return nil }
        let (executable, memory, profile, kind) = (settings.executable, settings.memoryLimitMB, settings.displayProfile, kind)
        let video = kind == .clips ? settings.videoHelper : nil
        let startTimeout = settings.videoStartTimeout
        let filter = settings.filter
        let started = spawner.run { () -> Result<HelperProcess, HelperFault> in
            do throws(HelperFault) {
                switch kind {
                case .pictures:
                    return .success(try HelperProcess.start(executable: executable, memoryLimitMB: memory, displayProfile: profile,
                                                            filter: filter))
                case .clips:
                    return .success(try HelperProcess.start(executable: executable, arguments: video?.arguments ?? [],
                                                            environment: video?.environment ?? [], startTimeout: startTimeout,
                                                            filter: filter))
                }
            } catch {
                return .failure(error)
            }
        }
        let helper: HelperProcess
        switch started {
        case .success(let h)?: helper = h
        case .failure(let error)?:
            let first = lock.withLock { () -> Bool in
                lastSpawnFault = error
                return spawnProblems.insert(error.description).inserted
            }
            if first { warn("decoder helper: \(error.description)") }
            return nil
        case nil:
            return nil  // stopped meanwhile
        }
        let (note, stillWanted) = lock.withLock { () -> (String?, Bool) in
            tally.started += 1
            guard !stopped else { return (nil, false) }
            live[helper.pid] = helper
            guard let why = helper.unsandboxedBecause, !warnedUnsandboxed else { return (nil, true) }
            warnedUnsandboxed = true
            return (why, true)
        }
        if let note { warn("decoder helpers run without their system-call filter: \(note)") }
        if !stillWanted { helper.terminate(); return nil }
        return helper
    }

    private static func seconds(_ s: Double) -> String {
        s == s.rounded() ? String(Int(s)) : String(s)
    }
}
