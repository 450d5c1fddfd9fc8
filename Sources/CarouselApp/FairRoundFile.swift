import CarouselCore
import CarouselMedia
import Foundation
import Glibc
import Synchronization
import CarouselClock

/// `--order fair`'s round (`FairRound`) for one show, kept under the XDG state folder so a
/// restart, a reload (SIGHUP) or a power cut goes on with it: the round's order in
/// `round-KEY.txt`, written when the round changes (a new round, items arriving or leaving),
/// and how far the show has come in `round-KEY.next` (a line, written each time the show
/// rests on an item: a whole list each step would wear an SD card). Both written atomically
/// (a temporary file, synced, then renamed), in order, off the loop's thread; a power cut
/// loses at most the last rest's line (one picture shown again). A kept round that cannot be read is one line and a new
/// round. Items are known by their path (a file's, or a web picture's URL).
public final class FairRoundFile: @unchecked Sendable {
    /// The folder: systemd's `StateDirectory=`, else `$XDG_STATE_HOME/kiosk-carousel`, else
    /// `~/.local/state/kiosk-carousel`.
    static func folder(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let systemd = environment["STATE_DIRECTORY"]?.split(separator: ":").first, systemd.hasPrefix("/") { return String(systemd) }
        if let xdg = environment["XDG_STATE_HOME"], xdg.hasPrefix("/") { return xdg + "/kiosk-carousel" }
        return (environment["HOME"] ?? NSHomeDirectory()) + "/.local/state/kiosk-carousel"
    }

    /// The one round of the show named `key` (what the show is made of: its paths, its
    /// Immich selection), shared by every view and scan of this run.
    static func shared(key: String, folder: String = FairRoundFile.folder()) -> FairRoundFile {
        let name = folder + "/round-" + GroupAgreement.fingerprint(names: [key], interval: nil)
        return registry.withLock { files in
            if let file = files[name] { return file }
            let file = FairRoundFile(path: name)
            files[name] = file
            return file
        }
    }

    private static let registry = Mutex<[String: FairRoundFile]>([:])

    /// `round-KEY` without its extensions.
    let path: String
    private let lock = NSLock()
    private var round: FairRound?
    private var rng = SystemRandomNumberGenerator()
    /// What was said of the kept files, once each (under its own lock: the writer says too).
    private let said = Mutex<Set<String>>([])
    /// The files are written here, in order, off the loop's thread: an SD card's fsync can
    /// take tens of milliseconds, and the show rests (a clip may be playing) as it is kept.
    private let writer = DispatchQueue(label: "kiosk-carousel.fair-round")
    /// `--prefer`: what a new round brings earlier; nil: every picture alike.
    var prefer: FairPreference? {
        get { lock.withLock { preferValue } }
        set { lock.withLock { preferValue = newValue } }
    }
    private var preferValue: FairPreference?

    /// The round kept at `path` (without its extensions: `.txt`, `.next`).
    public init(path: String) { self.path = path }

    /// Returns once what was asked to be kept is on disk (`carousel bench`, tests).
    public func finishWriting() { writer.sync {} }

    /// `sources` in the round's order: the kept round read at first (or a new one), items
    /// gone leaving it and new ones joining ahead; kept again when that changed it.
    public func arrange(_ sources: [ImageSource]) -> [ImageSource] {
        // With --prefer, each picture's date is read here, on the scanning side (once per
        // file and stamp, `PhotoDate`'s memo), so that a new round drawn later on the loop's
        // thread finds them read.
        if prefer != nil { for source in sources { _ = PhotoDate.of(source) } }
        return lock.withLock {
            let loaded = self.round == nil
            var fresh = false
            var round = self.round ?? load(sources, fresh: &fresh)
            let before = round
            round.reconcile(with: sources.map(\.path), using: &rng)
            // Read back complete (its last picture shown before the stop): a new round at once.
            if loaded, round.isComplete, !round.order.isEmpty { round.newRound(keeping: [], weight: weight(of: sources), using: &rng) }
            self.round = round
            if round.order != before.order || round.round != before.round || fresh { keepOrder() } else if round.next != before.next { keepPosition() }
            return Self.ordered(sources, by: round)
        }
    }

    /// Where the show starts: the round's next item, in `sources`; 0 when the round is done
    /// (a new one begins then, at the first pass).
    public func startIndex(in sources: [ImageSource]) -> Int {
        lock.withLock {
            guard let round, !round.isComplete else { return 0 }
            return sources.firstIndex { $0.path == round.order[round.next] } ?? 0
        }
    }

    /// Whether every picture of the round has been shown.
    var isComplete: Bool { lock.withLock { round?.isComplete ?? false } }

    /// The show rested on `sources[index]`.
    public func shown(at index: Int, in sources: [ImageSource]) {
        lock.withLock {
            guard sources.indices.contains(index), var round, let at = round.order.firstIndex(of: sources[index].path) else { return }
            let before = round.next
            round.shown(at: at)
            self.round = round
            if round.next != before { keepPosition() }
        }
    }

