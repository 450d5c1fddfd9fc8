import CarouselMedia
import CarouselCore
import Foundation
import TOMLReader
import CarouselClock

/// The pictures of the web sources (manifest URLs and picture URLs), kept in a
/// `RemoteCache` so that the show goes on without the network.
///
/// - Each source is polled every `refresh` seconds with a conditional request: an unchanged
///   manifest costs one 304. A changed one replaces the items (the app applies it like a
///   hot reload) and every picture is checked again (conditional requests too).
/// - A manifest that does not parse (bad TOML, an HTML error page) or a failed request
///   keeps the last good items; failures are retried with backoff, from `firstRetry`
///   doubling up to `refresh`.
/// - Pictures download on `downloads` threads: first those a decoder waits for (in the
///   order asked: the load order), then the rest of the items in order, to fill the cache.
/// - Started with a cached manifest, its items are listed at once and pictures come from
///   the cache; the server is asked in the background.
/// Everything here runs off the render thread; `changed` says when the items or a
/// source's state changed, `event` reports `download_failed` and `source_status`.
public final class RemoteLibrary: RemoteLink, @unchecked Sendable {
    public struct Settings: Sendable {
        public var cacheFolder: String
        public var cacheLimitBytes: Int64 = 1 << 30
        /// Seconds between polls of a source.
        public var refresh: Double = 300
        public var maxDownloadBytes: Int64 = 64 << 20
        public var caFile: String?
        public var downloads = 2
        public var connectTimeout: Double = 10
        public var idleTimeout: Double = 20
        public var totalTimeout: Double = 300
        /// The first retry after a failure; doubled each time up to `refresh`.
        public var firstRetry: Double = 5
        /// Seconds after start before pictures already cached are checked with the server:
        /// the first screen's decodes come first (200 checks at start cost the first
        /// complete frame about 100 ms on 2 cores).
        public var quietStart: Double = 5
        /// A family's Immich library, listed through its API (`sourceURL` is its source);
        /// every request to its server carries its key.
        public var immich: ImmichSource?
        /// The netrc file whose logins the WebDAV sources use; nil: ~/.netrc.
        public var netrcFile: String?
        /// The order of a WebDAV folder's files (a local folder's: by name or by time).
        public var order: SourceScanner.Order = .name

        public init(cacheFolder: String) { self.cacheFolder = cacheFolder }
    }

    /// How a source is doing: `online` (its last poll worked), `offline` (it failed and the
    /// cached items show), `stale` (the server answered with a manifest that does not
    /// parse, the last good one shows), `waiting` (nothing from it yet).
    public enum State: String, Sendable { case waiting, online, offline, stale }

    public let settings: Settings
    public let cache: RemoteCache
    /// Called from a background thread when `items` or a state changed.
    private let changed: @Sendable () -> Void
    /// `download_failed` {url, reason} (once per URL and reason until it works again) and
    /// `source_status` {url, state}, from background threads.
    private let event: @Sendable (_ type: String, _ fields: [(String, String)]) -> Void
    /// One line for the log, from background threads.
    private let warn: @Sendable (String) -> Void

    /// Everything below is kept under this lock, shared by the poll thread, the download
    /// threads and the decoders asking.
    private let lock = NSCondition()
    private var sources = RemoteSourceTable()
    private var downloads = DownloadQueue()
    private var failures = FailureBook()
    /// The stamp each picture was listed with: it changes only when the picture was
    /// replaced on the server or came after a failure, so the first download of a picture
    /// does not decode it twice.
    private var listedStamps: [String: FileStamp?] = [:]
    /// Recently decoded pictures: never evicted (they are what the slots show).
    private var recent: [String] = []
    /// Files a view waits for without blocking, and whom to tell when each arrives.
    private var awaited: [String: @Sendable () -> Void] = [:]
    /// The WebDAV folders among the sources: their requests carry the login.
    private var davFolders: [DAVSource] = []
    /// Lines a listing said (an album not found, a bound reached): each once in a run.
    private var noted: Set<String> = []
    /// Each listing source as polled so far (what it keeps between polls): the poll thread's only.
    private var polled: [String: any RemoteSource] = [:]
    private var stopped = false
    /// Until then pictures already cached are not checked with the server (`quietStart`).
    private let quietUntil: Date

