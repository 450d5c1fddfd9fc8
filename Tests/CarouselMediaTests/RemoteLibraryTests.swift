import CarouselMedia
import Foundation
import TestSupport
import Testing
import CarouselSources

/// Pictures from a web server: manifests polled with conditional requests, pictures
/// downloaded into the cache, failures kept to the picture, the cached show offline.
@Suite struct RemoteLibraryTests {
    /// What a library reported, collected across its threads.
    final class Reports: @unchecked Sendable {
        private let lock = NSLock()
        private var events: [(type: String, fields: [String: String])] = []
        private var changes = 0
        func add(_ type: String, _ fields: [(String, String)]) {
            lock.withLock { events.append((type, Dictionary(fields, uniquingKeysWith: { $1 }))) }
        }
        func changed() { lock.withLock { changes += 1 } }
        var changeCount: Int { lock.withLock { changes } }
        func of(_ type: String) -> [[String: String]] { lock.withLock { events.filter { $0.type == type }.map(\.fields) } }
    }

    static func library(_ folder: String, refresh: Double = 60, reports: Reports = Reports(),
                        limit: Int64 = 1 << 30, netrc: String? = nil, warn: @escaping @Sendable (String) -> Void = { _ in }) -> RemoteLibrary {
        var s = RemoteLibrary.Settings(cacheFolder: folder)
        s.netrcFile = netrc
        s.refresh = refresh
        s.firstRetry = 0.1
        s.quietStart = 0.5
        s.connectTimeout = 2
        s.idleTimeout = 1
        s.cacheLimitBytes = limit
        return RemoteLibrary(settings: s, warn: warn, changed: { reports.changed() }, event: { reports.add($0, $1) })
    }

