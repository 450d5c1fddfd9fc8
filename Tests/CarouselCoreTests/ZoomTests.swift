import Testing
@testable import CarouselCore

extension [ViewEvent] {
    var zooms: [(index: Int, scale: Double)] { compactMap { if case .zoom(let i, let s) = $0.kind { (i, s) } else { nil } } }
}

/// A 3:2 picture fitted in the test layout's 600×500 box at item 0: 600×400 at (340, 160).
let fitted = Rect(x: 340, y: 160, width: 600, height: 400)

extension Carousel {
    mutating func finger(_ phase: PointerEvent.Phase, _ id: Int64, _ x: Double, _ y: Double, at t: Double) {
        handle(.pointer(PointerEvent(phase, .finger(id), x: x, y: y, time: t)))
    }

    /// Two fingers about `centre`, `from` px apart horizontally, spread to `to` px over
    /// `duration` in frames, then lifted (unless `lift` is false); returns the last time.
    @discardableResult
    mutating func pinch(about centre: Point, from: Double, to: Double, duration: Double = 0.2, at start: Double,
                        lift: Bool = true) -> Double {
        finger(.down, 1, centre.x - from / 2, centre.y, at: start)
        finger(.down, 2, centre.x + from / 2, centre.y, at: start)
        let steps = max(1, Int((duration / frame60).rounded()))
        var t = start
        for i in 1...steps {
            t = start + Double(i) * frame60
            let d = from + (to - from) * Double(i) / Double(steps)
            finger(.move, 1, centre.x - d / 2, centre.y, at: t)
            finger(.move, 2, centre.x + d / 2, centre.y, at: t)
        }
        if lift {
            finger(.up, 1, centre.x - to / 2, centre.y, at: t)
            finger(.up, 2, centre.x + to / 2, centre.y, at: t)
        }
        return t
    }

    /// The centred picture's place on screen.
    var pictureFrame: Rect? { zoom?.frame }
}

@Suite struct ZoomTests {
    func carousel(items: Int = 5, maxScale: Double = 4, autoplay: Double? = nil, resume: Double = 10) -> Carousel {
        var s = testSettings()
        s.attract.autoplayInterval = autoplay
        s.attract.idleResume = resume
        var c = Carousel(itemCount: items, viewport: viewport, settings: s)
        c.showZoomable(ZoomPan.Target(item: 0, virtualIndex: 0, content: fitted, maxScale: maxScale))
        _ = c.takeEvents()
        return c
    }

    /// The picture point (0–1 across it) shown at screen point `p`.
    func pictureSpot(_ frame: Rect, at p: Point) -> Point {
        Point(x: (p.x - frame.minX) / frame.size.width, y: (p.y - frame.minY) / frame.size.height)
    }

    @Test func aPinchKeepsThePointUnderTheFingersAndGrowsThePicture() {
        var c = carousel()
        let centre = Point(x: 600, y: 340)
        let before = pictureSpot(fitted, at: centre)
        c.pinch(about: centre, from: 100, to: 300, at: 1, lift: false)
        let f = c.pictureFrame!
        #expect(abs(f.size.width - 1800) < 0.001)            // three times the distance: three times the size
        let after = pictureSpot(f, at: centre)
        #expect(abs(after.x - before.x) < 1e-9 && abs(after.y - before.y) < 1e-9)
        #expect(c.position == 0)                             // the strip did not move
        #expect(c.isInteracting)
    }

    @Test func belowFitThePictureResistsAndSpringsBackToFit() {
        var c = carousel()
        let t = c.pinch(about: Point(x: 640, y: 360), from: 200, to: 50, at: 1)
        // Raw scale 0.25; shown with the rubber band: more than 0.45 of fit.
        let shrunk = c.zoom!.scale
        #expect(shrunk > 0.45 && shrunk < 1)
        c.advance(to: t + 0.15)
        #expect(c.isAnimating && c.zoom!.scale > shrunk)
        c.advance(to: t + 0.4)
        #expect(c.pictureFrame == fitted && !c.isAnimating)
        #expect(c.takeEvents().zooms.map(\.scale) == [1])
    }

    @Test func pastTheLargestScaleItSpringsBackToTheLargest() {
        var c = carousel(maxScale: 3)
        let t = c.pinch(about: Point(x: 640, y: 360), from: 100, to: 600, at: 1)
        #expect(c.zoom!.scale > 3 && c.zoom!.scale < 6)       // resisted: raw 6
        c.advance(to: t + 0.5)
        #expect(abs(c.zoom!.scale - 3) < 1e-9)
        #expect(c.takeEvents().zooms.map(\.scale) == [3])
    }