    /// Each source's URL, state and when its server last answered (the control API's status).
    public var sourceReport: [(url: String, state: String, lastSuccess: Double?)] {
        lock.withLock { sources.report }
    }

    public init(settings: Settings, warn: @escaping @Sendable (String) -> Void,
                changed: @escaping @Sendable () -> Void = {},
                event: @escaping @Sendable (_ type: String, _ fields: [(String, String)]) -> Void = { _, _ in }) {
        self.settings = settings
        self.warn = warn
        self.changed = changed
        self.event = event
        self.quietUntil = SystemClock.deadline(after: settings.quietStart)
        self.cache = RemoteCache(folder: settings.cacheFolder, limitBytes: settings.cacheLimitBytes, warn: warn)
        cache.pinned = { [weak self] in self?.pinnedURLs() ?? [] }
        Thread { [self] in pollLoop() }.start()
        for n in 0..<max(1, settings.downloads) {
            let t = Thread { [self] in downloadLoop() }
            t.name = "download-\(n)"
            t.start()
        }
    }

    public func stop() {
        lock.withLock { stopped = true; lock.broadcast() }
    }

    // MARK: - What the app asks

    /// The items of source `url` as known now, each a picture URL; nil while nothing was
    /// ever received from it (the first call registers the source and polls it at once).
    /// A manifest cached by an earlier run is listed at once.
    public func items(of url: String) -> [ImageSource]? {
        lock.lock()
        defer { lock.unlock() }
        if sources[url] == nil {
            // An Immich or WebDAV listing is kept in the cache as a manifest, and read back as one.
            let isManifest = Self.isManifest(url) || settings.immich?.sourceURL == url || DAVSource.isDAV(url)
            if DAVSource.isDAV(url), let folder = try? DAVSource(url) { davFolders.append(folder) }
            var s = RemoteSourceTable.Source(isManifest: isManifest)
            if isManifest {
                if let file = cache.verifiedFile(for: url), let items = try? Self.parse(file: file, url: url) { s.items = items }
            } else {
                s.items = [ImageSource(path: url)]
            }
            sources.register(url, s)
            lock.broadcast()
        }
        guard let items = sources[url]!.items else { return nil }
        return items.map { item in
            var listed = item
            if let stamp = listedStamps[item.path] { listed.stamp = stamp } else {
                let stamp = cache.entry(for: item.path).map(Self.stamp)
                listedStamps[item.path] = stamp
                listed.stamp = stamp
            }
            return listed
        }
    }

    /// Waits until each of `urls` (registered if need be) was polled once, answered or
    /// not, or `timeout` seconds passed: for `carousel render`, whose frames must not depend
    /// on how fast the server was.
    /// - Parameter onlyUncached: wait only for sources with nothing cached (a kiosk with a
    ///   cached show starts showing it at once).
    public func waitUntilPolled(_ given: [String], within timeout: Double, onlyUncached: Bool = false) {
        let urls = given.filter { items(of: $0) == nil || !onlyUncached }
        let end = SystemClock.deadline(after: timeout)
        lock.lock()
        defer { lock.unlock() }
        while !urls.allSatisfy(sources.polled.contains) && !stopped {
            if !lock.wait(until: end) { return }
        }
    }

    /// The state of source `url`.
    public func state(of url: String) -> State { lock.withLock { sources[url]?.state ?? .waiting } }