    /// Waits up to 10 s for `condition`.
    @discardableResult
    static func eventually(_ condition: () -> Bool) -> Bool {
        for _ in 0..<200 {
            if condition() { return true }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return condition()
    }

    static func manifest(_ paths: [String]) -> [UInt8] {
        Array(paths.map { "[[item]]\npath = \"\($0)\"\n" }.joined().utf8)
    }

    /// Bytes standing for a picture (the library never decodes).
    static func picture(_ byte: UInt8) -> [UInt8] { [0xFF, 0xD8, 0xFF, 0xE0] + [UInt8](repeating: byte, count: 2000) }
    /// Which `picture` the file at `path` holds (nil: not one of them).
    static func fill(_ path: String) -> UInt8? {
        guard let d = FileManager.default.contents(atPath: path), d.count == 2004, Set(d.dropFirst(4)).count == 1 else { return nil }
        return d[4]
    }

    @Test func aManifestsPathsAreURLsRelativeToItOrAbsolute() throws {
        let server = try MisbehavingServer()
        defer { server.stop() }
        server.put("/kiosks/lobby/show.toml", Self.manifest(["a.jpg", "../shared/b.jpg", "/c.jpg", server.url("/d.jpg")]))
        let library = Self.library(try MediaFixtures.folder("remote-paths"))
        defer { library.stop() }
        library.waitUntilPolled([server.url("/kiosks/lobby/show.toml")], within: 10)
        let items = library.items(of: server.url("/kiosks/lobby/show.toml"))?.map(\.path)
        #expect(items == [server.url("/kiosks/lobby/a.jpg"), server.url("/kiosks/shared/b.jpg"),
                          server.url("/c.jpg"), server.url("/d.jpg")])
        #expect(library.state(of: server.url("/kiosks/lobby/show.toml")) == .online)
    }

    @Test func anUnchangedManifestCostsOne304AChangedOneIsApplied() throws {
        let server = try MisbehavingServer()
        defer { server.stop() }
        server.put("/show.toml", Self.manifest(["a.jpg"]), etag: "\"m1\"")
        server.put("/a.jpg", Self.picture(1))
        server.put("/b.jpg", Self.picture(2))
        let reports = Reports()
        let library = Self.library(try MediaFixtures.folder("remote-poll"), refresh: 0.2, reports: reports)
        defer { library.stop() }
        let url = server.url("/show.toml")
        library.waitUntilPolled([url], within: 10)
        #expect(library.items(of: url)?.map(\.path) == [server.url("/a.jpg")])
        #expect(Self.eventually { server.notModifiedAnswers("/show.toml") >= 3 })
        // Every poll after the first was a 304, and nothing was fetched again.
        #expect(server.requests("/show.toml") - server.notModifiedAnswers("/show.toml") == 1)
        #expect(server.requests("/a.jpg") == 1, "the picture is not checked again while the manifest stays the same")
        let changesBefore = reports.changeCount

        server.put("/show.toml", Self.manifest(["b.jpg", "a.jpg"]), etag: "\"m2\"")
        #expect(Self.eventually { library.items(of: url)?.map(\.path) == [server.url("/b.jpg"), server.url("/a.jpg")] })
        #expect(reports.changeCount > changesBefore, "a changed manifest is announced")
        // The pictures are checked with the server again: a 304 for the one cached.
        #expect(Self.eventually { server.notModifiedAnswers("/a.jpg") == 1 })
    }

    @Test func aPictureReplacedOnTheServerIsFetchedAgainAndListedAnew() throws {
        let server = try MisbehavingServer()
        defer { server.stop() }
        server.put("/show.toml", Self.manifest(["p.jpg"]), etag: "\"m1\"")
        server.put("/p.jpg", Self.picture(1), etag: "\"p1\"")
        let library = Self.library(try MediaFixtures.folder("remote-replace"), refresh: 0.2)
        defer { library.stop() }
        let url = server.url("/show.toml"), p = server.url("/p.jpg")
        library.waitUntilPolled([url], within: 10)
        let first = try library.file(for: p)
        #expect(Self.fill(first) == 1)
        let stampBefore = library.items(of: url)?.first?.stamp

        server.put("/p.jpg", Self.picture(2), etag: "\"p2\"")
        server.put("/show.toml", Self.manifest(["p.jpg"]) + Array("# edited\n".utf8), etag: "\"m2\"")
        #expect(Self.eventually { library.items(of: url)?.first?.stamp != stampBefore })
        let second = try library.file(for: p)
        #expect(Self.fill(second) == 2)
    }

    @Test func aPictureAskedForWhileItDownloadsIsDownloadedOnce() throws {
        let server = try MisbehavingServer()
        defer { server.stop() }
        let names = (0..<12).map { "p\($0).jpg" }
        server.put("/show.toml", Self.manifest(names))
        for (i, name) in names.enumerated() { server.put("/" + name, Self.picture(UInt8(i))) }
        let library = Self.library(try MediaFixtures.folder("remote-once"))
        defer { library.stop() }
        library.waitUntilPolled([server.url("/show.toml")], within: 10)
        // The decoders ask while the background fill is downloading the same pictures.
        for name in names { _ = try library.file(for: server.url("/" + name)) }
        #expect(Self.eventually { library.cache.urls.count == names.count + 1 })
        Thread.sleep(forTimeInterval: 0.3)
        #expect(names.map { server.requests("/" + $0) } == Array(repeating: 1, count: names.count))
    }

    @Test func picturesDownloadTwoAtATime() throws {
        let server = try MisbehavingServer()
        defer { server.stop() }
        let names = (0..<6).map { "slow\($0).jpg" }
        server.put("/show.toml", Self.manifest(names))
        for (i, name) in names.enumerated() { server.put("/" + name, Self.picture(UInt8(i)), delay: 0.2) }
        let library = Self.library(try MediaFixtures.folder("remote-two"))
        defer { library.stop() }
        library.waitUntilPolled([server.url("/show.toml")], within: 10)
        #expect(Self.eventually { library.cache.urls.count == names.count + 1 })
        #expect(server.mostAtOnce == 2, "\(server.mostAtOnce) at once")
    }

    @Test func aFirstDownloadDoesNotChangeHowThePictureIsListed() throws {
        let server = try MisbehavingServer()
        defer { server.stop() }
        server.put("/show.toml", Self.manifest(["p.jpg"]))
        server.put("/p.jpg", Self.picture(1))
        let library = Self.library(try MediaFixtures.folder("remote-first"))
        defer { library.stop() }
        let url = server.url("/show.toml")
        library.waitUntilPolled([url], within: 10)
        let before = library.items(of: url)
        _ = try library.file(for: server.url("/p.jpg"))
        // Listed anew, the views would decode it twice.
        #expect(library.items(of: url) == before)
    }

    @Test func aMissingPictureFailsAloneWithItsStatusSaidOnce() throws {
        let server = try MisbehavingServer()
        defer { server.stop() }
        server.put("/show.toml", Self.manifest(["missing", "here.jpg"]))
        server.put("/here.jpg", Self.picture(1))
        let reports = Reports()
        let library = Self.library(try MediaFixtures.folder("remote-404"), reports: reports)
        defer { library.stop() }
        library.waitUntilPolled([server.url("/show.toml")], within: 10)
        #expect(throws: ImageError(path: server.url("/missing"), reason: "HTTP 404")) {
            try library.file(for: server.url("/missing"))
        }
        #expect(throws: ImageError(path: server.url("/missing"), reason: "HTTP 404")) {
            try library.file(for: server.url("/missing"))
        }
        // Asked again before the next poll: the same answer, not another request.
        #expect(server.requests("/missing") == 1, "\(server.requests("/missing")) requests")
        #expect(try library.file(for: server.url("/here.jpg")).hasPrefix(library.cache.folder))
        let failures = reports.of("download_failed").filter { $0["url"] == server.url("/missing") }
        #expect(failures.count == 1 && failures.first?["reason"] == "HTTP 404", "\(failures)")
    }

    @Test func aBrokenManifestKeepsTheLastGoodOne() throws {
        let server = try MisbehavingServer()
        defer { server.stop() }
        server.put("/show.toml", Self.manifest(["a.jpg"]), etag: "\"m1\"")
        let reports = Reports()
        let library = Self.library(try MediaFixtures.folder("remote-broken"), refresh: 0.2, reports: reports)
        defer { library.stop() }
        let url = server.url("/show.toml")
        library.waitUntilPolled([url], within: 10)
        let good = library.items(of: url)
        #expect(good?.count == 1)
        for broken in [Array("<html><body>502 Bad Gateway</body></html>".utf8), Array("[[item]]\npath = ".utf8),
                       Self.manifest(["file:///etc/passwd"])] {
            server.put("/show.toml", broken)
            #expect(Self.eventually { library.state(of: url) == .stale }, "\(String(decoding: broken, as: UTF8.self))")
            #expect(library.items(of: url) == good)
            server.put("/show.toml", Self.manifest(["a.jpg"]), etag: "\"m1\"")
            #expect(Self.eventually { library.state(of: url) == .online })
        }
        // A server error is no manifest either.
        server.put("/show.toml", nil)
        #expect(Self.eventually { library.state(of: url) == .offline })
        #expect(library.items(of: url) == good)
        let reasons = reports.of("download_failed").compactMap { $0["reason"] }
        #expect(reasons.contains { $0.contains("keeping the last good manifest") }, "\(reasons)")
        #expect(reports.of("source_status").map { $0["state"] ?? "" }.contains("stale"))
    }

    @Test func aCutOffOrOversizedDownloadNeverStaysInTheCache() throws {
        let server = try MisbehavingServer()
        defer { server.stop() }
        let folder = try MediaFixtures.folder("remote-cut")
        var settings = RemoteLibrary.Settings(cacheFolder: folder)
        settings.maxDownloadBytes = 1 << 20
        settings.idleTimeout = 1
        let library = RemoteLibrary(settings: settings, warn: { _ in })
        defer { library.stop() }
        for path in ["/drop", "/big", "/big-unannounced", "/stall", "/loop"] {
            #expect(throws: ImageError.self, "\(path)") { try library.file(for: server.url(path)) }
        }
        let left = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0 != "index.json" }
        #expect(left.isEmpty, "nothing half-downloaded stays: \(left)")
    }

    @Test func restartedWithoutTheServerTheCachedShowIsThere() throws {
        let server = try MisbehavingServer()
        let folder = try MediaFixtures.folder("remote-offline")
        server.put("/show.toml", Self.manifest(["a.jpg", "b.jpg"]))
        server.put("/a.jpg", Self.picture(1))
        server.put("/b.jpg", Self.picture(2))
        let url = server.url("/show.toml")
        do {
            let library = Self.library(folder)
            library.waitUntilPolled([url], within: 10)
            #expect(Self.eventually { server.requests("/a.jpg") == 1 && server.requests("/b.jpg") == 1 })
            #expect(Self.eventually { library.cache.urls.count == 3 })
            // Listed in memory before the index reaches the disk: a restart reads the disk.
            // (Under load the new library once read an index without b.jpg.)
            #expect(Self.eventually {
                let index = (try? String(contentsOfFile: folder + "/index.json", encoding: .utf8)) ?? ""
                return ["a.jpg", "b.jpg", "show.toml"].allSatisfy { index.contains($0) }
            })
            library.stop()
        }
        server.stop()

        let reports = Reports()
        let again = Self.library(folder, reports: reports)
        defer { again.stop() }
        // Listed at once from the cache, before any answer.
        #expect(again.items(of: url)?.map(\.path) == [server.url("/a.jpg"), server.url("/b.jpg")])
        #expect(Self.fill(try again.file(for: server.url("/b.jpg"))) == 2)
        #expect(Self.eventually { again.state(of: url) == .offline })
        // The network gone is the source's state, not a failure of each cached picture.
        #expect(reports.of("download_failed").allSatisfy { $0["url"] == url }, "\(reports.of("download_failed"))")
        #expect(reports.of("source_status").last?["state"] == "offline")
    }

    @Test func withNothingCachedAndNoServerTheSourceWaits() throws {
        let server = try MisbehavingServer()
        let url = server.url("/show.toml")
        server.stop()
        let library = Self.library(try MediaFixtures.folder("remote-nothing"))
        defer { library.stop() }
        library.waitUntilPolled([url], within: 10)
        #expect(library.items(of: url) == nil)
        #expect(library.state(of: url) == .waiting)
    }

    @Test func aPictureGivenAsASourceIsItsOwnItem() throws {
        let server = try MisbehavingServer()
        defer { server.stop() }
        server.put("/one.jpg", Self.picture(3))
        let library = Self.library(try MediaFixtures.folder("remote-single"))
        defer { library.stop() }
        #expect(library.items(of: server.url("/one.jpg"))?.map(\.path) == [server.url("/one.jpg")])
        #expect(Self.fill(try library.file(for: server.url("/one.jpg"))) == 3)
    }
}