    @Test func aSecondFingerDuringADragTurnsItIntoAPinchAndTheStripReturns() {
        var c = carousel()
        c.finger(.down, 1, 700, 360, at: 1)
        for i in 1...6 { c.finger(.move, 1, 700 - Double(i) * 20, 360, at: 1 + Double(i) * frame60) }
        #expect(c.position > 0)                               // the strip follows the finger
        let t = 1 + 7 * frame60
        c.finger(.down, 2, 800, 360, at: t)
        c.finger(.move, 2, 900, 360, at: t + frame60)
        #expect(c.zoom!.scale > 1.2)                          // the two fingers pinch
        c.finger(.up, 1, 580, 360, at: t + 2 * frame60)
        c.finger(.up, 2, 900, 360, at: t + 2 * frame60)
        c.advance(to: t + 1)
        #expect(c.position == 0)                              // no swipe: back on its picture
        #expect(c.takeEvents().releases.isEmpty)
        #expect(c.zoom!.isZoomed)
    }

    @Test func aThirdFingerIsIgnored() {
        var c = carousel()
        c.pinch(about: Point(x: 640, y: 360), from: 100, to: 200, at: 1, lift: false)
        let f = c.pictureFrame
        c.finger(.down, 3, 100, 100, at: 2)
        c.finger(.move, 3, 1000, 600, at: 2.1)
        c.finger(.up, 3, 1000, 600, at: 2.2)
        #expect(c.pictureFrame == f)
    }

    @Test func aDoubleTapZoomsAboutTheTappedPointAndASecondGoesBackToFit() {
        var c = carousel()
        let p = Point(x: 610, y: 340)
        c.tap(x: p.x - 10, y: p.y, at: 1, pointer: .finger(1))
        c.tap(x: p.x, y: p.y, at: 1.2, pointer: .finger(1))   // 10 px off the first: still a double tap
        c.advance(to: 1.6)
        let f = c.pictureFrame!
        #expect(abs(c.zoom!.scale - 2.5) < 1e-9)
        // The tapped point stays, unless an edge must meet the screen's.
        let spot = pictureSpot(f, at: p), was = pictureSpot(fitted, at: p)
        #expect(abs(spot.x - was.x) < 1e-9 && abs(spot.y - was.y) < 1e-9)
        #expect(c.takeEvents().zooms.map(\.scale) == [2.5])
        c.tap(x: 700, y: 400, at: 2, pointer: .finger(1))
        c.tap(x: 700, y: 400, at: 2.2, pointer: .finger(1))
        c.advance(to: 2.6)
        #expect(c.pictureFrame == fitted)
    }

    @Test func twoTapsTooFarApartInTimeOrPlaceAreTwoTaps() {
        var c = carousel()
        c.tap(x: 500, y: 300, at: 1, pointer: .finger(1))
        c.tap(x: 500, y: 300, at: 1.5, pointer: .finger(1))    // 450 ms later
        c.tap(x: 800, y: 300, at: 1.7, pointer: .finger(1))    // 300 px away
        c.advance(to: 3)
        #expect(c.zoom!.isZoomed == false)
        #expect(c.takeEvents().taps == [0, 0, 0])
    }

    func zoomedIn(_ c: inout Carousel, at t: Double = 1) -> Double {
        c.tap(x: 640, y: 360, at: t, pointer: .finger(1))
        c.tap(x: 640, y: 360, at: t + 0.1, pointer: .finger(1))
        c.advance(to: t + 0.6)
        _ = c.takeEvents()
        return t + 0.6
    }

    @Test func oneFingerPansAZoomedPictureInsteadOfTheStrip() {
        var c = carousel()
        var t = zoomedIn(&c)
        let before = c.pictureFrame!
        c.finger(.down, 1, 640, 360, at: t)
        for i in 1...10 { c.finger(.move, 1, 640 - Double(i) * 10, 360 + Double(i) * 5, at: t + Double(i) * frame60) }
        t += 10 * frame60
        let after = c.pictureFrame!
        #expect(after.minX == before.minX - 100 && after.minY == before.minY + 50)
        #expect(c.position == 0)
        c.finger(.up, 1, 540, 410, at: t + 0.1)              // held still: no glide
        c.advance(to: t + 1)
        #expect(c.pictureFrame == after)
        #expect(c.takeEvents().zooms.map(\.scale) == [2.5])
    }

