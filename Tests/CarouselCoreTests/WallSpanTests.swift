import CarouselCore
import Testing

/// A panel's part of a wall: the canvas spans every panel and the bezels between them.
@Suite struct WallSpanTests {
    @Test func theCanvasTakesEveryPanelAndTheBezelsBetween() throws {
        var s = try #require(WallSpan(parsing: "3x2:2,1"))
        s.bezel = try #require(WallSpan.bezel(parsing: "20,30"))
        let panel = Size(width: 1920, height: 1080)
        #expect(s.canvas(panel: panel) == Size(width: 3 * 1920 + 2 * 20, height: 2 * 1080 + 30))
        #expect(s.origin(panel: panel) == Point(x: 2 * (1920 + 20), y: 1080 + 30))
        #expect(WallSpan(parsing: "1x1:0,0")?.canvas(panel: panel) == panel, "a wall of one is the panel")
        #expect(WallSpan.bezel(parsing: "12")! == (12, 12))
    }

    @Test(arguments: ["2x2", "2x2:2,0", "0x1:0,0", "2x2:0", "17x1:0,0", "axb:0,0", "2x2:-1,0", "2x2:0,0:1", ""])
    func whatIsNotAPanelOfAWallIsRefused(_ text: String) {
        #expect(WallSpan(parsing: text) == nil)
    }

    @Test func badBezelsAreRefused() {
        for text in ["", "-1", "a", "1,2,3", "2000", "1,"] { #expect(WallSpan.bezel(parsing: text) == nil, "\(text)") }
    }
}
