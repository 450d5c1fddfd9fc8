import CarouselCore
@testable import CarouselMedia
import Foundation
import TestSupport
import Testing

/// A family's Immich library as a source, against a fake Immich server on loopback shaped
/// as Immich's API: albums through `search/metadata` page after page, people, favourites,
/// today's memories and a random selection, each picture once; the key on every request
/// and in no reason; versions older or newer than tested said once; hostile answers read
/// safely; through the web library, real JPEGs downloaded with the key, a deleted picture
/// gone at the next refresh, and the listing shown offline from the cache.
@Suite struct ImmichSourceTests {
    static let key = "k3y-" + UUID().uuidString

    /// A JPEG of one colour, by cjpeg.
    static func jpeg(_ c: (UInt8, UInt8, UInt8)) throws -> [UInt8] {
        try ReferenceEncoders.cjpeg(PixelImage(width: 64, height: 48, fill: (c.0, c.1, c.2, 255)), [])
    }

    static func id(_ n: Int) -> String { String(format: "00000000-0000-4000-8000-%012d", n) }

    /// The fetch the library makes: the key on every request, JSON bodies posted.
    static func fetch(_ source: ImmichSource) -> ImmichSource.Fetch {
        { url, body in
            var r = HTTPFetcher.Request(url: url)
            r.headers = source.headers
            r.body = body
            let file = ScratchRoot.path + "/immich-\(UUID().uuidString)"
            defer { unlink(file) }
            switch HTTPFetcher.fetch(r, into: file) {
            case .fetched: return .success([UInt8](FileManager.default.contents(atPath: file) ?? Data()))
            case .notModified: return .failure(.init("304"))
            case .failed(let reason): return .failure(.init(reason))
            }
        }
    }

    static func server(assets count: Int, album: Int = 0) throws -> FakeImmich {
        let server = try FakeImmich(key: key)
        server.addAlbum(id: id(900_001), name: "Holidays 2025")
        server.addAlbum(id: id(900_002), name: "Garden")
        server.addPerson(id: id(800_001), name: "Grandma")
        let picture = try jpeg((200, 40, 40))
        for n in 0..<count {
            var a = FakeImmich.Asset(id: id(n), name: "IMG_\(n).HEIC", preview: picture, original: picture)
            if n < album { a.albums = [id(900_001)] }
            if n % 7 == 0 { a.people = [id(800_001)] }
            if n % 10 == 3 { a.favourite = true }
            if n % 50 == 5 { a.takenOn = "11-27" }
            server.add(a)
        }
        return server
    }

    static let today = ISO8601DateFormatter().date(from: "2026-11-27T12:00:00Z")!

    @Test func anAlbumByNameIsListedThroughSearchMetadataPageAfterPage() throws {
        let server = try Self.server(assets: 620, album: 600)
        defer { server.stop() }
        var selection = ImmichSource.Selection()
        selection.albums = ["holidays 2025"]
        let source = ImmichSource(server: server.url + "/", key: Self.key, selection: selection)
        var notes: [String] = []
        let items = try source.list(fetch: Self.fetch(source), today: Self.today) { notes.append($0) }
        #expect(items.count == 600 && notes.isEmpty, "\(items.count), \(notes)")
        #expect(items.first?.path == server.url + "/api/assets/\(Self.id(0))/thumbnail?size=preview")
        #expect(items.first?.title == "IMG_0", "the title is the file's name")
        #expect(server.requests("/api/search/metadata") == 3, "600 in pages of 250")
        #expect(server.requests("/api/albums") == 1)
        #expect(server.keys == [Self.key], "the key on every request")
    }

    @Test func peopleFavouritesMemoriesAndRandomCombineEachPictureOnce() throws {
        let server = try Self.server(assets: 100)
        defer { server.stop() }
        var selection = ImmichSource.Selection()
        selection.people = ["Grandma"]
        selection.favourites = true
        selection.memories = true
        selection.random = 5
        selection.originals = true
        let source = ImmichSource(server: server.url, key: Self.key, selection: selection)
        let items = try source.list(fetch: Self.fetch(source), today: Self.today) { _ in }
        let ids = items.map { $0.path.components(separatedBy: "/")[5] }
        let grandma = (0..<100).filter { $0 % 7 == 0 }.map(Self.id)
        let favourites = (0..<100).filter { $0 % 10 == 3 }.map(Self.id)
        let memories = (0..<100).filter { $0 % 50 == 5 }.map(Self.id)
        var expected: [String] = []
        for i in grandma + favourites + memories + (0..<5).map(Self.id) where !expected.contains(i) { expected.append(i) }
        #expect(ids == expected, "in the order chosen, each once")
        #expect(items.allSatisfy { $0.path.hasSuffix("/original") }, "originals asked for")
        #expect(server.requests("/api/memories") == 1)
    }

