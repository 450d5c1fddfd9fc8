import Testing
@testable import CarouselCore

@Suite struct ScreenRotationTests {
    let panel = Size(width: 1280, height: 720)

    @Test(arguments: ScreenRotation.allCases)
    func logicalAndPhysicalPointsRoundTrip(rotation: ScreenRotation) {
        for p in [Point(x: 0, y: 0), Point(x: 100, y: 30), Point(x: 700, y: 1200)] {
            let back = rotation.toLogical(rotation.toPhysical(p, physical: panel), physical: panel)
            #expect(back == p)
        }
    }

    @Test func quarterTurnIsClockwise() {
        let r = ScreenRotation.quarter
        #expect(r.logicalSize(physical: panel) == Size(width: 720, height: 1280))
        // The logical top-left corner shows at the physical top-right; the centre stays.
        #expect(r.toPhysical(Point(x: 0, y: 0), physical: panel) == Point(x: 1280, y: 0))
        #expect(r.toPhysical(Point(x: 360, y: 640), physical: panel) == Point(x: 640, y: 360))
        // A finger at the physical bottom-left is at the logical bottom-right... of a portrait screen.
        #expect(r.toLogical(Point(x: 0, y: 720), physical: panel) == Point(x: 720, y: 1280))
        #expect(ScreenRotation.threeQuarters.toPhysical(Point(x: 0, y: 0), physical: panel) == Point(x: 0, y: 720))
        #expect(ScreenRotation.half.toLogical(Point(x: 10, y: 20), physical: panel) == Point(x: 1270, y: 700))
    }

    @Test func touchTransformsParseAndApply() {
        #expect(TouchTransform(parsing: "swap-xy,invert-x") == [.swapXY, .invertX])
        #expect(TouchTransform(parsing: "none") == [])
        #expect(TouchTransform(parsing: "invert-y, swap-xy") == [.swapXY, .invertY])
        #expect(TouchTransform(parsing: "mirror") == nil)
        let t: TouchTransform = [.swapXY, .invertX]
        #expect(t.apply(x: 0.25, y: 0.75) == (0.25, 0.25), "swapped to (0.75, 0.25), then x inverted")
        #expect(TouchTransform([.invertY]).apply(x: 0.1, y: 0.2) == (0.1, 0.8))
        #expect(t.description == "swap-xy,invert-x")
    }
}
