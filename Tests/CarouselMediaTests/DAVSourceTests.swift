@testable import CarouselMedia
import CarouselCore
import Foundation
import TestSupport
import Testing
@testable import CarouselSources

/// A WebDAV folder as a source: walked as a local folder is scanned, bounded against a
/// server that never ends, and, against a real server (Apache httpd with mod_dav on
/// loopback), listed, kept, refreshed and shown from the cache when the login is refused.
@Suite struct DAVSourceTests {
    /// A multistatus answer for `folder` listing `children` (names; a trailing `/` a folder).
    static func answer(_ folder: String, _ children: [String], etag: (String) -> String = { "\"\($0.count)\"" }) -> [UInt8] {
        var xml = "<d:multistatus xmlns:d=\"DAV:\"><d:response><d:href>\(folder)</d:href><d:propstat><d:prop>"
            + "<d:resourcetype><d:collection/></d:resourcetype></d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>"
        for child in children {
            let isFolder = child.hasSuffix("/")
            xml += "<d:response><d:href>\(child.hasPrefix("http") || child.hasPrefix("/") ? child : folder + child)</d:href>"
                + "<d:propstat><d:prop><d:resourcetype>\(isFolder ? "<d:collection/>" : "")</d:resourcetype>"
                + (isFolder ? "" : "<d:getetag>\(etag(child))</d:getetag>")
                + "</d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>"
        }
        return Array((xml + "</d:multistatus>").utf8)
    }

    /// Folders by path, each answered from `tree`; every folder asked for is counted.
    final class FakeServer: @unchecked Sendable {
        let lock = NSLock()
        var asked: [String] = []
        let answer: @Sendable (String) -> Result<[UInt8], DAVSource.Problem>
        init(_ answer: @escaping @Sendable (String) -> Result<[UInt8], DAVSource.Problem>) { self.answer = answer }
        var fetch: DAVSource.Fetch {
            { [self] url in
                lock.withLock { asked.append(url) }
                return answer(url)
            }
        }
    }

    static func tree(_ folders: [String: [String]]) -> FakeServer {
        FakeServer { url in
            let path = URLComponents(string: url)!.percentEncodedPath
            guard let children = folders[path] else { return .failure(.init("HTTP 404")) }
            return .success(answer(path, children))
        }
    }