    @Test func aFlungPanGlidesAndStopsAtThePicturesEdge() {
        var c = carousel()
        var t = zoomedIn(&c)
        c.finger(.down, 1, 640, 360, at: t)
        for i in 1...5 { c.finger(.move, 1, 640 - Double(i) * 40, 360, at: t + Double(i) * frame60) }
        t += 5 * frame60
        c.finger(.up, 1, 440, 360, at: t)                     // 2400 px/s to the left
        c.advance(to: t + 0.1)
        #expect(c.isAnimating)
        c.advance(to: t + 5)
        // 1500 px wide: its right edge meets the screen's.
        #expect(abs(c.pictureFrame!.maxX - 1280) < 1e-6)
        #expect(!c.isAnimating)
    }

    @Test func pastItsEdgeThePictureResistsAndReturns() {
        var c = carousel()
        var t = zoomedIn(&c)
        let before = c.pictureFrame!
        // Pan down: the picture's top is at y 0 after a centred double tap? Move it far down.
        c.finger(.down, 1, 640, 100, at: t)
        for i in 1...20 { c.finger(.move, 1, 640, 100 + Double(i) * 30, at: t + Double(i) * frame60) }
        t += 20 * frame60
        let pulled = c.pictureFrame!
        #expect(pulled.minY > 0 && pulled.minY - before.minY < 600)   // less than the finger's 600 px
        c.finger(.up, 1, 640, 700, at: t + 0.1)
        c.advance(to: t + 1)
        #expect(abs(c.pictureFrame!.minY) < 1e-6)              // back: its top on the screen's
    }

    @Test func atThePicturesEdgeAFurtherDragTurnsToTheNextItem() {
        var c = carousel()
        var t = zoomedIn(&c)
        // Pan to the right edge first.
        c.finger(.down, 1, 1200, 360, at: t)
        for i in 1...10 { c.finger(.move, 1, 1200 - Double(i) * 100, 360, at: t + Double(i) * frame60) }
        t += 10 * frame60
        c.finger(.up, 1, 200, 360, at: t + 0.2)
        t = c.settleFully(after: t + 0.2)
        #expect(abs(c.pictureFrame!.maxX - 1280) < 1e-6)
        #expect(c.position == 0)
        // Now further left: the strip takes it.
        c.finger(.down, 1, 1000, 360, at: t)
        for i in 1...10 { c.finger(.move, 1, 1000 - Double(i) * 15, 360, at: t + Double(i) * frame60) }
        #expect(c.position > 0)
        c.finger(.up, 1, 850, 360, at: t + 10 * frame60)
        c.advance(to: t + 2)
        let events = c.takeEvents()
        #expect(events.settledIndices == [1])
        #expect(c.zoom!.isZoomed == false)
    }

    @Test func theWheelAndKeysZoomInStepsBetweenFitAndTheLargest() {
        var c = carousel(maxScale: 3)
        c.handle(.zoom(by: 1.25, about: Point(x: 640, y: 360), time: 1))
        c.handle(.zoom(by: 1.25, about: Point(x: 640, y: 360), time: 1.05))   // adds to the first
        c.advance(to: 1.5)
        #expect(abs(c.zoom!.scale - 1.5625) < 1e-9)
        for i in 0..<10 { c.handle(.zoom(by: 1.5, about: nil, time: 2 + Double(i) * 0.01)) }
        c.advance(to: 3)
        #expect(abs(c.zoom!.scale - 3) < 1e-9)
        for i in 0..<10 { c.handle(.zoom(by: 1 / 1.5, about: nil, time: 4 + Double(i) * 0.01)) }
        c.advance(to: 5)
        #expect(c.pictureFrame == fitted)
    }

    @Test func aKeyStepLeavesTheZoomAndMoves() {
        var c = carousel()
        let t = zoomedIn(&c)
        c.handle(.step(.next, time: t))
        #expect(c.zoom!.isZoomed == false)
        c.advance(to: t + 1)
        #expect(c.takeEvents().settledIndices == [1])
    }

    @Test func autoplayWaitsWhileZoomedAndTheZoomReturnsToFitAfterIdleResume() {
        var c = carousel(autoplay: 3, resume: 10)
        let t = zoomedIn(&c, at: 1)                                // last input at 1.15
        #expect(c.nextScheduledTime.map { abs($0 - 11.15) < 1e-9 } == true)
        c.advance(to: 11)
        #expect(c.zoom!.isZoomed && c.position == 0)
        c.advance(to: 11.5)
        #expect(c.pictureFrame == fitted)
        let events = c.takeEvents()
        #expect(events.zooms.map(\.scale) == [1] && events.attractions.isEmpty)
        c.advance(to: 14.3)                                       // one interval after the resume
        #expect(c.takeEvents().attractions.map(\.ms) == [14150])
        _ = t
    }

