import CarouselMedia
import Foundation
import Glibc
import CarouselClock

/// The downloaded manifests and pictures, kept on disk so that a kiosk restarted without
/// its server shows what it showed before. One file per URL (named by the MD5 of the URL)
/// and `index.json` recording, for each, its length and content hash, its validators
/// (ETag, Last-Modified) and when it was last shown.
///
/// - Every write is atomic: a temporary file, fsync, rename (and the folder synced), so a
///   power cut leaves the old file or the new one, never half of one.
/// - On start, an entry whose file is gone or has another length is dropped, and files the
///   index does not know (temporaries left by a crash) are deleted. Each file's hash is
///   checked once per run, before it is first used: one that does not match is deleted.
/// - Bounded by `limitBytes`: the least recently shown go first, never a pinned one (what
///   the slots show, the manifests).
/// Thread-safe: the download threads and the decoders use it at once.
public final class RemoteCache: @unchecked Sendable {
    public struct Entry: Codable, Sendable, Equatable {
        public var url: String
        /// The file's name inside the folder.
        public var file: String
        public var bytes: Int64
        public var hash: String
        public var etag: String?
        public var lastModified: String?
        /// Seconds since 1970 when it was last shown (or stored): the LRU order.
        public var lastShown: Double
    }

    public let folder: String
    public let limitBytes: Int64
    /// URLs never evicted, asked at each eviction (the pictures in the slots, the manifests).
    public var pinned: @Sendable () -> Set<String> = { [] }
    private let lock = NSLock()
    /// One index write at a time: a slower writer must not rename an older index over a newer.
    private let saveLock = NSLock()
    private var entries: [String: Entry] = [:]
    /// URLs whose file's hash was checked in this run.
    private var checked: Set<String> = []
    private var dirty = false
    private let warn: @Sendable (String) -> Void
    private let now: @Sendable () -> Double

    static let indexName = "index.json"
    static let partPrefix = ".part-"

    /// Opens (making it if need be, mode 0700) the cache in `folder`. A folder that cannot be
    /// made or written is said once through `warn`, and a temporary folder of this process
    /// is used instead: downloads still work, they only do not outlive the run.
    public init(folder: String, limitBytes: Int64, warn: @escaping @Sendable (String) -> Void,
                now: @escaping @Sendable () -> Double = { SystemClock.wall }) {
        self.limitBytes = limitBytes
        self.warn = warn
        self.now = now
        var chosen = folder
        if !Self.makeWritable(folder) {
            chosen = NSTemporaryDirectory() + "carousel-remote-\(getpid())"
            warn("\(folder): cannot keep downloads there (\(String(cString: strerror(errno)))); they last only this run, in \(chosen)")
            _ = Self.makeWritable(chosen)
        }
        self.folder = chosen
        load()
    }

    // MARK: - Reading

    public func entry(for url: String) -> Entry? { lock.withLock { entries[url] } }

    /// The cached file of `url` once its content is known good: checked against its recorded
    /// length and hash the first time in this run (a mismatch is deleted: nil).
    public func verifiedFile(for url: String) -> String? {
        guard let entry = entry(for: url) else { return nil }
        let path = folder + "/" + entry.file
        if lock.withLock({ checked.contains(url) }) { return path }
        guard let content = ContentHash.of(file: path), content.bytes == entry.bytes, content.hash == entry.hash else {
            warn("\(url): the cached copy is damaged (its length or hash changed); deleted, it is downloaded again")
            remove(url)
            return nil
        }
        lock.withLock { _ = checked.insert(url) }
        return path
    }

    /// The cached file of `url` if it is there and was checked already (by a decode that
    /// read it): never hashes, so it may be asked on the drawing thread.
    public func checkedFile(for url: String) -> String? {
        guard let entry = entry(for: url), lock.withLock({ checked.contains(url) }) else { return nil }
        return folder + "/" + entry.file
    }

    /// Bytes held by all files.
    public var totalBytes: Int64 { lock.withLock { entries.values.reduce(0) { $0 + $1.bytes } } }
    public var urls: [String] { lock.withLock { Array(entries.keys) } }

    // MARK: - Writing

    /// A new file name for a download under way, in the cache's folder (so that storing it
    /// is a rename). Removed by `store`, or by the caller on failure; left over after a
    /// crash, it is deleted at the next start.
    public func temporaryFile() -> String { folder + "/" + Self.partPrefix + UUID().uuidString }

    /// Keeps the complete download `temporary` as the content of `url`: hashed, synced and
    /// renamed into place, replacing an older version; then the bound is enforced.
    @discardableResult
    public func store(_ url: String, from temporary: String, etag: String?, lastModified: String?) -> Entry? {
        guard let content = ContentHash.of(file: temporary) else { unlink(temporary); return nil }
        let fd = open(temporary, O_RDONLY | O_CLOEXEC)
        if fd >= 0 { fsync(fd); close(fd) }
        let name = Self.fileName(for: url)
        guard rename(temporary, folder + "/" + name) == 0 else {
            warn("\(folder)/\(name): cannot keep the download (\(String(cString: strerror(errno))))")
            unlink(temporary)
            return nil
        }
        let entry = Entry(url: url, file: name, bytes: content.bytes, hash: content.hash, etag: etag,
                          lastModified: lastModified, lastShown: now())
        lock.withLock {
            entries[url] = entry
            checked.insert(url)
            dirty = true
        }
        evict(keeping: url)
        save()
        return entry
    }

