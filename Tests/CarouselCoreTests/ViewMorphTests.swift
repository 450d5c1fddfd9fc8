import Testing
@testable import CarouselCore

@Suite struct ViewMorphTests {
    let tile = Rect(x: 100, y: 50, width: 120, height: 80)
    let centred = Rect(x: 400, y: 100, width: 600, height: 400)
    let cover = Rect(x: 0.1, y: 0, width: 0.8, height: 1)
    let whole = Rect(x: 0, y: 0, width: 1, height: 1)

    @Test func theTileGrowsIntoThePictureInAQuarterOfASecond() {
        let m = ViewMorph(from: tile, to: centred, fromCrop: cover, toCrop: whole, time: 2)
        #expect(m.frame(at: 2) == tile && m.crop(at: 2) == cover)
        #expect(m.frame(at: 2.25) == centred && m.crop(at: 2.25) == whole)
        #expect(!m.isDone(at: 2.249) && m.isDone(at: 2.25))
        // Eased out: past half way at half the time, and the size and the place move together.
        let p = m.progress(at: 2.125)
        #expect(abs(p - 0.875) < 1e-12)
        let mid = m.frame(at: 2.125)
        #expect(abs(mid.size.width - (120 + 480 * p)) < 1e-9 && abs(mid.minX - (100 + 300 * p)) < 1e-9)
        #expect(abs(m.crop(at: 2.125).minX - 0.1 * (1 - p)) < 1e-12)
        // Never beyond either end.
        #expect(m.frame(at: 1) == tile && m.frame(at: 9) == centred)
    }
}
