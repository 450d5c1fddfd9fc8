import Testing
@testable import CarouselCore

@Suite struct GestureTrackerTests {
    func ev(_ p: PointerEvent.Phase, _ x: Double, _ y: Double, _ t: Double,
            _ id: PointerID = .finger(1)) -> PointerEvent {
        PointerEvent(p, id, x: x, y: y, time: t)
    }

    @Test func shortStillPressIsATap() {
        var g = GestureTracker()
        #expect(g.handle(ev(.down, 100, 100, 0)) == .pressed(Point(x: 100, y: 100), time: 0))
        #expect(g.handle(ev(.move, 104, 97, 0.05)) == nil, "within the slop")
        #expect(g.handle(ev(.up, 104, 97, 0.1)) == .tapped(Point(x: 100, y: 100), time: 0.1))
        #expect(!g.isActive)
    }

    @Test func longPressIsNotATap() {
        var g = GestureTracker()
        _ = g.handle(ev(.down, 100, 100, 0))
        #expect(g.handle(ev(.up, 100, 100, 0.3)) == .ended(time: 0.3))
    }

    @Test func horizontalBeyondSlopDrags() {
        var g = GestureTracker()
        _ = g.handle(ev(.down, 100, 100, 0))
        #expect(g.handle(ev(.move, 91, 102, 0.016)) == .dragged(travel: -9, time: 0.016))
        #expect(g.isDragging)
        // Once dragging, vertical motion no longer matters.
        #expect(g.handle(ev(.move, 80, 150, 0.032)) == .dragged(travel: -20, time: 0.032))
        guard case .released(let travel, _, _) = g.handle(ev(.up, 70, 150, 0.048)) else {
            Issue.record("expected a release"); return
        }
        #expect(travel == -30)
    }

    @Test func verticalFirstLocksTheStrip() {
        var g = GestureTracker()
        _ = g.handle(ev(.down, 100, 100, 0))
        #expect(g.handle(ev(.move, 103, 112, 0.016)) == nil)
        #expect(g.handle(ev(.move, 300, 120, 0.032)) == nil, "horizontal after vertical does not drag")
        #expect(g.handle(ev(.up, 300, 120, 0.048)) == .ended(time: 0.048))
    }

    /// The mosaic's tracker: the same rules with the axes swapped.
    @Test func aVerticalTrackerDragsVerticallyAndLocksOutHorizontalDrags() {
        var g = GestureTracker(axis: .vertical)
        _ = g.handle(ev(.down, 100, 100, 0))
        #expect(g.handle(ev(.move, 102, 91, 0.016)) == .dragged(travel: -9, time: 0.016))
        #expect(g.handle(ev(.move, 150, 80, 0.032)) == .dragged(travel: -20, time: 0.032), "sideways motion no longer matters")
        for i in 1...4 { _ = g.handle(ev(.move, 150, 80 - Double(i) * 10, 0.032 + Double(i) * 0.008)) }
        guard case .released(let travel, let velocity, _) = g.handle(ev(.up, 150, 40, 0.068)) else {
            Issue.record("expected a release"); return
        }
        #expect(travel == -60)
        #expect(velocity < -1000, "the velocity is measured along y: \(velocity)")

        var h = GestureTracker(axis: .vertical)
        _ = h.handle(ev(.down, 100, 100, 0))
        #expect(h.handle(ev(.move, 112, 103, 0.016)) == nil, "horizontal first locks the wall")
        #expect(h.handle(ev(.move, 120, 300, 0.032)) == nil)
        #expect(h.handle(ev(.up, 120, 300, 0.048)) == .ended(time: 0.048))
    }

    @Test func secondFingerIsIgnoredUntilTheFirstLifts() {
        var g = GestureTracker()
        _ = g.handle(ev(.down, 100, 100, 0, .finger(1)))
        #expect(g.handle(ev(.down, 500, 100, 0.01, .finger(2))) == nil)
        #expect(g.handle(ev(.move, 300, 100, 0.02, .finger(2))) == nil)
        #expect(g.handle(ev(.move, 80, 100, 0.03, .finger(1))) == .dragged(travel: -20, time: 0.03))
        #expect(g.handle(ev(.up, 300, 100, 0.04, .finger(2))) == nil)
        #expect(g.isDragging)
        _ = g.handle(ev(.up, 80, 100, 0.05, .finger(1)))
        #expect(g.handle(ev(.down, 500, 100, 0.06, .finger(2))) == .pressed(Point(x: 500, y: 100), time: 0.06))
    }

    @Test func cancelEndsWithoutVelocity() {
        var g = GestureTracker()
        _ = g.handle(ev(.down, 100, 100, 0))
        for i in 1...5 { _ = g.handle(ev(.move, 100 - Double(i) * 20, 100, Double(i) * 0.008)) }
        #expect(g.handle(ev(.cancel, 0, 100, 0.048)) == .released(travel: -100, velocity: 0, time: 0.048))
    }

    @Test func mouseAndFingerAreDifferentPointers() {
        var g = GestureTracker()
        _ = g.handle(ev(.down, 100, 100, 0, .mouse))
        #expect(g.handle(ev(.up, 100, 100, 0.01, .finger(0))) == nil)
        #expect(g.isActive)
    }
}
