import CarouselMedia
import CarouselCore

/// Which pictures a `RemoteLibrary` downloads next: those a decoder waits for first (most
/// urgent first), then those not confirmed with their server since their manifest changed;
/// what is under way, and how many downloads of each URL finished (a waiter waits for the
/// next). A value the library keeps under its lock.
struct DownloadQueue {
    /// Picture URLs a decoder waits for, most urgent first.
    private var urgent: [String] = []
    private var inFlight: Set<String> = []
    /// Pictures whose cached copy was confirmed with the server since the last change of
    /// their manifest (or downloaded then).
    private var confirmed: Set<String> = []
    /// Downloads finished per URL (successful or not).
    private var attempts: [String: Int] = [:]

    func attempts(of url: String) -> Int { attempts[url] ?? 0 }
    func isConfirmed(_ url: String) -> Bool { confirmed.contains(url) }
    func isDownloading(_ url: String) -> Bool { inFlight.contains(url) }

    /// A decoder waits for `url`: it goes first.
    mutating func hurry(_ url: String) {
        urgent.removeAll { $0 == url }
        urgent.insert(url, at: 0)
    }

    /// `url` is to be checked with its server again.
    mutating func recheck(_ url: String) { confirmed.remove(url) }

    /// `url`'s cached copy is known to be the server's (its listing said so): not checked.
    mutating func confirm(_ url: String) { confirmed.insert(url) }

    /// The most urgent picture not being downloaded, else the first item of `background`
    /// (the items of the sources online) not confirmed; `skip` passes over an item for now
    /// (cached ones in the quiet start). Marked as under way; `forDecoder` when one waits.
    mutating func take(background: [[ImageSource]], skip: (String) -> Bool) -> (url: String, forDecoder: Bool)? {
        var next = urgent.first { !inFlight.contains($0) }
        let forDecoder = next != nil
        if next == nil {
            // Each picture, then its motion (a Live Photo's clip) when that is on the web too.
            next = background.lazy.flatMap { $0 }.flatMap { [$0.path] + ($0.motion.flatMap { RemoteURL.isRemote($0) ? [$0] : nil } ?? []) }
                .first { !confirmed.contains($0) && !inFlight.contains($0) && !skip($0) }
        }
        guard let url = next else { return nil }
        inFlight.insert(url)
        urgent.removeAll { $0 == url }
        return (url, forDecoder)
    }

    /// A download of `url` ended, well or not: confirmed until its manifest changes, and
    /// not asked for again meanwhile.
    mutating func finished(_ url: String) {
        inFlight.remove(url)
        urgent.removeAll { $0 == url }
        confirmed.insert(url)
        attempts[url, default: 0] += 1
    }
}
