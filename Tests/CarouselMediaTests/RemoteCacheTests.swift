import CarouselMedia
import Foundation
import Testing
import CarouselSources

/// The download cache: atomic stores, the bound and its LRU order, damage found on start.
@Suite struct RemoteCacheTests {
    /// A cache whose clock the test sets.
    final class Clock: @unchecked Sendable {
        var now = 1000.0
    }

    static func download(_ cache: RemoteCache, _ url: String, bytes: Int, fill: UInt8 = 7) throws {
        let temporary = cache.temporaryFile()
        try Data([UInt8](repeating: fill, count: bytes)).write(to: URL(fileURLWithPath: temporary))
        #expect(cache.store(url, from: temporary, etag: "\"e\"", lastModified: nil) != nil)
        #expect(!FileManager.default.fileExists(atPath: temporary), "stored by renaming")
    }

    @Test func theLeastRecentlyShownGoFirstNeverAPinnedOne() throws {
        let clock = Clock()
        let cache = RemoteCache(folder: try MediaFixtures.folder("cache-lru"), limitBytes: 250_000, warn: { _ in },
                                now: { clock.now })
        cache.pinned = { ["http://x/pinned.jpg"] }
        try Self.download(cache, "http://x/pinned.jpg", bytes: 100_000)
        clock.now += 1
        try Self.download(cache, "http://x/a.jpg", bytes: 50_000)
        clock.now += 1
        try Self.download(cache, "http://x/b.jpg", bytes: 50_000)
        clock.now += 1
        cache.shown("http://x/a.jpg")  // b is now the least recently shown but for pinned
        clock.now += 1
        try Self.download(cache, "http://x/c.jpg", bytes: 60_000)
        #expect(Set(cache.urls) == ["http://x/pinned.jpg", "http://x/a.jpg", "http://x/c.jpg"])
        #expect(cache.totalBytes <= 250_000)
        let files = try FileManager.default.contentsOfDirectory(atPath: cache.folder).filter { $0 != "index.json" }
        #expect(files.count == 3, "an evicted file is deleted: \(files)")
    }

    @Test func aDamagedOrShortenedFileIsDeletedOnStart() throws {
        let folder = try MediaFixtures.folder("cache-damage")
        do {
            let cache = RemoteCache(folder: folder, limitBytes: 1 << 30, warn: { _ in })
            try Self.download(cache, "http://x/flipped.jpg", bytes: 10_000)
            try Self.download(cache, "http://x/short.jpg", bytes: 10_000)
            try Self.download(cache, "http://x/good.jpg", bytes: 10_000)
            // A leftover of a download cut by a power failure.
            try Data([1, 2, 3]).write(to: URL(fileURLWithPath: cache.temporaryFile()))
            let flipped = folder + "/" + cache.entry(for: "http://x/flipped.jpg")!.file
            let handle = FileHandle(forUpdatingAtPath: flipped)!
            handle.seek(toFileOffset: 5000)
            handle.write(Data([0]))
            handle.closeFile()
            truncate(folder + "/" + cache.entry(for: "http://x/short.jpg")!.file, 4000)
        }
        let warnings = Warnings()
        let cache = RemoteCache(folder: folder, limitBytes: 1 << 30, warn: { warnings.add($0) })
        #expect(cache.entry(for: "http://x/short.jpg") == nil, "another length: dropped on start")
        #expect(cache.verifiedFile(for: "http://x/flipped.jpg") == nil, "another hash: dropped when checked")
        #expect(cache.entry(for: "http://x/flipped.jpg") == nil)
        #expect(cache.verifiedFile(for: "http://x/good.jpg") != nil)
        let files = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        #expect(files == [cache.entry(for: "http://x/good.jpg")!.file, "index.json"].sorted(), "\(files)")
        #expect(warnings.lines.contains { $0.contains("flipped.jpg") && $0.contains("damaged") }, "\(warnings.lines)")
    }

    @Test func aDamagedIndexStartsTheCacheEmpty() throws {
        let folder = try MediaFixtures.folder("cache-index")
        do {
            let cache = RemoteCache(folder: folder, limitBytes: 1 << 30, warn: { _ in })
            try Self.download(cache, "http://x/a.jpg", bytes: 1000)
        }
        try Data("{ not json".utf8).write(to: URL(fileURLWithPath: folder + "/index.json"))
        let cache = RemoteCache(folder: folder, limitBytes: 1 << 30, warn: { _ in })
        #expect(cache.urls.isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0 != "index.json" }.isEmpty)
    }

    @Test func anIndexNamingFilesOutsideTheFolderIsNotFollowed() throws {
        let folder = try MediaFixtures.folder("cache-escape")
        let outside = try MediaFixtures.folder("cache-escape-victim") + "/keep.jpg"
        try Data([1, 2, 3]).write(to: URL(fileURLWithPath: outside))
        let entry = "[{\"url\":\"http://x/a.jpg\",\"file\":\"../\(URL(fileURLWithPath: outside).deletingLastPathComponent().lastPathComponent)/keep.jpg\",\"bytes\":3,\"hash\":\"0\",\"lastShown\":0}]"
        try Data(entry.utf8).write(to: URL(fileURLWithPath: folder + "/index.json"))
        let cache = RemoteCache(folder: folder, limitBytes: 1 << 30, warn: { _ in })
        #expect(cache.entry(for: "http://x/a.jpg") == nil)
        cache.remove("http://x/a.jpg")
        #expect(FileManager.default.fileExists(atPath: outside))
    }

    @Test func anUnwritableFolderIsSaidOnceAndDownloadsStillWork() throws {
        // Under a file, not a folder: no one can make it, root included.
        let file = try MediaFixtures.folder("cache-unwritable") + "/a-file"
        try Data([1]).write(to: URL(fileURLWithPath: file))
        let warnings = Warnings()
        let cache = RemoteCache(folder: file + "/cache", limitBytes: 1 << 30, warn: { warnings.add($0) })
        defer { try? FileManager.default.removeItem(atPath: cache.folder) }
        #expect(warnings.lines.count == 1)
        try Self.download(cache, "http://x/a.jpg", bytes: 100)
        #expect(cache.verifiedFile(for: "http://x/a.jpg") != nil)
    }

    @Test func theContentHashIsFNV1aOverWordsWhateverThePieces() {
        var d = ContentHash.Digest()
        #expect(d.hex == "fnv64w-cbf29ce484222325")
        Array("a".utf8).withUnsafeBytes { d.add($0) }
        #expect(d.hex == "fnv64w-af63dc4c8601ec8c", "under a word: FNV-1a byte by byte")
        let bytes = (0..<1000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        var whole = ContentHash.Digest()
        bytes.withUnsafeBytes { whole.add($0) }
        for cuts in [[3, 5], [1, 1, 1, 13, 600], [999]] {
            var pieces = ContentHash.Digest()
            var at = 0
            for end in cuts + [1000] {
                bytes[at..<end].withUnsafeBytes { pieces.add($0) }
                at = end
            }
            #expect(pieces.hex == whole.hex, "\(cuts)")
        }
        var changed = bytes
        changed[500] ^= 1
        var other = ContentHash.Digest()
        changed.withUnsafeBytes { other.add($0) }
        #expect(other.hex != whole.hex)
    }
}

final class Warnings: @unchecked Sendable {
    private let lock = NSLock()
    private var list: [String] = []
    func add(_ line: String) { lock.withLock { list.append(line) } }
    var lines: [String] { lock.withLock { list } }
}