    @Test func withoutAttractModeAZoomStays() {
        var c = carousel(autoplay: nil)
        _ = zoomedIn(&c)
        #expect(c.nextScheduledTime == nil)
        c.advance(to: 1000)
        #expect(c.zoom!.isZoomed)
    }

    @Test func anItemsBoxGrowsWithTheZoomAndIsDrawnLast() {
        var c = carousel()
        _ = zoomedIn(&c)
        let items = c.visibleItems
        #expect(items.last?.virtualIndex == 0)
        let box = items.last!.frame
        #expect(abs(box.size.width - 600 * 2.5) < 1e-9 && abs(box.size.height - 500 * 2.5) < 1e-9)
        // The picture inside the box is where the zoom has it.
        let f = c.pictureFrame!
        #expect(abs(box.minX - (f.minX - 0 * 2.5)) < 1e-9 && abs(box.minY - (f.minY - 50 * 2.5)) < 1e-9)
    }
}

@Suite struct ZoomRegionTests {
    func zoomed(scale: Double, maxScale: Double = 10) -> ZoomPan {
        var z = ZoomPan(viewport: viewport)
        z.show(ZoomPan.Target(item: 3, virtualIndex: 3, content: fitted, maxScale: maxScale))
        z.zoom(by: scale, about: Point(x: 640, y: 360), time: 0)
        _ = z.finishIfDone(at: 1)
        return z
    }

    @Test func atFitOrWhileMovingNoDetailIsWanted() {
        #expect(zoomed(scale: 1).wantedRegion == nil)
        var z = zoomed(scale: 3)
        z.hold()
        #expect(z.wantedRegion == nil)
        z.letGo()
        z.zoom(by: 1.2, about: nil, time: 2)
        #expect(z.wantedRegion == nil)                 // animating
    }

    @Test func theDetailCoversTheScreenWithAMarginAtTheScreensResolution() {
        let z = zoomed(scale: 4)                        // 2400×1600 about the centre
        let r = z.wantedRegion!
        let visible = z.visiblePart!
        #expect(abs(visible.size.width - 1280.0 / 2400) < 1e-9 && abs(visible.size.height - 720.0 / 1600) < 1e-9)
        #expect(r.item == 3)
        #expect(r.part.minX <= visible.minX && r.part.maxX >= visible.maxX && r.part.minY <= visible.minY && r.part.maxY >= visible.maxY)
        // Twice the screen's area, one screen pixel per decoded pixel.
        #expect(abs(r.size.width * r.size.height - 2 * 1280 * 720) < 2 * 1280 * 720 * 0.01)
        #expect(abs(r.density - 2400) < 2)
        #expect(r.serves(r, visible: visible))
    }

    @Test func theDetailIsNeverFinerThanThePicturesOwnPixels() {
        let z = zoomed(scale: 4, maxScale: 2.5)         // clamped to 2.5: its own pixels 1:1
        #expect(abs(z.scale - 2.5) < 1e-9)
        let own = zoomed(scale: 8, maxScale: 10)
        #expect(own.wantedRegion!.density <= 600 * 10 + 1)
        var coarse = own.wantedRegion!
        coarse.size.width /= 2
        #expect(!coarse.serves(own.wantedRegion!, visible: own.visiblePart!))   // half as sharp: asked again
    }

    @Test func aPanOffTheHeldDetailAsksAgain() {
        var z = zoomed(scale: 4)
        let held = z.wantedRegion!
        z.hold()
        z.pan(by: Point(x: -900, y: 0))
        z.release(velocity: Point(x: 0, y: 0), time: 3)
        _ = z.finishIfDone(at: 4)
        #expect(!held.serves(z.wantedRegion!, visible: z.visiblePart!))
        // The detail decoded for where it came to rest still serves after a short pan,
        // which stays inside its margin: nothing is asked again.
        let decoded = z.wantedRegion!
        z.hold()
        z.pan(by: Point(x: 20, y: 0))
        z.release(velocity: Point(x: 0, y: 0), time: 5)
        _ = z.finishIfDone(at: 6)
        #expect(decoded.serves(z.wantedRegion!, visible: z.visiblePart!))
    }
}