    @Test func aFolderIsWalkedAsALocalFolderIsScanned() throws {
        let tree: [String: [String]] = [
            "/dav/Photos/": ["img10.jpg", "img2.JPG", "notes.txt", ".hidden.jpg", "b/", "a/", ".trash/", "IMG_1.HEIC", "IMG_1.MOV",
                             "clip.mp4", "Img1.png"],
            "/dav/Photos/a/": ["x.png"],
            "/dav/Photos/b/": ["y.webp", "c/", "B2.jpg", "b10.jpg"],
            "/dav/Photos/b/c/": ["z.jpg"],
            "/dav/Photos/.trash/": ["gone.jpg"],
        ]
        // The same tree on disk, scanned as a local folder with its sub-folders.
        let local = try MediaFixtures.folder("dav-as-local")
        for (folder, children) in tree {
            let dir = local + folder.dropFirst("/dav/Photos".count)
            try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
            for child in children where !child.hasSuffix("/") { _ = FileManager.default.createFile(atPath: dir + child, contents: Data()) }
        }
        var scanner = SourceScanner()
        scanner.recursive = true
        let scanned = try scanner.scan([local])
        var withStrays = tree
        withStrays["/dav/Photos/"]! += ["/dav/Photos/", "http://elsewhere.example/x.jpg", "/other/outside.jpg", "/dav/PhotosOther/y.jpg"]
        let server = Self.tree(withStrays)
        let source = try DAVSource("davs://cloud.example:8443/dav/Photos")
        var notes: [String] = []
        let listing = try source.list(fetch: server.fetch) { notes.append($0) }
        let base = "https://cloud.example:8443/dav/Photos"
        #expect(listing.items.map { String($0.path.dropFirst(base.count)) } == scanned.map { String($0.path.dropFirst(local.count)) })
        #expect(listing.items.map(\.title) == scanned.map(\.title))
        #expect(listing.items.map { $0.motion.map { String($0.dropFirst(base.count)) } } == scanned.map { $0.motion.map { String($0.dropFirst(local.count)) } })
        #expect(listing.items.contains { $0.motion == base + "/IMG_1.MOV" }, "a Live Photo's still and motion are one item")
        #expect(listing.items.count == 10)
        #expect(listing.etags[base + "/img2.JPG"] == "\"8\"")
        #expect(!server.asked.contains { $0.contains(".trash") }, "hidden folders are not walked")
        #expect(notes.contains { $0.contains("another server") } && notes.contains { $0.contains("outside the folder") }, "\(notes)")
        #expect(source.owns(base + "/b/c/z.jpg") && !source.owns("https://cloud.example:8443/dav/PhotosOther/a.jpg")
                && !source.owns("https://elsewhere.example/dav/Photos/a.jpg") && !source.owns("http://cloud.example:8443/dav/Photos/a.jpg"))
    }

    @Test func percentEncodedNamesKeepTheirURLAndReadAsTitles() throws {
        let server = Self.tree(["/Photos/": ["T%C5%8Dky%C5%8D%20at%20night.jpg", "Sub%20Folder/"], "/Photos/Sub%20Folder/": ["a%2Bb.jpg"]])
        let listing = try DAVSource("dav://nas.local/Photos/").list(fetch: server.fetch) { _ in }
        #expect(listing.items.map(\.path) == ["http://nas.local/Photos/T%C5%8Dky%C5%8D%20at%20night.jpg", "http://nas.local/Photos/Sub%20Folder/a%2Bb.jpg"])
        #expect(listing.items.map(\.title) == ["Tōkyō at night", "a+b"])
    }

    /// A server whose every folder holds another, or many: the walk stops at its bounds.
    @Test func anEndlessTreeIsBoundedInDepthAndCount() throws {
        let deep = FakeServer { url in .success(Self.answer(URL(string: url)!.path + "/", ["p.jpg", "deeper/"])) }
        var notes: [String] = []
        let listing = try DAVSource("dav://h/top").list(fetch: deep.fetch) { notes.append($0) }
        #expect(deep.asked.count == DAVSource.maxDepth + 1)
        #expect(listing.items.count == DAVSource.maxDepth + 1)
        #expect(notes.contains { $0.contains("deeper than \(DAVSource.maxDepth)") }, "\(notes)")

        let wide = FakeServer { url in .success(Self.answer(URL(string: url)!.path + "/", (0..<60).map { "f\($0)/" } + ["p.jpg"])) }
        notes = []
        _ = try DAVSource("dav://h/top").list(fetch: wide.fetch) { notes.append($0) }
        #expect(wide.asked.count == DAVSource.maxFolders)
        #expect(notes.contains { $0.contains("more than \(DAVSource.maxFolders) folders") }, "\(notes)")

        let full = FakeServer { url in .success(Self.answer(URL(string: url)!.path + "/", (0..<30_000).map { "p\($0).jpg" })) }
        notes = []
        let many = try DAVSource("dav://h/top").list(fetch: full.fetch) { notes.append($0) }
        #expect(many.items.count == DAVSource.maxFiles)
        #expect(notes.contains { $0.contains("more than \(DAVSource.maxFiles) files") }, "\(notes)")
    }

    /// A folder reached twice (a server that lists an ancestor as a child) is walked once.
    @Test func aFolderListedAgainIsNotWalkedAgain() throws {
        let server = Self.tree(["/p/": ["a/", "a.jpg"], "/p/a/": ["/p/", "/p/a/", "b.jpg"]])
        let listing = try DAVSource("dav://h/p").list(fetch: server.fetch) { _ in }
        #expect(server.asked.count == 2)
        #expect(listing.items.map(\.title) == ["a", "b"])
    }

    @Test func theFolderGivenMustAnswerASubFolderMayNot() throws {
        let server = Self.tree(["/p/": ["a/", "x.jpg"]])
        var notes: [String] = []
        let listing = try DAVSource("dav://h/p").list(fetch: server.fetch) { notes.append($0) }
        #expect(listing.items.map(\.title) == ["x"])
        #expect(notes == ["dav://h/p: /p/a left out: HTTP 404"])
        #expect(throws: DAVSource.Problem.self) { try DAVSource("dav://h/q").list(fetch: server.fetch) { _ in } }
        let html = FakeServer { _ in .success(Array("<html><body>Sign in</body></html>".utf8)) }
        #expect(throws: DAVSource.Problem("/p answered with not a WebDAV answer (its element is html)")) {
            try DAVSource("dav://h/p").list(fetch: html.fetch) { _ in }
        }
    }

    @Test(arguments: ["davs://anna:secret@cloud.example/Photos", "davs:///Photos", "https://cloud.example/Photos"])
    func anAddressThatCannotBeUsedIsRefused(_ address: String) {
        do {
            _ = try DAVSource(address)
            Issue.record("accepted \(address)")
        } catch {
            #expect(!error.description.contains("secret"), "the password is never said: \(error)")
        }
    }
}

