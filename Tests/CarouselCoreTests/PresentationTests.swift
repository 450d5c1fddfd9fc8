import Testing
@testable import CarouselCore

@Suite struct PresentationTests {
    @Test func neighboursShrinkAndDimWithDistance() {
        let e = NeighbourEmphasis(scale: 0.85, dim: 0.4)
        #expect(e.factors(distance: 0) == (1, 0))
        #expect(e.factors(distance: -0.5) == (0.925, 0.2))
        #expect(e.factors(distance: 1) == (0.85, 0.4))
        #expect(e.factors(distance: 3) == (0.85, 0.4), "no further change beyond one stride")
        let f = e.frame(Rect(x: 100, y: 50, width: 200, height: 100), distance: 1)
        #expect(f == Rect(x: 115, y: 57.5, width: 170, height: 85))
        #expect(NeighbourEmphasis().frame(Rect(x: 1, y: 2, width: 3, height: 4), distance: 1) == Rect(x: 1, y: 2, width: 3, height: 4))
    }

    @Test func captionsShowAtRestAndFadeBetweenItems() {
        #expect(CaptionFade.opacity(at: 4) == 1)
        #expect(CaptionFade.opacity(at: 4.01) == 1)
        #expect(CaptionFade.opacity(at: 3.5) == 0)
        #expect(CaptionFade.opacity(at: 4.3) == 0)
        let mid = CaptionFade.opacity(at: 4.1)
        #expect(mid > 0.5 && mid < 0.7)
        #expect(abs(CaptionFade.opacity(at: 3.9) - mid) < 1e-9, "the same either side")
    }

    @Test func fewItemsShowEveryDot() {
        let dots = PageDots.layout(count: 6, current: 2)
        #expect(dots.map(\.index) == Array(0..<6))
        #expect(dots.allSatisfy { $0.scale == 1 })
        #expect(dots.filter(\.isCurrent).map(\.index) == [2])
        #expect(PageDots.layout(count: 1, current: 0).isEmpty)
    }

    @Test func manyItemsShowAWindowWithSmallerEdges() {
        let start = PageDots.layout(count: 5000, current: 0)
        #expect(start.count == 15 && start.first?.index == 0)
        #expect(start.first?.scale == 1, "nothing lies before the first item")
        #expect(start.suffix(2).map(\.scale) == [0.7, 0.4])
        let middle = PageDots.layout(count: 5000, current: 2500)
        #expect(middle.map(\.index) == Array(2493...2507))
        #expect(middle.prefix(2).map(\.scale) == [0.4, 0.7] && middle.suffix(2).map(\.scale) == [0.7, 0.4])
        #expect(middle.first(where: \.isCurrent)?.index == 2500)
        let end = PageDots.layout(count: 5000, current: 4999)
        #expect(end.last?.index == 4999 && end.last?.scale == 1 && end.last?.isCurrent == true)
    }
}