    /// The cached file of picture `url`, downloading it first if need be (ahead of every
    /// other download); waits at most until `deadline` (seconds from now). A failure says
    /// why (an HTTP status, a timeout, too large…) with the URL.
    public func file(for url: String, within deadline: Double = 60) throws(ImageError) -> String {
        if let path = cache.verifiedFile(for: url) { noteDecoded(url); return path }
        let end = SystemClock.deadline(after: deadline)
        lock.lock()
        // Tried since the server last answered a poll, and failed: the same answer until the
        // next poll (which tries it again), not another request for each decoder that asks.
        if downloads.isConfirmed(url), !downloads.isDownloading(url), let failure = failures.failure(of: url) {
            lock.unlock()
            throw ImageError(path: url, reason: failure)
        }
        let before = downloads.attempts(of: url)
        downloads.hurry(url)
        lock.broadcast()
        while downloads.attempts(of: url) == before && !stopped {
            if !lock.wait(until: end) { break }
        }
        let failure = failures.failure(of: url)
        let tried = downloads.attempts(of: url) > before
        lock.unlock()
        if let path = cache.verifiedFile(for: url) { noteDecoded(url); return path }
        throw ImageError(path: url, reason: tried ? failure ?? "not downloaded" : "not downloaded within \(Int(deadline)) s")
    }

    /// The cached file of `url` once it is downloaded whole and checked (its poster's decode
    /// did both), else nil; never waits: a web clip plays from it.
    public func fileIfReady(for url: String) -> String? { cache.checkedFile(for: url) }

    /// As `fileIfReady`; when it is not there yet, it is downloaded before anything else and
    /// `arrived` is called once it is (a Live Photo's motion: the loop is woken to play it).
    public func fileIfReady(for url: String, arrived: @escaping @Sendable () -> Void) -> String? {
        if let path = cache.checkedFile(for: url) { return path }
        lock.withLock {
            if awaited[url] == nil, !downloads.isDownloading(url) { downloads.hurry(url) }
            awaited[url] = arrived
            lock.broadcast()
        }
        return nil
    }

    // MARK: - Polling the sources

    private func pollLoop() {
        while true {
            lock.lock()
            var due: String?
            while !stopped {
                let now = SystemClock.wall
                due = sources.due(at: now)
                if due != nil { break }
                _ = lock.wait(until: Date(timeIntervalSince1970: sources.nextPoll(after: now)))
            }
            if stopped { lock.unlock(); return }
            lock.unlock()
            poll(due!)
            cache.saveIfChanged()
        }
    }

    private func poll(_ url: String) {
        let (isListing, hasItems) = lock.withLock { (sources[url]!.isManifest, sources[url]!.items != nil) }
        guard isListing else {
            // A picture given as a source: checked with the server at each refresh.
            lock.withLock {
                downloads.recheck(url)
                sources.checkedPicture(url, next: SystemClock.wall + settings.refresh)
                lock.broadcast()
            }
            return
        }
        var source = polled[url] ?? self.source(for: url)
        let listing = source.list(via: self, hasItems: hasItems)
        polled[url] = source
        switch listing {
        case .unchanged:
            succeeded(url)
            settle(url, state: .online, items: nil)
        case .listed(let items, let current):
            succeeded(url)
            settle(url, state: .online, items: items, current: current)
        case .failed(let reason, let answered):
            failed(url, reason: reason)
            settle(url, state: hasItems ? (answered ? .stale : .offline) : .waiting, items: nil, retry: true)
        }
    }

    /// The source that lists `url`: a new kind of source is a line here.
    private func source(for url: String) -> any RemoteSource {
        if let immich = settings.immich, immich.sourceURL == url { return ImmichLibrarySource(immich) }
        if DAVSource.isDAV(url) { return DAVFolderSource(address: url, order: settings.order, netrcFile: settings.netrcFile) }
        return ManifestSource(url: url, maxBytes: min(settings.maxDownloadBytes, 8 << 20))
    }

    func fetch(_ request: HTTPFetcher.Request, into file: String) -> HTTPFetcher.Outcome {
        HTTPFetcher.fetch(request, into: file)
    }