/// Against Apache httpd with mod_dav on loopback, through the web library as the show uses it.
@Suite(.enabled(if: RequiredTools.run(missing: DAVServer.unavailableReason), "apache2 missing; run kiosk/setup"))
struct DAVServerTests {
    static func library(_ folder: String, netrc: String?, refresh: Double = 60, reports: RemoteLibraryTests.Reports,
                        lines: Lines = Lines()) -> RemoteLibrary {
        RemoteLibraryTests.library(folder, refresh: refresh, reports: reports, netrc: netrc, warn: { lines.add($0) })
    }

    final class Lines: @unchecked Sendable {
        private let lock = NSLock()
        private var all: [String] = []
        func add(_ line: String) { lock.withLock { all.append(line) } }
        var said: [String] { lock.withLock { all } }
    }

    static let eventually = RemoteLibraryTests.eventually
    static func picture(_ byte: UInt8) -> [UInt8] { RemoteLibraryTests.picture(byte) }

    @Test func aFolderIsListedDownloadedAndFollowedAcrossRefreshes() throws {
        let server = try DAVServer()
        defer { server.stop() }
        try server.put("/Photos/a.jpg", Self.picture(1))
        try server.put("/Photos/b.jpg", Self.picture(2))
        try server.put("/Photos/2024/summer/c.jpg", Self.picture(3))
        try server.put("/Photos/readme.txt", Array("not a picture".utf8))
        let address = server.address("/Photos")
        let reports = RemoteLibraryTests.Reports()
        let library = Self.library(try MediaFixtures.folder("dav-follow"), netrc: server.netrc, refresh: 1, reports: reports)
        defer { library.stop() }
        library.waitUntilPolled([address], within: 10)
        #expect(library.items(of: address)?.map(\.path) == ["/Photos/a.jpg", "/Photos/b.jpg", "/Photos/2024/summer/c.jpg"].map(server.url))
        #expect(library.state(of: address) == .online)
        let file = try library.file(for: server.url("/Photos/2024/summer/c.jpg"), within: 10)
        #expect(RemoteLibraryTests.fill(file) == 3)
        // Every picture comes into the cache; then, with nothing changed, a refresh asks for
        // the listing only: the ETags say the cached copies are current.
        #expect(Self.eventually { library.cache.entry(for: server.url("/Photos/b.jpg")) != nil && library.cache.entry(for: server.url("/Photos/a.jpg")) != nil })
        Thread.sleep(forTimeInterval: 0.5)
        let gets = server.requests("GET"), propfinds = server.requests("PROPFIND")
        #expect(Self.eventually { server.requests("PROPFIND") >= propfinds + 6 }, "three refreshes of three folders: \(propfinds) then \(server.requests("PROPFIND")), GET \(gets)")
        #expect(server.requests("GET") == gets, "no picture asked for again: \(server.log.filter { $0.contains("GET") })")

        // One added, one removed, one replaced: the next refresh shows it.
        try server.put("/Photos/2024/d.jpg", Self.picture(4))
        try server.remove("/Photos/a.jpg")
        Thread.sleep(forTimeInterval: 1.1)  // a new modification time, so a new ETag
        try server.put("/Photos/b.jpg", Self.picture(5) + [0])
        let expected = ["/Photos/b.jpg", "/Photos/2024/d.jpg", "/Photos/2024/summer/c.jpg"].map(server.url)
        #expect(Self.eventually { library.items(of: address)?.map(\.path) == expected }, "\(library.items(of: address)?.map(\.path) ?? [])")
        #expect(Self.eventually {
            (try? library.file(for: server.url("/Photos/b.jpg"), within: 5)).flatMap { FileManager.default.contents(atPath: $0)?.count } == 2005
        }, "the replaced picture is downloaded again")
    }

    @Test func aRefusedLoginIsOneLineAndTheCachedShowGoesOn() throws {
        let server = try DAVServer()
        defer { server.stop() }
        try server.put("/Photos/a.jpg", Self.picture(1))
        let address = server.address("/Photos")
        let cache = try MediaFixtures.folder("dav-login")
        do {
            let library = Self.library(cache, netrc: server.netrc, reports: RemoteLibraryTests.Reports())
            library.waitUntilPolled([address], within: 10)
            _ = try library.file(for: server.url("/Photos/a.jpg"), within: 10)
            library.stop()
        }
        let wrong = cache + "/wrong-netrc"
        try "machine 127.0.0.1 login \(DAVServer.user) password not-it\n".write(toFile: wrong, atomically: true, encoding: .utf8)
        let lines = Lines()
        let reports = RemoteLibraryTests.Reports()
        let library = Self.library(cache, netrc: wrong, refresh: 0.5, reports: reports, lines: lines)
        defer { library.stop() }
        // The cached listing shows at once, its picture from the cache.
        #expect(library.items(of: address)?.map(\.path) == [server.url("/Photos/a.jpg")])
        #expect(RemoteLibraryTests.fill(try library.file(for: server.url("/Photos/a.jpg"), within: 5)) == 1)
        #expect(Self.eventually { library.state(of: address) == .offline })
        Thread.sleep(forTimeInterval: 1.5)
        let refused = lines.said.filter { $0.contains("HTTP 401") }
        #expect(refused == ["\(address): HTTP 401 (the login was refused or is missing: check \(wrong)); keeping the last listing"],
                "one line, said once: \(lines.said)")
        #expect(!lines.said.joined().contains(DAVServer.password) && !lines.said.joined().contains("not-it"), "no password in a line")
    }

    @Test func withoutALoginTheServerRefusesAndItIsSaid() throws {
        let server = try DAVServer()
        defer { server.stop() }
        try server.put("/Photos/a.jpg", Self.picture(1))
        let empty = try MediaFixtures.folder("dav-nologin") + "/netrc"
        try "".write(toFile: empty, atomically: true, encoding: .utf8)
        let lines = Lines()
        let library = Self.library(try MediaFixtures.folder("dav-nologin-cache"), netrc: empty, reports: RemoteLibraryTests.Reports(), lines: lines)
        defer { library.stop() }
        let address = server.address("/Photos")
        library.waitUntilPolled([address], within: 10)
        #expect(library.items(of: address) == nil)
        #expect(library.state(of: address) == .waiting)
        #expect(lines.said.contains { $0.hasPrefix(address + ": HTTP 401") }, "\(lines.said)")
    }

    /// A server whose answer never ends is cut off at the listing's cap, in one line.
    @Test func anEndlessAnswerIsCutOff() throws {
        let listener = try LoopbackListener()
        defer { listener.stop() }
        listener.start { fd in
            defer { close(fd) }
            var buffer = [UInt8](repeating: 0, count: 4096)
            _ = read(fd, &buffer, buffer.count)
            let head = "HTTP/1.1 207 Multi-Status\r\nContent-Type: application/xml\r\nConnection: close\r\n\r\n<d:multistatus xmlns:d=\"DAV:\">"
            let chunk = Array(String(repeating: "<d:response><d:href>/p/a.jpg</d:href></d:response>", count: 1000).utf8)
            guard Glibc.send(fd, head, head.utf8.count, Int32(MSG_NOSIGNAL)) > 0 else { return }
            for _ in 0..<1_000 { guard chunk.withUnsafeBytes({ Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }) > 0 else { return } }
        }
        let lines = Lines()
        let library = Self.library(try MediaFixtures.folder("dav-endless"), netrc: nil, reports: RemoteLibraryTests.Reports(), lines: lines)
        defer { library.stop() }
        let address = "dav://127.0.0.1:\(listener.port)/p"
        library.waitUntilPolled([address], within: 20)
        #expect(library.items(of: address) == nil)
        #expect(lines.said.contains { $0.hasPrefix(address + ": larger than 8 MB, cut off") }, "\(lines.said)")
    }
}
