import CarouselCore
@testable import CarouselMedia
import Foundation
import TestSupport
import Testing
@testable import CarouselSources

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
        #expect(server.requests("/api/search/metadata") == 4, "600 in pages of 250, and the archive's one page")
        #expect(server.requests("/api/albums") == 2, "the albums owned, and those shared")
        #expect(server.requests("/api/timeline/buckets") == 1 && server.requests("/api/timeline/bucket") == 0,
                "the timeline counts what the search found: no month asked for")
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
        for (version, said) in [((1, 129, 3), "older"), ((4, 0, 0), "newer"), ((3, 0, 1), nil), ((2, 0, 0), nil), ((1, 132, 0), nil)] as [((Int, Int, Int), String?)] {
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

    // MARK: A family's Immich: shared albums, other members' pictures, the archive, paging, refusals.

    /// The frame's account ("u1") is a member of Grandma's album, shared with it and with an
    /// aunt; each of the three added pictures, and a partner of the frame's account in its
    /// timeline added two. A search answers only the account's and the partner's; the rest
    /// come from the album's timeline, only the months where the search found fewer.
    static func family(version: (Int, Int, Int) = (2, 3, 1)) throws -> FakeImmich {
        let server = try FakeImmich(key: key)
        server.version = version
        server.addAlbum(id: id(900_010), name: "Grandma's garden", owner: "u2", members: [FakeImmich.me, "u3"])
        server.addAlbum(id: id(900_011), name: "Mine alone")
        server.addAlbum(id: id(900_012), name: "Not shared with us", owner: "u3", members: ["u2"])
        server.addPartner("u4", inTimeline: true)
        let picture = try jpeg((40, 160, 60))
        let owners = ["u2", "u2", "u2", "u2", "u2", "u3", "u3", "u3", "u3", "u1", "u1", "u1", "u4", "u4"]
        for (n, owner) in owners.enumerated() {
            var a = FakeImmich.Asset(id: id(n), name: "\(owner)-\(n).jpg", preview: picture, original: picture)
            a.owner = owner
            a.albums = [id(900_010)]
            // Three years, months apart: the others' fall in months of their own and in one shared with ours.
            a.year = 2022 + n % 3
            a.takenOn = String(format: "%02d-14", 1 + n % 5)
            server.add(a)
        }
        var elsewhere = FakeImmich.Asset(id: id(50), name: "aunt-private.jpg", preview: picture, original: picture)
        elsewhere.owner = "u3"
        elsewhere.albums = [id(900_012)]
        server.add(elsewhere)
        return server
    }

    @Test func aSharedAlbumShowsEveryMembersPicturesFromTheFramesAccount() throws {
        for version in [(2, 3, 1), (3, 0, 1), (1, 132, 0)] {
            let server = try Self.family(version: version)
            defer { server.stop() }
            for wanted in ["grandma's garden", Self.id(900_010)] {
                var selection = ImmichSource.Selection()
                selection.albums = [wanted]
                let source = ImmichSource(server: server.url, key: Self.key, selection: selection)
                var notes: [String] = []
                let items = try source.list(fetch: Self.fetch(source), today: Self.today) { notes.append($0) }
                let ids = Set(items.map { $0.path.components(separatedBy: "/")[5] })
                #expect(ids == Set((0..<14).map(Self.id)), "\(version) \(wanted): every member's, each once: \(items.count), \(notes)")
                #expect(items.count == 14 && notes.isEmpty)
                // The account's and its partner's first, from the search, with their file names.
                #expect(Set(items.prefix(5).map(\.title)) == ["u1-9", "u1-10", "u1-11", "u4-12", "u4-13"], "\(items.map(\.title))")
                // The others', from the timeline: where and when (its wall time), their shape.
                let other = try #require(items.first { $0.path.contains(Self.id(5)) })
                #expect(other.place == "Lisbon, Portugal" && other.taken == "2024-01-14T10:00:00" && other.aspect == 0.75 && (other.title.isEmpty || other.title == "u3-5"), "\(other)")
            }
            #expect(server.requests("/api/albums") == 4, "owned and shared, twice")
            // 14 months, one picture each; the account's and its partner's fill 5 of them: 9 asked for, each time.
            #expect(server.requests("/api/timeline/bucket") == 2 * 9, "only the months where the search found fewer")
            var notShared = ImmichSource.Selection()
            notShared.albums = ["Not shared with us"]
            var notes: [String] = []
            let none = try ImmichSource(server: server.url, key: Self.key, selection: notShared)
                .list(fetch: Self.fetch(ImmichSource(server: server.url, key: Self.key, selection: notShared)), today: Self.today) { notes.append($0) }
            #expect(none.isEmpty && notes.count == 1 && notes[0].contains("no album named"), "\(notes)")
        }
    }

    /// Archived pictures show in an album unless `skipArchived` (the account's own, from the
    /// search's second visibility, and a member's, from the timeline); a Live Photo's hidden
    /// motion and the locked folder never show on their own, whatever the server answers.
    @Test func archivedPicturesShowUnlessSkippedHiddenAndLockedNever() throws {
        let server = try Self.family()
        defer { server.stop() }
        let clip = [UInt8](repeating: 1, count: 16)
        server.update(Self.id(9)) { $0.visibility = "archive" }
        server.update(Self.id(5)) { $0.visibility = "archive" }
        server.update(Self.id(10)) { $0.visibility = "locked" }
        server.update(Self.id(11)) { $0.livePhoto = (Self.id(60), clip) }
        server.update(Self.id(6)) { $0.livePhoto = (Self.id(61), clip) }
        for skip in [false, true] {
            var selection = ImmichSource.Selection()
            selection.albums = ["Grandma's garden"]
            selection.skipArchived = skip
            let source = ImmichSource(server: server.url, key: Self.key, selection: selection)
            let items = try source.list(fetch: Self.fetch(source), today: Self.today) { _ in }
            let ids = Set(items.map { $0.path.components(separatedBy: "/")[5] })
            let expected = Set((0..<14).filter { $0 != 10 && !(skip && ($0 == 9 || $0 == 5)) }.map(Self.id))
            #expect(ids == expected, "skip \(skip): \(ids.symmetricDifference(expected))")
            #expect(items.first { $0.path.contains(Self.id(11)) }?.motion?.contains(Self.id(60)) == true, "the motion with its still")
            #expect(items.first { $0.path.contains(Self.id(6)) }?.motion?.contains(Self.id(61)) == true, "a member's too, from the timeline")
        }
        // The favourites and a random selection: no hidden motion, no locked picture.
        server.update(Self.id(10)) { $0.favourite = true }
        server.update(Self.id(11)) { $0.favourite = true }
        var selection = ImmichSource.Selection()
        selection.favourites = true
        selection.random = 50
        let source = ImmichSource(server: server.url, key: Self.key, selection: selection)
        let items = try source.list(fetch: Self.fetch(source), today: Self.today) { _ in }
        #expect(!items.contains { $0.path.contains(Self.id(60)) || $0.path.contains(Self.id(10)) }, "\(items.map(\.path))")
    }

    /// A partner's timeline when asked: every month of it, the timeline's pictures only
    /// (not in the account's timeline: a search would not answer them).
    @Test func aPartnersTimelineIsShownWhenAsked() throws {
        for version in [(3, 0, 1), (1, 131, 0)] {
            let server = try Self.family(version: version)
            defer { server.stop() }
            let grandpa = Self.id(400_001)
            server.addPartner(grandpa, name: "Grandpa", inTimeline: false)
            let picture = try Self.jpeg((90, 90, 200))
            for n in 0..<6 {
                var a = FakeImmich.Asset(id: Self.id(300 + n), name: "grandpa-\(n).jpg", preview: picture, original: picture)
                a.owner = grandpa
                a.year = 2020 + n
                a.visibility = n == 4 ? "archive" : n == 5 ? "locked" : "timeline"
                server.add(a)
            }
            for wanted in ["grandpa", grandpa, "Grandpa@example.com"] {
                var selection = ImmichSource.Selection()
                selection.partners = [wanted, "Nobody"]
                let source = ImmichSource(server: server.url, key: Self.key, selection: selection)
                var notes: [String] = []
                let items = try source.list(fetch: Self.fetch(source), today: Self.today) { notes.append($0) }
                #expect(Set(items.map { $0.path.components(separatedBy: "/")[5] }) == Set((300..<304).map(Self.id)), "\(version) \(wanted): \(items.map(\.path))")
                #expect(notes.count == 1 && notes[0].contains("no partner named or numbered Nobody"), "\(notes)")
            }
        }
    }

    @Test func twelveHundredPeopleArePagedAndAHiddenOneIsFoundByName() throws {
        let server = try Self.server(assets: 30)
        defer { server.stop() }
        for n in 0..<1_200 { server.addPerson(id: Self.id(600_000 + n), name: "Person \(n)", hidden: n == 1_100) }
        server.update(Self.id(4)) { $0.people = [Self.id(601_100)] }
        var selection = ImmichSource.Selection()
        selection.people = ["person 1100", "Person 3"]
        let source = ImmichSource(server: server.url, key: Self.key, selection: selection)
        var notes: [String] = []
        let items = try source.list(fetch: Self.fetch(source), today: Self.today) { notes.append($0) }
        #expect(notes.isEmpty, "\(notes)")
        #expect(items.map(\.title) == ["IMG_4"], "the hidden person of page 3, found by name")
        #expect(server.requests("/api/people") == 3, "500 to a page")
    }

    @Test func aRefusedPermissionIsOneLineNamingItAndTheRestStillShows() throws {
        let server = try Self.family()
        defer { server.stop() }
        server.addTag(id: Self.id(700_001), path: "Family")
        server.refuse("tag.read")
        var selection = ImmichSource.Selection()
        selection.albums = ["Grandma's garden"]
        selection.tags = ["Family"]
        let source = ImmichSource(server: server.url, key: Self.key, selection: selection)
        var notes: [String] = []
        let items = try source.list(fetch: Self.fetch(source), today: Self.today) { notes.append($0) }
        #expect(items.count == 14, "the album still shows")
        #expect(notes.count == 1 && notes[0].contains("tag.read") && notes[0].contains("403") && !notes[0].contains("\n"), "\(notes)")
        #expect(!notes.joined().contains(Self.key))
        // Every part refused: the listing fails (the last one is kept), naming what is missing.
        server.refuse("album.read")
        do {
            _ = try source.list(fetch: Self.fetch(source), today: Self.today) { _ in }
            Issue.record("a listing with every part refused replaced the last one")
        } catch {
            #expect(error.reason.contains("album.read") || error.reason.contains("tag.read"), "\(error.reason)")
        }
    }

    /// An album of 5,000 pictures shared with the frame's account, most added by the other
    /// members: every one listed; the requests and bytes of one listing said.
    @Test func aSharedAlbumOfFiveThousandIsListedWhole() throws {
        let server = try FakeImmich(key: Self.key)
        defer { server.stop() }
        server.addAlbum(id: Self.id(900_020), name: "Family", owner: "u2", members: [FakeImmich.me, "u3", "u5"])
        let picture = try Self.jpeg((1, 2, 3))
        for n in 0..<5_000 {
            var a = FakeImmich.Asset(id: Self.id(n), name: "IMG_\(n).HEIC", preview: picture, original: picture)
            a.owner = ["u1", "u2", "u3", "u5"][n % 4]
            a.albums = [Self.id(900_020)]
            a.year = 2015 + n % 10
            a.takenOn = String(format: "%02d-%02d", 1 + n % 12, 1 + n % 28)
            server.add(a)
        }
        var selection = ImmichSource.Selection()
        selection.albums = ["Family"]
        let source = ImmichSource(server: server.url, key: Self.key, selection: selection)
        let items = try source.list(fetch: Self.fetch(source), today: Self.today) { _ in }
        #expect(Set(items.map(\.path)).count == 5_000)
        print("immich: a shared album of 5,000 (a quarter the account's): \(server.allRequests) requests, \(server.bytesAnswered / 1024) KiB answered")
    }

    /// A timeline bucket as a hostile or broken server may write it: columns of other lengths
    /// and types, ids that would leave the URL, shapes that are not numbers.
    @Test func hostileTimelineColumnsAreReadSafely() {
        let bucket: [String: Any] = ["id": [Self.id(1), "../../etc", Self.id(2), 7, Self.id(3), Self.id(4)],
                                     "visibility": ["timeline", "timeline", "locked", "timeline", "hidden"],
                                     "isTrashed": [false, false, false, "no"],
                                     "ratio": [0, "wide", 1e9, 1.5],
                                     "fileCreatedAt": ["2024-07-14T08:00:00.000Z", 3, "yesterday"],
                                     "localOffsetHours": [5.5, 1, 1, 1e12],
                                     "livePhotoVideoId": ["x/../y"], "city": [String(repeating: "a", count: 500)]]
        let assets = ImmichSource.columns(bucket)
        #expect(assets.map(\.id) == [Self.id(1), Self.id(4)], "locked, hidden, and a bad id left out: \(assets.map(\.id))")
        #expect(assets.first?.taken == "2024-07-14T13:30:00" && assets.first?.aspect == nil && assets.first?.motion == nil)
        #expect((assets.first?.place?.count ?? 0) <= 100)
        #expect(ImmichSource.columns(["id": "not a list"]).isEmpty && ImmichSource.columns([:]).isEmpty)
        #expect(!ImmichSource.isBucket("2024-07-01&albumId=x") && ImmichSource.isBucket("2024-07-01T00:00:00.000Z"))
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
