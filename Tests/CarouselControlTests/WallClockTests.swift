import CarouselClock
import Testing

/// `CAROUSEL_WALL_CLOCK`'s file (issue 62's wrong clocks, tried without touching the host's
/// time): what it may say, and that anything else says nothing.
struct WallClockTests {
    @Test func theFileSaysAnOffsetAndWhetherNTPKeepsTheClock() {
        #expect(WallClock.Override("600 unsynchronised") == .init(offset: 600, synchronised: false))
        #expect(WallClock.Override(" -30.5\tsynchronised\n") == .init(offset: -30.5, synchronised: true))
        #expect(WallClock.Override("0") == .init(offset: 0, synchronised: nil))
    }

    @Test(arguments: ["", "\n", "soon", "600 maybe", "600 synchronised extra", "nan", "inf unsynchronised",
                      "86401", "-1e9", "1e400", String(repeating: "9", count: 400)])
    func anythingElseSaysNothing(_ text: String) {
        #expect(WallClock.Override(text) == nil)
    }
}

extension WallClock.Override {
    init(offset: Double, synchronised: Bool?) {
        self.init("0")!
        self.offset = offset
        self.synchronised = synchronised
    }
}
