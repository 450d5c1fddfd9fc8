import CarouselCore
import CarouselMedia
import Foundation
import CarouselClock
import CarouselSources

/// Keeps the shown images in step with the source folders while the program runs: a
/// `FolderWatcher` says when something changed, a periodic rescan catches what inotify
/// cannot see (network mounts, a source not there yet), and `StableCatalog` holds back
/// files still being written. Where inotify sees everything there is no periodic rescan:
/// a kiosk at rest on a local disk does not wake at all.
///
/// The run loop scans on a background thread (`begin`, then `finish` once `scanned` has
/// woken it): reading thousands of names on a network share can take seconds, and a touch
/// must not wait for it. Everything else happens on the main thread.
final class CatalogUpdater {
    /// Reads the sources' names and sizes (never pixels); `note` hears each file skipped.
    typealias Scan = @Sendable (_ note: (String) -> Void) throws -> SourceScanner.Result

    private let scan: Scan
    private var stable: StableCatalog
    private let watcher: FolderWatcher?
    /// Seconds between rescans of what the watcher cannot see; nil: never.
    private let rescanInterval: Double?
    private var nextRescan: Double?
    private var recheckAt: Double?
    /// `--on-this-day`: the next local midnight, when the day's pictures change.
    private var nextDay: Double?
    /// The wall clock (seconds since 1970) beside the loop's; tests give their own.
    private let wallClock: @Sendable () -> Double
    /// Set by the watcher's wake-up: rescan at the next chance.
    private var changed = false
    /// Skipped-file notes already logged: a rescan every 30 s must not repeat them.
    private var noted: Set<String> = []
    /// The background scan under way or finished and not yet applied, and when it began.
    private var running: (box: ScanBox, began: Double)?
    private let scanned: @Sendable () -> Void
    /// `--order random`: new files come in at random places instead of the scan's order.
    private let reorder: Bool
    private let options: SourceOptions

    /// What the screen says while the sources hold no images: it changes when a web source
    /// first answers ("Waiting for pictures from" becomes "No images found in").
    var emptyMessage: String { options.emptyMessage }

    /// - Parameters:
    ///   - initial: what is shown now, as scanned at start, with its folders and missing sources.
    ///   - noted: what that scan already logged, not to be logged again.
    ///   - watcher: makes the folder watcher from the wake-up it should call.
    ///   - scan: reads the sources; by default `options`' tolerant scan.
    ///   - wake: called from the watcher's thread when the folders changed.
    ///   - scanned: called from the scanning thread when a background scan is done.
    init(options: SourceOptions, initial: SourceScanner.Result, noted: Set<String> = [],
         rescanInterval: Double?, now: Double,
         watcher makeWatcher: (@escaping @Sendable () -> Void) -> FolderWatcher? = { FolderWatcher(onChange: $0) },
         scan: Scan? = nil, wallClock: @escaping @Sendable () -> Double = { SystemClock.wall },
         wake: @escaping @Sendable () -> Void, scanned: @escaping @Sendable () -> Void = {}) {
        self.scan = scan ?? { note in try options.scan(tolerant: true, note: note) }
        self.noted = noted
        self.stable = StableCatalog(initial: initial.sources)
        self.rescanInterval = rescanInterval
        self.scanned = scanned
        self.watcher = makeWatcher(wake)
        self.reorder = options.order == .random
        self.options = options
        self.wallClock = wallClock
        armRescan(after: initial, now: now)
        // `initial` was read before the folders were watched: a file copied in between
        // (while the window opened, under a slow boot) would be missed until something
        // else changed. One scan now, on the loop's first turn, finds it.
        changed = watcher != nil
    }

    /// Watches the scan's folders; a periodic rescan only if some of it is out of sight.
    private func armRescan(after scan: SourceScanner.Result, now: Double) {
        let unseen = watcher?.watch(scan.folders) ?? scan.folders
        let blind = watcher == nil || !unseen.isEmpty || !scan.missing.isEmpty
        nextRescan = blind ? rescanInterval.map { now + $0 } : nil
        armDay(now: now)
    }

