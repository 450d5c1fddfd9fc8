import Testing
@testable import CarouselCore

/// The mosaic's engine: vertical scrolling with friction, taps on tiles, sizes arriving,
/// resizes, keys and wheel, and slots for exactly the tiles on screen.
@Suite struct WallTests {
    /// 1000 photos of 3:2 on a 1920x1080 screen: 5 columns of 372 px, tiles 248 px high.
    func wall(_ count: Int = 1000, known: Int? = nil) -> Wall {
        var m = Wall(itemCount: count, viewport: Size(width: 1920, height: 1080))
        m.sizesKnown(Array(repeating: 2.0 / 3, count: known ?? count))
        return m
    }

    func touch(_ m: inout Wall, _ phase: PointerEvent.Phase, y: Double, x: Double = 500, t: Double) {
        m.handle(.pointer(PointerEvent(phase, .finger(1), x: x, y: y, time: t)))
    }

    /// A finger moving up `distance` px over `seconds`, then lifted.
    func drag(_ m: inout Wall, up distance: Double, seconds: Double, from y: Double = 900, at t0: Double = 0) {
        touch(&m, .down, y: y, t: t0)
        let steps = 10
        for i in 1...steps {
            touch(&m, .move, y: y - distance * Double(i) / Double(steps), t: t0 + seconds * Double(i) / Double(steps))
        }
        touch(&m, .up, y: y - distance, t: t0 + seconds + 0.008)
    }

    @Test func aDragMovesTheWallUnderTheFingerAndAFlingGlidesOn() {
        var m = wall()
        touch(&m, .down, y: 900, t: 0)
        touch(&m, .move, y: 880, t: 0.016)
        touch(&m, .move, y: 700, t: 0.032)
        #expect(m.position == 200, "the wall follows the finger pixel for pixel")
        var slow = wall()
        drag(&slow, up: 300, seconds: 2)
        #expect(!slow.isAnimating && slow.position == 300, "a slow release stays")
        var fast = wall()
        drag(&fast, up: 300, seconds: 0.1)  // about 3,000 px/s
        #expect(fast.isAnimating)
        fast.advance(to: 5)
        #expect(!fast.isAnimating)
        #expect(fast.position > 1500 && fast.position < 2000, "about 3000 × 0.5 s further: \(fast.position)")
    }

    @Test func theWallStopsAtItsEndsAndTheRubberBandReturns() {
        var m = wall()
        drag(&m, up: -400, seconds: 0.1)  // down, at the top already
        #expect(m.position < 0, "past the top the wall follows less: \(m.position)")
        m.advance(to: 2)
        #expect(m.position == 0 && !m.isAnimating)
        var end = wall(60)
        let bottom = end.layout.scrollRange.upperBound
        #expect(bottom > 0)
        drag(&end, up: 3000, seconds: 0.2)
        end.advance(to: 5)
        #expect(end.position == bottom)
    }

    @Test func aTapNamesTheTileUnderItAndAGutterNone() {
        var m = wall()
        let tile = m.layout.frames[7]
        touch(&m, .down, y: tile.midY, x: tile.midX, t: 1)
        touch(&m, .up, y: tile.midY, x: tile.midX, t: 1.1)
        #expect(m.takeEvents() == [ViewEvent(time: 1.1, kind: .tap(index: 7))])
        touch(&m, .down, y: tile.midY, x: tile.maxX + 5, t: 2)
        touch(&m, .up, y: tile.midY, x: tile.maxX + 5, t: 2.1)
        #expect(m.takeEvents().isEmpty, "the gutter beside a tile")
        // A tap that catches a glide stops it and opens nothing.
        drag(&m, up: 300, seconds: 0.1, at: 3)
        #expect(m.isAnimating)
        touch(&m, .down, y: 500, t: 3.3)
        touch(&m, .up, y: 500, t: 3.35)
        #expect(!m.isAnimating && m.takeEvents().isEmpty)
    }

    @Test func sizesArriveInOrderAndNothingPlacedMoves() {
        var m = Wall(itemCount: 100, viewport: Size(width: 1080, height: 1920))
        #expect(m.placedCount == 0 && m.visibleItems.isEmpty)
        m.sizesKnown([1.5, nil, 0.5])
        let first = m.layout.frames
        #expect(m.placedCount == 3 && m.visibleItems.map(\.item) == [0, 1, 2])
        m.sizesKnown(Array(repeating: 1, count: 200))
        #expect(m.placedCount == 100, "never more than the list holds")
        #expect(Array(m.layout.frames.prefix(3)) == first)
    }