    /// A new round (a pass ended): `sources` shuffled again but those at `keeping` (on screen).
    func newRound(_ sources: [ImageSource], keeping: Set<Int>) -> [ImageSource] {
        lock.withLock {
            guard var round else { return sources }
            round.reconcile(with: sources.map(\.path), using: &rng)
            let kept = Set(keeping.compactMap { sources.indices.contains($0) ? round.order.firstIndex(of: sources[$0].path) : nil })
            round.newRound(keeping: kept, weight: weight(of: sources), using: &rng)
            self.round = round
            keepOrder()
            return Self.ordered(sources, by: round)
        }
    }

    /// `sources` in `round`'s order (an item the round does not know, or a path listed twice,
    /// after, in its own order). Linear: 50,000 pictures at every scan.
    static func ordered(_ sources: [ImageSource], by round: FairRound) -> [ImageSource] {
        var place: [String: Int] = [:]
        place.reserveCapacity(round.order.count)
        for (i, id) in round.order.enumerated() { place[id] = i }
        var placed = [Int?](repeating: nil, count: round.order.count)
        var rest: [Int] = []
        for (i, source) in sources.enumerated() {
            if let at = place[source.path], placed[at] == nil { placed[at] = i } else { rest.append(i) }
        }
        return (placed.compactMap { $0 } + rest).map { sources[$0] }
    }

    /// The kept round with its kept position; a new round when there is none or it is broken.
    private func load(_ sources: [ImageSource], fresh: inout Bool) -> FairRound {
        fresh = true
        let items = sources.map(\.path)
        guard let data = FileManager.default.contents(atPath: path + ".txt") else { return FairRound(items: items, weight: weight(of: sources), using: &rng) }
        guard data.count <= 64 << 20 else {
            say("\(path).txt: larger than 64 MB, not a kept round; a new round begins")
            return FairRound(items: items, weight: weight(of: sources), using: &rng)
        }
        do {
            var round = try FairRound(parsing: String(decoding: data, as: UTF8.self))
            if let line = FileManager.default.contents(atPath: path + ".next").map({ String(decoding: $0.prefix(64), as: UTF8.self) }) {
                let words = line.split(whereSeparator: \.isWhitespace)
                if words.count == 4, words[0] == "round", Int(words[1]) == round.round, words[2] == "next",
                   let next = Int(words[3]), next > 0, next <= round.order.count {
                    round.shown(at: next - 1)
                }
            }
            fresh = false
            return round
        } catch {
            say("\(path).txt: \(error.reason); a new round begins")
            return FairRound(items: items, weight: weight(of: sources), using: &rng)
        }
    }

    /// `--prefer`'s weight of each of `sources` by when it was taken (its listed date: Immich,
    /// a manifest; else its file's modification day), today being the local date; nil without it.
    func weight(of sources: [ImageSource]) -> ((String) -> Double)? {
        guard let prefer = preferValue else { return nil }
        let today = Self.day(SystemClock.date)
        var weights: [String: Double] = [:]
        for source in sources {
            // When it was taken: as listed (Immich, a manifest), else as its file says (EXIF, a
            // clip's creation date), else the file's modification day. (The last alone made
            // every picture copied onto the frame today a recent one.)
            let date = PhotoDate.of(source)
            let taken = date.map { ($0.year, $0.month, $0.day) } ?? source.stamp.map { Self.day(Date(timeIntervalSince1970: Double($0.modified) / 1e9)) }
            let w = prefer.weight(taken: taken, today: today)
            if w != 1 { weights[source.path] = w }
        }
        return { weights[$0] ?? 1 }
    }

    /// The local calendar day of `date`.
    static func day(_ date: Date) -> (year: Int, month: Int, day: Int) {
        let c = Calendar.current.dateComponents([.year, .month, .day], from: date)
        return (c.year ?? 1970, c.month ?? 1, c.day ?? 1)
    }

    /// `YYYY-MM-DD…` → its day; nil when it is not one.
    static func day(listed: String) -> (year: Int, month: Int, day: Int)? {
        let parts = listed.prefix(10).split(separator: "-")
        guard parts.count == 3, let y = Int(parts[0]), let m = Int(parts[1]), let d = Int(parts[2]) else { return nil }
        return (y, m, d)
    }

    private func keepOrder() {
        guard let round else { return }
        write(round.text, to: path + ".txt")
        keepPosition()
    }

    private func keepPosition() {
        guard let round else { return }
        write("round \(round.round) next \(round.next)\n", to: path + ".next")
    }

    /// `text` into `file`, soon, on the writer.
    private func write(_ text: String, to file: String) {
        writer.async { [self] in writeNow(text, to: file) }
    }

    /// `text` into `file` whole or not at all: a temporary file beside it, synced, renamed.
    private func writeNow(_ text: String, to file: String) {
        let folder = (file as NSString).deletingLastPathComponent
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let temporary = file + ".\(getpid()).tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return say("\(file): cannot be written (\(String(cString: strerror(errno)))); the round is kept in memory only") }
        let bytes = Array(text.utf8)
        let written = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        let synced = fsync(fd) == 0
        close(fd)
        guard written == bytes.count, synced, rename(temporary, file) == 0 else {
            unlink(temporary)
            return say("\(file): cannot be written; the round is kept in memory only")
        }
    }

    private func say(_ line: String) {
        if said.withLock({ $0.insert(line).inserted }) { Log.warn("--order fair: " + line) }
    }
}
