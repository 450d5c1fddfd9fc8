import CarouselMedia

/// Keeps the shown images in step with the source folders while the program runs: a
/// `FolderWatcher` says when something changed, a periodic rescan catches what inotify
/// cannot see (network mounts, a source not there yet), and `StableCatalog` holds back
/// files still being written. Where inotify sees everything there is no periodic rescan:
/// a kiosk at rest on a local disk does not wake at all. Main thread only; scanning reads
/// names and sizes, never pixels.
final class CatalogUpdater {
    private let options: SourceOptions
    private var stable: StableCatalog
    private let watcher: FolderWatcher?
    /// Seconds between rescans of what the watcher cannot see; nil: never.
    private let rescanInterval: Double?
    private var nextRescan: Double?
    private var recheckAt: Double?
    /// Set by the watcher's wake-up: rescan at the next chance.
    private var changed = false
    /// Skipped-file notes already logged: a rescan every 30 s must not repeat them.
    private var noted: Set<String> = []

    /// - Parameters:
    ///   - initial: what is shown now, as scanned at start, with its folders and missing sources.
    ///   - noted: what that scan already logged, not to be logged again.
    ///   - wake: called from the watcher's thread when the folders changed.
    init(options: SourceOptions, initial: SourceScanner.Result, noted: Set<String> = [],
         rescanInterval: Double?, now: Double, watcher makeWatcher: (@escaping @Sendable () -> Void) -> FolderWatcher? = { FolderWatcher(onChange: $0) },
         wake: @escaping @Sendable () -> Void) {
        self.options = options
        self.noted = noted
        self.stable = StableCatalog(initial: initial.sources)
        self.rescanInterval = rescanInterval
        self.watcher = makeWatcher(wake)
        armRescan(after: initial, now: now)
    }

    /// Watches the scan's folders; a periodic rescan only if some of it is out of sight.
    private func armRescan(after scan: SourceScanner.Result, now: Double) {
        let unseen = watcher?.watch(scan.folders) ?? scan.folders
        let blind = watcher == nil || !unseen.isEmpty || !scan.missing.isEmpty
        nextRescan = blind ? rescanInterval.map { now + $0 } : nil
    }

    /// The watcher reported a change.
    func noteChange() { changed = true }

    /// When `check` should run next even if nothing is reported.
    var nextCheck: Double? {
        [nextRescan, recheckAt].compactMap { $0 }.min()
    }

    /// Whether a check is due at `now`.
    func isDue(at now: Double) -> Bool {
        changed || (nextCheck.map { $0 <= now } ?? false)
    }

    /// Rescans; returns the new list when it differs from `current`, else nil.
    func check(current: [ImageSource], now: Double) -> [ImageSource]? {
        changed = false
        let scan: SourceScanner.Result
        do {
            scan = try options.scan(tolerant: true) { [self] line in
                if noted.insert(line).inserted { Log.info(line) }
            }
        } catch {
            // A manifest edited into a mistake: keep what is shown, say so once, and try
            // again at the next change or rescan (not at once: that would spin).
            if noted.insert("\(error)").inserted { Log.warn("rescan: \(error)") }
            recheckAt = nil
            nextRescan = rescanInterval.map { now + $0 }
            return nil
        }
        armRescan(after: scan, now: now)
        let admitted = stable.admit(scan.sources, at: now)
        recheckAt = admitted.recheckAt
        var next = admitted.sources
        if options.order == .random { next = Self.keepingOrder(of: current, with: next) }
        return next == current ? nil : next
    }

    /// `--order random`: the shown order stays; files that left go, new ones come in at
    /// random places, replaced ones keep their place.
    static func keepingOrder(of current: [ImageSource], with scanned: [ImageSource]) -> [ImageSource] {
        var byPath: [String: ImageSource] = [:]
        for s in scanned { byPath[s.path] = s }
        let known = Set(current.map(\.path))
        var result = current.compactMap { byPath[$0.path] }
        var rng = SystemRandomNumberGenerator()
        for s in scanned where !known.contains(s.path) {
            result.insert(s, at: Int.random(in: 0...result.count, using: &rng))
        }
        return result
    }
}