    /// A 304 for `url`: what is cached is current; the validators the server sent now.
    public func confirmed(_ url: String, etag: String?, lastModified: String?) {
        lock.withLock {
            guard var e = entries[url] else { return }
            if let etag { e.etag = etag }
            if let lastModified { e.lastModified = lastModified }
            entries[url] = e
            dirty = true
        }
    }

    /// `url` is on screen: it goes to the back of the eviction queue. Saved with the next
    /// write (or `saveIfChanged`), not at every frame.
    public func shown(_ url: String) {
        lock.withLock {
            guard entries[url] != nil else { return }
            entries[url]!.lastShown = now()
            dirty = true
        }
    }

    public func remove(_ url: String) {
        let file: String? = lock.withLock {
            defer { entries[url] = nil; checked.remove(url); dirty = true }
            return entries[url]?.file
        }
        if let file { unlink(folder + "/" + file) }
        save()
    }

    /// Writes the index if anything changed since it was last written.
    public func saveIfChanged() { save() }

    // MARK: - Inside

    static func fileName(for url: String) -> String {
        let path = URL(string: url)?.path ?? ""
        let ext = (path.split(separator: "/").last.flatMap { name in
            name.lastIndex(of: ".").map { String(name[name.index(after: $0)...]).lowercased() }
        }).flatMap { SourceScanner.imageExtensions.contains($0) || $0 == "toml" ? $0 : nil } ?? "bin"
        return MD5.hex(Array(url.utf8)) + "." + ext
    }

    private static func makeWritable(_ folder: String) -> Bool {
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true,
                                                 attributes: [.posixPermissions: 0o700])
        return access(folder, W_OK | X_OK) == 0
    }

    /// Reads the index, keeping only entries whose file is there at its recorded length,
    /// and deletes every other file in the folder. A damaged index starts the cache afresh.
    private func load() {
        let files = FileManager.default
        var known: [String: Entry] = [:]
        var listed = 0
        if let data = files.contents(atPath: folder + "/" + Self.indexName) {
            if let list = Self.index(from: Array(data)) {
                listed = list.count
                for e in list {
                    var info = stat()
                    if stat(folder + "/" + e.file, &info) == 0, Int64(info.st_size) == e.bytes { known[e.url] = e }
                }
            } else {
                warn("\(folder)/\(Self.indexName): damaged; the cache starts empty")
            }
        }
        let kept = Set(known.values.map(\.file))
        for name in (try? files.contentsOfDirectory(atPath: folder)) ?? [] where name != Self.indexName && !kept.contains(name) {
            unlink(folder + "/" + name)
        }
        entries = known
        dirty = known.count != listed
    }

    /// The entries of an index file; nil if it is not one. An entry naming a file that is
    /// not this URL's plain name in the folder (`../`, another URL's) is left out.
    public static func index(from bytes: [UInt8]) -> [Entry]? {
        guard let list = try? JSONDecoder().decode([Entry].self, from: Data(bytes)) else { return nil }
        return list.filter { $0.file == fileName(for: $0.url) && $0.bytes >= 0 && $0.hash.hasPrefix(ContentHash.kind) }
    }

    /// Removes the least recently shown until the files fit the bound; never `keeping` (just
    /// stored, it is wanted now) nor a pinned URL.
    private func evict(keeping url: String) {
        let pinned = self.pinned()
        var victims: [String] = []
        lock.withLock {
            var total = entries.values.reduce(0) { $0 + $1.bytes }
            guard total > limitBytes else { return }
            for e in entries.values.sorted(by: { $0.lastShown < $1.lastShown })
            where e.url != url && !pinned.contains(e.url) {
                guard total > limitBytes else { break }
                total -= e.bytes
                entries[e.url] = nil
                checked.remove(e.url)
                victims.append(e.file)
                dirty = true
            }
        }
        for file in victims { unlink(folder + "/" + file) }
    }

    /// Writes the index atomically: a temporary file, fsync, rename, fsync of the folder.
    private func save() {
        saveLock.lock()
        defer { saveLock.unlock() }
        let data: Data? = lock.withLock {
            guard dirty else { return nil }
            dirty = false
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            return try? encoder.encode(entries.values.sorted { $0.url < $1.url })
        }
        guard let data else { return }
        let temporary = temporaryFile()
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return }
        let written = data.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        fsync(fd)
        close(fd)
        guard written == data.count, rename(temporary, folder + "/" + Self.indexName) == 0 else {
            unlink(temporary)
            lock.withLock { dirty = true }
            return
        }
        let dir = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if dir >= 0 { fsync(dir); close(dir) }
    }
}