    func answer(_ request: HTTPFetcher.Request, refused: String) -> Result<[UInt8], RemoteRefusal> {
        let temporary = cache.temporaryFile()
        defer { unlink(temporary) }
        switch fetch(request, into: temporary) {
        case .fetched:
            return FileManager.default.contents(atPath: temporary).map { .success([UInt8]($0)) } ?? .failure(.init("cannot read the answer"))
        case .notModified: return .failure(.init("an unasked 304"))
        case .failed(let reason):
            return .failure(.init(reason + (reason == "HTTP 401" || reason == "HTTP 403" ? " (\(refused))" : "")))
        }
    }

    /// A listing kept in the cache as a manifest, for an offline start; not kept (one
    /// line), the show goes on from memory.
    func keep(_ items: [ImageSource], of url: String, named name: String) {
        let temporary = cache.temporaryFile()
        if FileManager.default.createFile(atPath: temporary, contents: Data(Manifest.text(of: items).utf8)) {
            cache.store(url, from: temporary, etag: nil, lastModified: nil)
        } else {
            unlink(temporary)
            warn("\(name): its listing cannot be kept in the cache (\(temporary))")
        }
    }

    func note(_ line: String) {
        if lock.withLock({ noted.insert(line).inserted }) { warn(line) }
    }

    /// Records a poll's outcome: the items of a manifest received (nil: none, a 304 or a
    /// failure), the state, when to poll next. `current`: items whose cached copy the
    /// listing shows to be the server's (a WebDAV ETag), not asked for again.
    private func settle(_ url: String, state: State, items: [ImageSource]?, retry: Bool = false, current: Set<String> = []) {
        let outcome = lock.withLock {
            // A new manifest (even listing the same pictures: one may have been replaced
            // under its name): every picture is checked with the server again.
            for item in items ?? [] {
                if current.contains(item.path) { downloads.confirm(item.path) } else { downloads.recheck(item.path) }
            }
            if state == .online {
                // The server answers: pictures that failed are tried again.
                for item in items ?? sources[url]?.items ?? [] where failures.failure(of: item.path) != nil {
                    downloads.recheck(item.path)
                }
            }
            defer { lock.broadcast() }
            return sources.settle(url, state: state, items: items, retry: retry, now: SystemClock.wall,
                                  refresh: settings.refresh, firstRetry: settings.firstRetry)
        }
        if outcome.changedState { event("source_status", [("url", url), ("state", state.rawValue)]) }
        if outcome.changedItems || outcome.changedState { changed() }
    }

    // MARK: - Downloading the pictures

    private func downloadLoop() {
        while true {
            lock.lock()
            var next: (url: String, forDecoder: Bool)?
            while !stopped {
                // Pictures are checked in the background only while their server answers
                // (a failed one is tried again after the next poll that reaches it); in the
                // quiet start only those not cached at all.
                let quiet = SystemClock.date < quietUntil
                next = downloads.take(background: sources.onlineItems) { quiet && cache.entry(for: $0) != nil }
                if next != nil { break }
                if quiet { _ = lock.wait(until: quietUntil) } else { lock.wait() }
            }
            lock.unlock()
            guard let next else { return }
            download(next.url, forDecoder: next.forDecoder)
        }
    }

