import CarouselCore
import CarouselMedia
import Foundation
import Testing
import CarouselSources

@Suite struct NaturalOrderTests {
    @Test func numbersCompareByValueAndCaseIsIgnored() {
        let names = ["img10.jpg", "IMG2.jpg", "img1.jpg", "Img1b.jpg", "a.jpg", "img003.jpg"]
        #expect(names.sorted(by: NaturalOrder.less) == ["a.jpg", "img1.jpg", "Img1b.jpg", "IMG2.jpg", "img003.jpg", "img10.jpg"])
    }
}

@Suite struct ManifestTests {
    @Test func itemsInOrderWithTitlesAndCaptions() throws {
        let text = """
        # the lobby screen
        [[item]]
        path = "b.jpg"
        title = "Harbour at dawn"
        caption = "From the north pier"

        [[item]]
        path = "/photos/a.jpg"
        """
        let items = try Manifest.parse(text, file: "/shows/lobby.toml")
        #expect(items == [
            ImageSource(path: "/shows/b.jpg", title: "Harbour at dawn", caption: "From the north pier"),
            ImageSource(path: "/photos/a.jpg", title: "a"),
        ])
    }

    /// When, where and who, as a manifest lists them, written back as they were read.
    @Test func anItemsDatePlaceAndPeopleAreReadAndWritten() throws {
        let text = "[[item]]\npath = \"a.jpg\"\ntaken = \"2024-07-14T06:12:00+02:00\"\nplace = \"Lisbon, Portugal\"\npeople = [\"Anna\", \"Ben\"]\n"
        let items = try Manifest.parse(text, url: "https://content.example/show.toml")
        #expect(items == [ImageSource(path: "https://content.example/a.jpg", taken: "2024-07-14T06:12:00+02:00", place: "Lisbon, Portugal",
                                      people: ["Anna", "Ben"])])
        #expect(try Manifest.parse(Manifest.text(of: items), url: "https://content.example/show.toml") == items)
    }

    /// An item's size as shown: its shape before it is fetched (pairs are made by it).
    @Test func anItemsSizeIsItsShape() throws {
        let items = try Manifest.parse("[[item]]\npath = \"a.jpg\"\nwidth = 3000\nheight = 4000\n\n[[item]]\npath = \"b.jpg\"\n",
                                       url: "https://content.example/show.toml")
        #expect(items.map(\.aspect) == [4.0 / 3, nil])
        #expect(try Manifest.parse(Manifest.text(of: items), url: "https://content.example/show.toml").map(\.aspect) == [1.3333, nil])
    }

    /// An item's motion (a Live Photo's clip) resolves as its path does; a web manifest's
    /// cannot name a file of the kiosk's.
    @Test func anItemsMotionResolvesAsItsPath() throws {
        let local = try Manifest.parse("[[item]]\npath = \"IMG_1.HEIC\"\nmotion = \"IMG_1.MOV\"\n", file: "/shows/lobby.toml")
        #expect(local.first?.motion == "/shows/IMG_1.MOV")
        let web = try Manifest.parse("[[item]]\npath = \"a.jpg\"\nmotion = \"clips/a.mov\"\n", url: "https://content.example/show.toml")
        #expect(web.first?.motion == "https://content.example/clips/a.mov")
        #expect(throws: Manifest.Problem.self) {
            try Manifest.parse("[[item]]\npath = \"a.jpg\"\nmotion = \"file:///etc/passwd\"\n", url: "https://content.example/show.toml")
        }
    }

    @Test(arguments: [
        ("[[item]]\npath = \"a.jpg\"\ntitle = = \"x\"\n", 3, "title"),
        ("[[item]]\npath = \"a.jpg\"\n\n[[item]]\npath = \"b.jpg\"\ntilte = \"B\"\n", 6, "unknown key 'tilte' in item 2"),
        ("[[item]]\npath = \"a.jpg\"\ntitle = 3\n", 3, "'title' in item 1 must be a string"),
        ("[[item]]\ntitle = \"no path\"\n", 1, "item 1 has no path"),
        ("shuffle = true\n[[item]]\npath = \"a.jpg\"\n", 1, "unknown key 'shuffle'"),
        ("item = \"a.jpg\"\n", 1, "'item' must be an array of tables"),
        ("[[item]]\npath = \"a.jpg\"\ntaken = \"14/07/2024\"\n", 3, "taken '14/07/2024' in item 1 is not a date"),
        ("[[item]]\npath = \"a.jpg\"\npeople = \"Anna\"\n", 3, "'people' in item 1 must be a list of names"),
        ("[[item]]\npath = \"a.jpg\"\nwidth = 3000\n", 3, "'width' and 'height' in item 1 must both be given"),
        ("[[item]]\npath = \"a.jpg\"\nheight = 0\nwidth = 5\n", 3, "'width' and 'height' in item 1 must both be given"),
        ("[[item]]\npath = \"a.jpg\"\nwidth = \"3000\"\nheight = 4000\n", 3, "as whole pixels from 1 to 1000000"),
    ])
    func errorsNameTheLine(_ c: (String, Int, String)) {
        do {
            _ = try Manifest.parse(c.0, file: "m.toml")
            Issue.record("accepted a bad manifest: \(c.0)")
        } catch {
            #expect(error.line == c.1, "\(error)")
            #expect(error.description.hasPrefix("m.toml:\(c.1): "), "\(error)")
            if c.2 != "title" { #expect(error.message.contains(c.2), "\(error)") }
        }
    }
}