    /// Rows of 258 px (248 and a gap) from y = 10: two screens below a 1080 px screen at the
    /// top need the wall whole down to 3240 px, 13 rows.
    @Test func theWallSaysWhenItKnowsEnoughBelowTheScreen() {
        #expect(!wall(1000, known: 60).isPlaced(screensBelow: 2), "12 rows reach 3106 px")
        #expect(wall(1000, known: 65).isPlaced(screensBelow: 2), "13 rows reach 3364 px")
        #expect(!wall(1000, known: 64).isPlaced(screensBelow: 2), "one column is a tile short")
        #expect(wall(1000, known: 65).isPlaced(screensBelow: 0.5))
        #expect(wall(40, known: 40).isPlaced(screensBelow: 2), "every item placed")
        var m = wall(1000, known: 65)
        m.handle(.step(.last, time: 0))
        m.advance(to: 5)
        #expect(m.position > 0)
        #expect(!m.isPlaced(screensBelow: 2), "scrolled down, more is needed")
    }

    @Test func keysAndTheWheelScrollBySteps() {
        var m = wall()
        m.handle(.scroll(2, time: 0))
        m.advance(to: 1)
        #expect(m.position == 240)
        m.handle(.step(.nextPage, time: 2))
        m.advance(to: 3)
        #expect(m.position == 240 + 1080 * 0.9)
        m.handle(.step(.last, time: 4))
        m.advance(to: 5)
        #expect(m.position == m.layout.scrollRange.upperBound)
        m.handle(.step(.first, time: 6))
        m.advance(to: 7)
        #expect(m.position == 0)
        m.handle(.scroll(-3, time: 8))
        m.advance(to: 9)
        #expect(m.position == 0, "clamped at the top")
    }

    @Test func aRotationKeepsTheTopTileAndTheColumnsFollowTheOrientation() {
        var m = wall()
        m.handle(.step(.by(50), time: 0))
        m.advance(to: 1)
        let top = m.topItem!
        let was = m.layout.frames[top], share = (m.position - was.minY) / was.size.height
        m.handle(.resize(Size(width: 1080, height: 1920), time: 2))
        #expect((m.layout as? any ColumnTiles)?.columns == 3)
        #expect(m.layout.visibleItems(at: m.position).contains(top))
        let now = m.layout.frames[top]
        #expect(abs((m.position - now.minY) / now.size.height - share) < 1e-9, "as much of it above the top edge as before")
    }

    @Test func slotsAreExactlyTheTilesOnScreenHoweverLongTheWall() {
        var m = wall(10_000)
        var most = 0
        for i in 0..<400 {
            m.handle(.scroll(3, time: Double(i)))
            m.advance(to: Double(i) + 0.5)
            let shown = m.layout.visibleItems(at: m.position)
            #expect(Set(m.visibleItems.map(\.item)) == Set(shown), "every tile on screen has a slot")
            most = max(most, shown.count)
            _ = m.takeSlotChanges()
        }
        #expect(m.slotCount == most, "no more textures than tiles ever on screen at once: \(m.slotCount)")
        #expect(m.slotCount < 40)
    }

    @Test func loadingGoesFromTheScreenAheadOfTheMotion() {
        var m = wall()
        m.handle(.step(.by(40), time: 0))
        m.advance(to: 1)
        let order = m.loadOrder()
        let screen = Set(m.layout.visibleItems(at: m.position))
        #expect(Set(order.prefix(screen.count)) == screen, "what is on screen first")
        let next = order[screen.count]
        #expect(m.layout.frames[next].minY >= m.position + 1080 - 258, "then below, the way it moved")
        #expect(order.allSatisfy { m.layout.frames[$0].maxY > m.position - 1080 && m.layout.frames[$0].minY < m.position + 3 * 1080 })
    }

