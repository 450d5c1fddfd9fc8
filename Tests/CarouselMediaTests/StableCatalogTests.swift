import CarouselCore
import CarouselMedia
import Testing
import CarouselSources

@Suite struct StableCatalogTests {
    func source(_ name: String, size: Int64, at modified: Int64 = 1) -> ImageSource {
        ImageSource(path: "/photos/\(name)", stamp: FileStamp(size: size, modified: modified))
    }

    @Test func theFirstScanIsShownAtOnce() {
        let initial = [source("a.jpg", size: 10), source("b.jpg", size: 20)]
        var c = StableCatalog(initial: initial)
        let r = c.admit(initial, at: 0)
        #expect(r.sources == initial && r.recheckAt == nil)
    }

    @Test func aNewFileWaitsUntilItStopsChanging() {
        var c = StableCatalog(initial: [source("a.jpg", size: 10)], settle: 2)
        let a = source("a.jpg", size: 10)
        var r = c.admit([a, source("b.jpg", size: 100, at: 5)], at: 10)
        #expect(r.sources == [a] && r.recheckAt == 12)
        // Still growing at 11: the clock starts again.
        r = c.admit([a, source("b.jpg", size: 200, at: 6)], at: 11)
        #expect(r.sources == [a] && r.recheckAt == 13)
        r = c.admit([a, source("b.jpg", size: 200, at: 6)], at: 12.9)
        #expect(r.sources == [a])
        r = c.admit([a, source("b.jpg", size: 200, at: 6)], at: 13)
        #expect(r.sources == [a, source("b.jpg", size: 200, at: 6)] && r.recheckAt == nil)
    }

    @Test func aReplacedFileShowsItsOldVersionUntilTheNewOneIsComplete() {
        let old = source("a.jpg", size: 10, at: 1)
        var c = StableCatalog(initial: [old], settle: 2)
        let new = source("a.jpg", size: 99, at: 7)
        #expect(c.admit([new], at: 20).sources == [old])
        #expect(c.admit([new], at: 21).sources == [old])
        #expect(c.admit([new], at: 22).sources == [new])
        #expect(c.admit([new], at: 30).sources == [new])
    }

    @Test func aRemovedFileGoesAtOnceAndComingBackIsNew() {
        let a = source("a.jpg", size: 10), b = source("b.jpg", size: 20)
        var c = StableCatalog(initial: [a, b], settle: 2)
        #expect(c.admit([b], at: 5).sources == [b])
        #expect(c.admit([], at: 6).sources == [])
        #expect(c.admit([a, b], at: 7).sources == [], "back, but not yet known to be complete")
        #expect(c.admit([a, b], at: 9).sources == [a, b])
    }
}
