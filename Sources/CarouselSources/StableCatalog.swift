import CarouselMedia
import CarouselCore

/// Decides which scanned files to show, so that a photo still being copied in never shows
/// half-written: a new or changed file is shown once its size and modification time have
/// stayed the same for `settle` seconds. A replaced file keeps showing its old version
/// until then; a removed file goes at once. Web pictures (URLs) are admitted at once: their
/// downloads are complete before they are used. Pure: time is an argument.
public struct StableCatalog: Sendable {
    /// Seconds a new or changed file must keep its size and time before it is shown. Copies
    /// over USB, SMB or scp write in bursts well under a second apart; 2 s rides over them.
    public var settle: Double = 2

    /// The stamp shown for each path.
    private var shown: [String: FileStamp?] = [:]
    /// Files seen new or changed: the stamp they had, and since when.
    private var candidates: [String: (stamp: FileStamp?, since: Double)] = [:]

    /// Everything of the first scan is shown at once: nothing is known to be in progress.
    public init(initial: [ImageSource], settle: Double = 2) {
        self.settle = settle
        for s in initial { shown[s.path] = s.stamp }
    }

    /// What to show after a scan at `time`, in the scan's order, and when to look again
    /// for files still settling (nil: none).
    public mutating func admit(_ scanned: [ImageSource], at time: Double) -> (sources: [ImageSource], recheckAt: Double?) {
        var result: [ImageSource] = []
        var nextShown: [String: FileStamp?] = [:]
        var nextCandidates: [String: (stamp: FileStamp?, since: Double)] = [:]
        var recheck: Double?
        for s in scanned {
            let before = shown[s.path]
            // A web picture is shown only once completely downloaded: nothing to wait for.
            if (before != nil && before! == s.stamp) || RemoteURL.isRemote(s.path) {
                nextShown[s.path] = s.stamp
                result.append(s)
                continue
            }
            let since = candidates[s.path].flatMap { $0.stamp == s.stamp ? $0.since : nil } ?? time
            if time - since >= settle {
                nextShown[s.path] = s.stamp
                result.append(s)
            } else {
                nextCandidates[s.path] = (s.stamp, since)
                recheck = min(recheck ?? .infinity, since + settle)
                if let before {
                    // Replaced, still being written: the old version stays on screen.
                    var old = s
                    old.stamp = before
                    nextShown[s.path] = before
                    result.append(old)
                }
            }
        }
        shown = nextShown
        candidates = nextCandidates
        return (result, recheck)
    }
}