    /// A fling's stand-ins (the files' embedded thumbnails) are read for the screen now,
    /// then the screen it will stop on, then the tiles it passes, nearest first; at rest, as
    /// the tiles' own decodes. Never more than asked for.
    @Test func aFlingsStandInsGoFromTheScreenToWhereItStopsThenAlongTheWay() {
        var m = wall()
        drag(&m, up: 1500, seconds: 0.1)  // a fling of about 15,000 px/s
        #expect(m.isAnimating)
        let end = try! #require(m.animationTarget)
        #expect(end > m.position + 3 * 1080, "it will stop screens away")
        let order = m.previewOrder(limit: 1000)
        let now = m.layout.visibleItems(at: m.position), there = m.layout.visibleItems(at: end)
        #expect(Set(order.prefix(now.count)) == Set(now), "the screen now first")
        #expect(Set(order.dropFirst(now.count).prefix(Set(there).subtracting(now).count)) == Set(there).subtracting(now), "then where it stops")
        let path = Array(order.dropFirst(Set(now).union(there).count))
        #expect(!path.isEmpty && path.allSatisfy { m.layout.frames[$0].maxY > m.position + 1080 - 1 && m.layout.frames[$0].minY < end + 1 })
        #expect(zip(path, path.dropFirst()).allSatisfy { m.layout.frames[$0.0].minY <= m.layout.frames[$0.1].minY }, "nearest first")
        #expect(m.previewOrder(limit: 12).count == 12)
        m.advance(to: 30)
        #expect(!m.isAnimating && m.previewOrder(limit: 1000) == m.loadOrder(), "at rest: the tiles' own order")
    }

    @Test func aNewListKeepsTheWallAndTheTopTileWhereTheyWere() {
        var m = wall(100)
        m.handle(.step(.by(10), time: 0))
        m.advance(to: 1)
        let frames = m.layout.frames, position = m.position, top = m.topItem!
        // Two photos added at the end: nothing placed moves, the screen stays.
        m.replaceItems(count: 102, known: Array(repeating: 2.0 / 3, count: 102), keeping: (top, top))
        #expect(Array(m.layout.frames.prefix(100)) == frames && m.position == position)
        // One added at the start: every tile moves, the one at the top keeps its place on screen.
        let was = m.layout.frames[top]
        m.replaceItems(count: 103, known: [1.5] + Array(repeating: 2.0 / 3, count: 102), keeping: (top, top + 1))
        let now = m.layout.frames[top + 1]
        #expect(abs((m.position - now.minY) / now.size.height - (position - was.minY) / was.size.height) < 1e-9)
        // Sizes not yet known: the wall holds what is, and grows as they come.
        m.replaceItems(count: 103, known: Array(repeating: 2.0 / 3, count: 20), keeping: nil)
        #expect(m.placedCount == 20 && m.position <= m.layout.scrollRange.upperBound)
    }

    @Test func autoplayScrollsTheWallSlowlyPausesOnATouchAndStartsOverFromTheEnd() {
        var settings = WallSettings()
        settings.attract.autoplayInterval = 3
        settings.attract.idleResume = 10
        var m = Wall(itemCount: 40, viewport: Size(width: 1920, height: 1080), settings: settings)
        m.sizesKnown(Array(repeating: 2.0 / 3, count: 40))
        #expect(m.nextScheduledTime == 3)
        m.advance(to: 3.75)
        #expect(m.isAnimating && m.position > 0 && m.position < 360, "halfway through a slow third of a screen")
        m.advance(to: 4.5)
        #expect(m.position == 360 && !m.isAnimating)
        #expect(m.nextScheduledTime == 6, "one interval after the last scroll began, as the carousel steps")
        // A touch pauses it: the next scroll comes idleResume + interval after the input.
        touch(&m, .down, y: 500, t: 5)
        touch(&m, .up, y: 500, t: 5.1)
        #expect(m.nextScheduledTime == 18.1)
        m.advance(to: 18)
        #expect(m.position == 360)
        // Left alone it reaches the end, then goes back to the top.
        let end = m.layout.scrollRange.upperBound
        m.advance(to: 200)
        #expect(m.position == 0 || m.position == end || (m.position > 0 && m.position < end))
        var reachedEnd = false, restarted = false
        for t in stride(from: 200.0, through: 400, by: 0.5) {
            m.advance(to: t)
            if m.position == end { reachedEnd = true }
            if reachedEnd && m.position == 0 { restarted = true; break }
        }
        #expect(reachedEnd && restarted)
        // Without an interval, nothing moves by itself.
        var still = wall(40)
        still.advance(to: 100)
        #expect(still.position == 0 && still.nextScheduledTime == nil)
    }
}