    /// When and where each was taken and who is in it come with the listing (asked for with
    /// `withExif` and `withPeople`): the wall time where it was taken, not UTC's.
    @Test func eachPictureIsListedWithWhenWhereAndWho() throws {
        let server = try Self.server(assets: 0)
        defer { server.stop() }
        let picture = try Self.jpeg((10, 20, 30))
        var a = FakeImmich.Asset(id: Self.id(1), name: "IMG_1.HEIC", preview: picture, original: picture)
        a.albums = [Self.id(900_002)]
        a.people = [Self.id(800_001)]
        a.takenOn = "07-14"
        a.year = 2019
        var b = FakeImmich.Asset(id: Self.id(2), name: "IMG_2.HEIC", preview: picture, original: picture)
        b.albums = [Self.id(900_002)]
        b.city = nil
        b.country = "Japan\u{7}"
        // A phone's portrait: stored 4032x3024, turned a quarter to show.
        b.orientation = "6"
        server.add(a)
        server.add(b)
        var selection = ImmichSource.Selection()
        selection.albums = ["Garden"]
        let source = ImmichSource(server: server.url, key: Self.key, selection: selection)
        let items = try source.list(fetch: Self.fetch(source), today: Self.today) { _ in }
        #expect(items.map(\.taken) == ["2019-07-14T10:00:00", "2024-01-01T10:00:00"])
        #expect(items.map(\.place) == ["Lisbon, Portugal", "Japan"], "a control character from the server is dropped")
        #expect(items.map(\.people) == [["Grandma"], []])
        // Their shapes as shown (--pair-portraits pairs them before any is fetched).
        #expect(items.map(\.aspect) == [0.75, 4.0 / 3])
        // Kept in the cache as a manifest and read back, they say the same.
        let back = try Manifest.parse(Manifest.text(of: items), url: server.url + "/listing.toml")
        #expect(back.map(\.taken) == items.map(\.taken) && back.map(\.place) == items.map(\.place) && back.map(\.people) == items.map(\.people))
        #expect(back.map(\.aspect) == [0.75, 1.3333])
    }

    @Test func aTagByItsPathOrNameListsItsPictures() throws {
        let server = try Self.server(assets: 0)
        defer { server.stop() }
        server.addTag(id: Self.id(700_001), path: "Family/Garden")
        let picture = try Self.jpeg((10, 200, 10))
        for n in 0..<4 {
            var a = FakeImmich.Asset(id: Self.id(n), name: "tagged-\(n).jpg", preview: picture, original: picture)
            a.tags = n % 2 == 0 ? [Self.id(700_001)] : []
            server.add(a)
        }
        for wanted in ["Family/Garden", "garden", Self.id(700_001)] {
            var selection = ImmichSource.Selection()
            selection.tags = [wanted]
            let source = ImmichSource(server: server.url, key: Self.key, selection: selection)
            let items = try source.list(fetch: Self.fetch(source), today: Self.today) { _ in }
            #expect(items.map(\.title) == ["tagged-0", "tagged-2"], "\(wanted): \(items.map(\.title))")
        }
    }

    @Test func aRefusedKeyIsOneLineThatNamesTheKeyFileNotTheKey() throws {
        let server = try Self.server(assets: 3)
        defer { server.stop() }
        let secret = "wrong-" + UUID().uuidString
        let source = ImmichSource(server: server.url, key: secret, selection: ImmichSource.Selection())
        var settings = RemoteLibrary.Settings(cacheFolder: try MediaFixtures.folder("immich-key"))
        settings.immich = source
        settings.firstRetry = 0.1
        let reports = RemoteLibraryTests.Reports()
        let library = RemoteLibrary(settings: settings, warn: { _ in }, event: { reports.add($0, $1) })
        defer { library.stop() }
        #expect(library.items(of: source.sourceURL) == nil)
        #expect(RemoteLibraryTests.eventually { !reports.of("download_failed").isEmpty })
        let reason = reports.of("download_failed").first?["reason"] ?? ""
        #expect(reason.contains("401") && reason.contains("--immich-key-file") && !reason.contains("\n"), "\(reason)")
        #expect(!reason.contains(secret), "the key is never in a reason")
        #expect(server.keys == [secret])
    }

