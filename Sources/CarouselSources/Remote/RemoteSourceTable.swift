import CarouselMedia
import CarouselCore

/// The web sources a `RemoteLibrary` follows, in the order they were first asked for: each
/// one's items, state and when it is polled next, with the backoff after a failure. A value
/// the library keeps under its lock; the clock comes in as an argument.
struct RemoteSourceTable {
    struct Source {
        var items: [ImageSource]?
        var state: RemoteLibrary.State = .waiting
        var nextPoll: Double = 0
        var retryDelay: Double = 0
        var isManifest: Bool
        /// When the server last answered (wall clock, seconds since 1970).
        var lastSuccess: Double?
    }

    /// What one poll did to a source.
    struct Outcome {
        var changedItems = false
        var changedState = false
    }

    private(set) var order: [String] = []
    private var sources: [String: Source] = [:]
    /// Sources polled at least once in this run.
    private(set) var polled: Set<String> = []

    subscript(url: String) -> Source? { sources[url] }

    /// Adds a source, polled at once.
    mutating func register(_ url: String, _ source: Source) {
        guard sources[url] == nil else { return }
        sources[url] = source
        order.append(url)
    }

    /// The first source whose poll is due at `now`.
    func due(at now: Double) -> String? { order.first { sources[$0]!.nextPoll <= now } }

    /// When the next poll falls due (an hour from `now` with no source).
    func nextPoll(after now: Double) -> Double { order.map { sources[$0]!.nextPoll }.min() ?? now + 3600 }

    /// Records a poll's outcome: the items of a manifest received (nil: none, a 304 or a
    /// failure), the state, and when to poll next: after `refresh`, or after a failure
    /// from `firstRetry` doubling up to `refresh`.
    mutating func settle(_ url: String, state: RemoteLibrary.State, items: [ImageSource]?, retry: Bool,
                         now: Double, refresh: Double, firstRetry: Double) -> Outcome {
        var s = sources[url]!
        var outcome = Outcome()
        polled.insert(url)
        if let items {
            outcome.changedItems = items != s.items
            s.items = items
        }
        if state == .online { s.lastSuccess = now }
        outcome.changedState = s.state != state
        s.state = state
        if retry {
            s.retryDelay = min(refresh, s.retryDelay == 0 ? firstRetry : s.retryDelay * 2)
            s.nextPoll = now + s.retryDelay
        } else {
            s.retryDelay = 0
            s.nextPoll = now + refresh
        }
        sources[url] = s
        return outcome
    }

    /// A picture given as a source was polled: it counts as online (its download says
    /// otherwise), with no event of its own.
    mutating func checkedPicture(_ url: String, next: Double) {
        sources[url]!.nextPoll = next
        sources[url]!.state = .online
        polled.insert(url)
    }

    /// The items of the sources whose server answers, in order: what is checked in the background.
    var onlineItems: [[ImageSource]] {
        order.compactMap { url in sources[url].flatMap { $0.state == .online ? $0.items : nil } }
    }

    /// Each source's URL, state and when its server last answered, by URL.
    var report: [(url: String, state: String, lastSuccess: Double?)] {
        sources.map { ($0.key, $0.value.state.rawValue, $0.value.lastSuccess) }.sorted { $0.url < $1.url }
    }
}