    /// `--on-this-day`: a scan at the next midnight (after every scan, whatever it found).
    private func armDay(now: Double) {
        nextDay = options.onThisDay ? now + TakenFilter.Day.secondsToMidnight(from: wallClock()) : nil
    }

    /// The watcher reported a change.
    func noteChange() { changed = true }

    /// When a check should begin even if nothing is reported; nil while a scan runs (its
    /// end wakes the loop) or when nothing is expected.
    var nextCheck: Double? {
        guard running == nil else { return nil }
        return [nextRescan, recheckAt, nextDay].compactMap { $0 }.min()
    }

    /// Whether a scan should begin at `now`: something changed or a check fell due, and
    /// none is running (one at a time; a change during it makes the next).
    func isDue(at now: Double) -> Bool {
        running == nil && (changed || (nextCheck.map { $0 <= now } ?? false))
    }

    /// Whether a finished scan waits for `finish`.
    var hasResult: Bool { running?.box.result != nil }

    /// Starts a scan on a background thread; `scanned` is called when it is done.
    func begin(now: Double) {
        guard running == nil else { return }
        changed = false
        let box = ScanBox()
        running = (box, now)
        let (scan, scanned) = (self.scan, self.scanned)
        DispatchQueue.global(qos: .utility).async {
            box.result = ScanBox.run(scan)
            scanned()
        }
    }

    /// Applies a finished scan: the new list when it differs from `current`, else nil
    /// (also while the scan still runs).
    func finish(current: [ImageSource]) -> [ImageSource]? {
        guard let (box, began) = running, let result = box.result else { return nil }
        running = nil
        // Files are judged complete by when they were looked at, not when it is applied.
        return apply(result, current: current, scannedAt: began)
    }

    /// Scans here and now and applies it: `begin` and `finish` without the thread.
    func check(current: [ImageSource], now: Double) -> [ImageSource]? {
        changed = false
        return apply(ScanBox.run(scan), current: current, scannedAt: now)
    }

    private func apply(_ outcome: ScanBox.Outcome, current: [ImageSource], scannedAt now: Double) -> [ImageSource]? {
        for line in outcome.notes where noted.insert(line).inserted { Log.info(line) }
        let scan: SourceScanner.Result
        switch outcome.found {
        case .success(let result): scan = result
        case .failure(let error):
            // A manifest edited into a mistake: keep what is shown, say so once, and try
            // again at the next change or rescan (not at once: that would spin).
            if noted.insert("\(error)").inserted { Log.warn("rescan: \(error)") }
            recheckAt = nil
            nextRescan = rescanInterval.map { now + $0 }
            armDay(now: now)
            return nil
        }
        armRescan(after: scan, now: now)
        let admitted = stable.admit(scan.sources, at: now)
        recheckAt = admitted.recheckAt
        var next = admitted.sources
        if let group = options.seededGroup { next = ShowOrderSeed.arrange(next, group: group, identity: options.showIdentity) } else {
            if reorder { next = Self.keepingOrder(of: current, with: next) }
            if let fairRound = options.fairRound { next = fairRound.arrange(next) }
        }
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

/// One scan's outcome, handed from the scanning thread to the main thread.
private final class ScanBox: @unchecked Sendable {
    struct Outcome {
        var found: Result<SourceScanner.Result, any Error>
        /// Files skipped and why, logged on the main thread (once each).
        var notes: [String]
    }

    private let lock = NSLock()
    private var stored: Outcome?
    var result: Outcome? {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }

    static func run(_ scan: CatalogUpdater.Scan) -> Outcome {
        var notes: [String] = []
        let found = Result { try scan { notes.append($0) } }
        return Outcome(found: found, notes: notes)
    }
}