    @Test func aVersionOlderOrNewerThanTestedIsSaidOnce() throws {
        let server = try Self.server(assets: 2)
        defer { server.stop() }
        let source = ImmichSource(server: server.url, key: Self.key, selection: ImmichSource.Selection())
        for (version, said) in [((1, 132, 3), "older"), ((4, 0, 0), "newer"), ((3, 0, 1), nil), ((2, 0, 0), nil)] as [((Int, Int, Int), String?)] {
            server.version = version
            var notes: [String] = []
            var selection = ImmichSource.Selection()
            selection.random = 2
            let items = try ImmichSource(server: server.url, key: Self.key, selection: selection)
                .list(fetch: Self.fetch(source), today: Self.today) { notes.append($0) }
            #expect(items.count == 2, "unknown fields passed by")
            if let said { #expect(notes.count == 1 && notes[0].contains(said), "\(version): \(notes)") } else { #expect(notes.isEmpty) }
        }
    }

    /// What a hostile server may say: ids that would leave the asset's URL, missing fields,
    /// not JSON at all.
    @Test func hostileAnswersAreReadSafely() {
        let items: [Any] = [["id": "../../api/users/me"], ["id": Self.id(1), "originalFileName": "a.jpg"], ["name": "no id"], 7,
                            ["id": Self.id(2), "isTrashed": true], ["id": String(repeating: "a", count: 65)]]
        #expect(ImmichSource.assets(items).map(\.id) == [Self.id(1)])
        #expect(ImmichSource.find("x/../y", in: [["id": "x/../y", "albumName": "x/../y"]], nameKey: "albumName") == nil)
        var selection = ImmichSource.Selection()
        selection.random = 3
        let random = ImmichSource(server: "http://127.0.0.1:9", key: "k", selection: selection)
        for answer in [Array("<html>".utf8), Array("{\"major\": 2, \"minor\": 1}".utf8)] {
            do {
                _ = try random.list(fetch: { url, _ in .success(url.hasSuffix("/version") ? answer : Array("{}".utf8)) },
                                    today: Self.today) { _ in }
                Issue.record("an answer that is not JSON, or an object for a list, was listed")
            } catch {
                #expect(!error.reason.contains("\n") && error.reason.hasPrefix("Immich http://127.0.0.1:9"), "\(error.reason)")
            }
        }
    }

    /// Through the web library: listed, downloaded with the key (real JPEGs that decode),
    /// a picture deleted in Immich gone at the next refresh, the listing shown at an
    /// offline start from the cache.
    /// Refreshes of an album that did not change ask for no picture again (its checksum and
    /// update say so: Immich's thumbnails carry no validator here, so each check would be a
    /// whole download); a picture replaced in Immich is downloaded again.
    @Test func anUnchangedPictureIsNotAskedForAgainAReplacedOneIs() throws {
        let server = try Self.server(assets: 3, album: 3)
        defer { server.stop() }
        var selection = ImmichSource.Selection()
        selection.albums = [Self.id(900_001)]
        let source = ImmichSource(server: server.url, key: Self.key, selection: selection)
        var settings = RemoteLibrary.Settings(cacheFolder: try MediaFixtures.folder("immich-versions"))
        settings.immich = source
        settings.refresh = 0.5
        settings.quietStart = 0
        let library = RemoteLibrary(settings: settings, warn: { _ in })
        defer { library.stop() }
        _ = library.items(of: source.sourceURL)
        func thumbnail(_ n: Int) -> String { "/api/assets/\(Self.id(n))/thumbnail" }
        #expect(RemoteLibraryTests.eventually { (0..<3).allSatisfy { server.requests(thumbnail($0)) >= 1 } })
        let searches = server.requests("/api/search/metadata")
        #expect(RemoteLibraryTests.eventually { server.requests("/api/search/metadata") >= searches + 3 }, "three refreshes")
        #expect((0..<3).map { server.requests(thumbnail($0)) } == [1, 1, 1], "no picture asked for again")
        let replaced = try Self.jpeg((10, 200, 10))
        server.update(Self.id(0)) { $0.preview = replaced; $0.checksum = "new" }
        #expect(RemoteLibraryTests.eventually { server.requests(thumbnail(0)) == 2 }, "the replaced one, again")
        let url = try #require(library.items(of: source.sourceURL)?.first?.path)
        #expect(RemoteLibraryTests.eventually { library.cache.entry(for: url)?.bytes == Int64(replaced.count) })
        #expect(server.requests(thumbnail(1)) == 1 && server.requests(thumbnail(2)) == 1)
    }

    @Test func theLibraryDownloadsWithTheKeyFollowsDeletionsAndStartsOffline() throws {
        let server = try Self.server(assets: 6, album: 4)
        var selection = ImmichSource.Selection()
        selection.albums = [Self.id(900_001)]
        let source = ImmichSource(server: server.url, key: Self.key, selection: selection)
        let folder = try MediaFixtures.folder("immich-library")
        var settings = RemoteLibrary.Settings(cacheFolder: folder)
        settings.immich = source
        settings.refresh = 1
        settings.quietStart = 0.2
        let library = RemoteLibrary(settings: settings, warn: { _ in })
        _ = library.items(of: source.sourceURL)
        #expect(RemoteLibraryTests.eventually { library.items(of: source.sourceURL)?.count == 4 })
        let first = try #require(library.items(of: source.sourceURL)?.first)
        let file = try library.file(for: first.path, within: 10)
        let shown = try FittingDecoder().decode(ImageSource(path: file), fittingIn: Size(width: 64, height: 48))
        #expect(shown.width == 64 && shown.pixels[0] > 180, "a real JPEG, downloaded with the key")
        server.delete(Self.id(1))
        #expect(RemoteLibraryTests.eventually { library.items(of: source.sourceURL)?.count == 3 }, "gone at the next refresh")
        library.stop()
        server.stop()
        // Offline: a new start lists the cached listing at once.
        var offline = settings
        offline.refresh = 300
        let again = RemoteLibrary(settings: offline, warn: { _ in })
        defer { again.stop() }
        #expect(again.items(of: source.sourceURL)?.count == 3, "the cached listing, at once")
        #expect(server.keys == [Self.key])
    }
}
