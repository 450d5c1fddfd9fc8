@testable import CarouselCore
import Testing

/// Rectangles cut around a hole: what a zoomed picture draws around its sharp detail and a
/// backdrop around its picture.
@Suite struct GeometryTests {
    func area(_ rects: [Rect]) -> Double { rects.reduce(0) { $0 + $1.size.width * $1.size.height } }

    @Test func aRectangleAroundAHoleIsItsBandsWithoutOverlap() {
        let screen = Rect(x: 0, y: 0, width: 100, height: 60)
        let hole = Rect(x: 20, y: 10, width: 50, height: 30)
        let bands = screen.around(hole)
        #expect(bands.count == 4)
        #expect(area(bands) == 100 * 60 - 50 * 30)
        for (i, a) in bands.enumerated() {
            #expect(!a.intersects(hole))
            for b in bands[(i + 1)...] { #expect(!a.intersects(b)) }
        }
        // A hole reaching past an edge leaves no band on that side.
        #expect(screen.around(Rect(x: -10, y: -10, width: 60, height: 100)).count == 1)
        #expect(area(screen.around(Rect(x: -10, y: -10, width: 60, height: 100))) == 50 * 60)
        // Apart: the whole rectangle; covering it: nothing.
        #expect(screen.around(Rect(x: 200, y: 0, width: 10, height: 10)) == [screen])
        #expect(screen.around(Rect(x: -1, y: -1, width: 102, height: 62)).isEmpty)
    }
}