    /// `forDecoder`: a decoder waits for it, and its failure is logged with the picture
    /// (`load_failed`): not said here a second time.
    private func download(_ url: String, forDecoder: Bool) {
        // The validators of what is cached (its length was checked at start; its hash is
        // checked by the first decode, not here: hashing every picture at start would
        // compete with the first screen's decodes).
        let cached = cache.entry(for: url)
        var request = self.request(url, maxBytes: settings.maxDownloadBytes)
        request.etag = cached?.etag
        request.lastModified = cached?.lastModified
        let temporary = cache.temporaryFile()
        let outcome = HTTPFetcher.fetch(request, into: temporary)
        var replaced = false
        switch outcome {
        case .notModified:
            unlink(temporary)
            cache.confirmed(url, etag: nil, lastModified: nil)
            succeeded(url)
        case .fetched(_, _, let etag, let lastModified):
            let previous = cache.entry(for: url)
            if let entry = cache.store(url, from: temporary, etag: etag, lastModified: lastModified) {
                let recovered = lock.withLock { failures.failure(of: url) != nil }
                succeeded(url)
                // A picture replaced on the server, or shown as failed before, is listed anew
                // (its new stamp makes the views decode it again); a first download is not.
                if (previous != nil && previous?.hash != entry.hash) || recovered {
                    lock.withLock { listedStamps[url] = Self.stamp(entry) }
                    replaced = true
                }
            } else {
                failed(url, reason: "cannot keep the download in the cache")
            }
        case .failed(let reason):
            unlink(temporary)
            // A cached copy keeps showing. The network gone is the source's state (offline),
            // not a failure of each picture; the server refusing it (HTTP 404) is said.
            if cached == nil || reason.hasPrefix("HTTP ") { failed(url, reason: reason, logged: !forDecoder) }
        }
        let waiter = lock.withLock { () -> (@Sendable () -> Void)? in
            // Asked for while it was downloading in the background: done now, not to be asked again.
            downloads.finished(url)
            lock.broadcast()
            return awaited.removeValue(forKey: url)
        }
        waiter?()
        if replaced { changed() }
    }

    func request(_ url: String, maxBytes: Int64) -> HTTPFetcher.Request {
        var r = HTTPFetcher.Request(url: url)
        r.maxBytes = maxBytes
        r.caFile = settings.caFile
        r.connectTimeout = settings.connectTimeout
        r.idleTimeout = settings.idleTimeout
        r.totalTimeout = settings.totalTimeout
        if let immich = settings.immich, immich.owns(url) { r.headers = immich.headers }
        if lock.withLock({ davFolders.contains { $0.owns(url) } }) { r.login = .netrc(file: settings.netrcFile) }
        return r
    }

    private func succeeded(_ url: String) {
        lock.withLock { failures.succeeded(url) }
    }

    /// Whether `line` is what this library said of a failure that still stands: the views
    /// do not say a picture's failure again when it was said as its download failed.
    public func hasSaid(_ line: String) -> Bool { lock.withLock { failures.hasSaid(line) } }

    /// Says a failure once per URL and reason, until the URL works again.
    private func failed(_ url: String, reason: String, logged: Bool = true) {
        guard lock.withLock({ failures.record(url, reason: reason) }) else { return }
        if logged {
            let line = "\(url): \(reason)"
            lock.withLock { failures.said(line, of: url) }
            warn(line)
        }
        event("download_failed", [("url", url), ("reason", reason)])
    }

    private func noteDecoded(_ url: String) {
        cache.shown(url)
        lock.withLock {
            recent.removeAll { $0 == url }
            recent.append(url)
            if recent.count > 32 { recent.removeFirst() }
        }
    }

    private func pinnedURLs() -> Set<String> {
        lock.withLock { Set(recent).union(sources.order) }
    }

    // MARK: - Helpers

    static func isManifest(_ url: String) -> Bool {
        (URL(string: url)?.path ?? url).lowercased().hasSuffix(".toml")
    }

    static func stamp(_ entry: RemoteCache.Entry) -> FileStamp {
        let digest = entry.hash.split(separator: "-").last.flatMap { UInt64($0, radix: 16) } ?? 0
        return FileStamp(size: entry.bytes, modified: Int64(bitPattern: digest))
    }

    /// The items of the manifest in `file`, downloaded from `url`.
    static func parse(file: String, url: String) throws(Manifest.Problem) -> [ImageSource] {
        guard let data = FileManager.default.contents(atPath: file) else {
            throw Manifest.Problem(file: url, line: nil, message: "cannot read the downloaded manifest")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw Manifest.Problem(file: url, line: nil, message: "is not UTF-8 text (a picture or an error page?)")
        }
        return try Manifest.parse(text, url: url)
    }
}