@Suite struct SourceScannerTests {
    func touch(_ path: String, mtime: Double? = nil) throws {
        try Data([1]).write(to: URL(fileURLWithPath: path))
        if let mtime { try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: mtime)], ofItemAtPath: path) }
    }

    @Test func foldersInNaturalOrderSkippingHiddenAndOtherFiles() throws {
        let dir = try MediaFixtures.folder("scan")
        for n in ["img10.jpg", "img2.PNG", ".hidden.jpg", "notes.txt", "img1.jpeg", "manifest.toml"] { try touch(dir + "/" + n) }
        var notes: [String] = []
        let found = try SourceScanner().scan([dir]) { notes.append($0) }
        #expect(found.map(\.path) == ["img1.jpeg", "img2.PNG", "img10.jpg"].map { dir + "/" + $0 })
        #expect(Set(notes) == ["\(dir)/notes.txt: not an image type carousel shows, skipped",
                               "\(dir)/manifest.toml: a manifest in a folder is not read (give it as a source for its order and titles), skipped"])
    }

    @Test func modificationTimeOrder() throws {
        let dir = try MediaFixtures.folder("mtime")
        try touch(dir + "/a.jpg", mtime: 3000)
        try touch(dir + "/b.jpg", mtime: 1000)
        try touch(dir + "/c.jpg", mtime: 2000)
        var scanner = SourceScanner()
        scanner.order = .modificationTime
        #expect(try scanner.scan([dir]).map(\.title) == ["b", "c", "a"])
    }

    @Test func recursiveFollowsLinksButNotLoops() throws {
        let dir = try MediaFixtures.folder("tree")
        let fm = FileManager.default
        try fm.createDirectory(atPath: dir + "/2019/summer", withIntermediateDirectories: true)
        try touch(dir + "/top.jpg")
        try touch(dir + "/2019/x.jpg")
        try touch(dir + "/2019/summer/y.jpg")
        try fm.createSymbolicLink(atPath: dir + "/2019/summer/back-up", withDestinationPath: dir)  // a loop
        var notes: [String] = []
        var scanner = SourceScanner()
        #expect(try scanner.scan([dir]).map(\.title) == ["top"])
        scanner.recursive = true
        let found = try scanner.scan([dir]) { notes.append($0) }
        #expect(found.map(\.title) == ["top", "x", "y"])
        #expect(notes.contains { $0.contains("back-up: skipped, a folder loop") }, "\(notes)")
    }

    @Test func aManifestIsASource() throws {
        let dir = try MediaFixtures.folder("manifest")
        try "[[item]]\npath = \"z.jpg\"\ntitle = \"Zed\"\n".write(toFile: dir + "/show.toml", atomically: true, encoding: .utf8)
        #expect(try SourceScanner().scan([dir + "/show.toml"]) == [ImageSource(path: dir + "/z.jpg", title: "Zed")])
    }

    @Test func missingSourceAndBadManifestAreProblems() throws {
        let dir = try MediaFixtures.folder("problems")
        #expect(throws: SourceScanner.Problem.self) { try SourceScanner().scan([dir + "/nope"]) }
        try "[[item]]\npath = 7\n".write(toFile: dir + "/bad.toml", atomically: true, encoding: .utf8)
        do { _ = try SourceScanner().scan([dir + "/bad.toml"]); Issue.record("accepted") } catch {
            #expect(error.description == "\(dir)/bad.toml:2: 'path' in item 1 must be a string")
        }
    }

    @Test func scanningTenThousandFilesDecodesNone() throws {
        let dir = try MediaFixtures.folder("many")
        // Names only: every file holds one byte, which no decoder would accept.
        for i in 0..<10_000 { _ = FileManager.default.createFile(atPath: "\(dir)/p\(i).jpg", contents: Data([0])) }
        let found = try SourceScanner().scan([dir])
        #expect(found.count == 10_000)
        #expect(found[9].title == "p9" && found[10].title == "p10")
    }
}

@Suite struct PassShuffleTests {
    struct Counter: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return state
        }
    }

    @Test func itemsOnScreenKeepTheirPlacesAndTheRestMove() {
        let sources = (0..<40).map { ImageSource(path: "/p/\($0).jpg") }
        var rng = Counter(state: 42)
        let kept: Set<Int> = [39, 0, 1, 2]
        let next = PassShuffle.reshuffle(sources, keeping: kept, using: &rng)
        for i in kept { #expect(next[i] == sources[i]) }
        #expect(Set(next) == Set(sources) && next.count == sources.count)
        #expect(next != sources, "a new pass brings a new order")
        let again = PassShuffle.reshuffle(next, keeping: kept, using: &rng)
        #expect(again != next)
    }

    @Test func aPassEndsWhenTheFirstItemReturnsAfterTheLast() {
        var t = PassShuffle.Tracker()
        let answers = [0, 3, 0, 4, 0, 0].map { t.settled(at: $0, count: 5) }
        // Back to the start without reaching the end is no pass; once per pass.
        #expect(answers == [false, false, false, false, true, false])
    }
}
