/// The carousel: the strip layout with page snapping over the shared engine
/// (`ViewEngine`), fed inputs and times, giving the position (the fractional item index at
/// the centre of the viewport, a virtual index when wrapping), the visible items with their
/// slots, and events. No clock and no I/O: `time` is always an argument.
public struct Carousel: ViewEngine {
    public private(set) var settings: CarouselSettings
    public private(set) var layout: StripLayout
    public private(set) var itemCount: Int
    /// The strip's motion (in items: one unit is one stride), gestures, attract mode, queues.
    public var core: EngineCore
    /// The centred picture's zoom and the fingers on it (with `settings.zoom`).
    public var centredZoom: CentredZoom?

    private var physics: PageSnapping
    private var pool: SlotPool
    private var scrollAccumulator = 0.0
    /// Ken Burns: the item autoplay dwells on (virtual index) and the dwell's start and end.
    private var dwell: (virtualIndex: Int, start: Double, end: Double)?
    private var lastScrollTime = -Double.infinity

    public init(itemCount: Int, viewport: Size, settings: CarouselSettings = CarouselSettings(),
                startIndex: Int = 0, time: Double = 0) {
        self.settings = settings
        self.itemCount = max(0, itemCount)
        self.layout = StripLayout(viewport: viewport, spec: settings.layout)
        self.physics = PageSnapping(policy: settings.release)
        self.pool = SlotPool(slotCount: layout.slotCount)
        let scroller = Scroller(position: Double(min(max(startIndex, 0), max(self.itemCount - 1, 0))),
                                unit: layout.stride, bounds: nil, viewportLength: viewport.width)
        self.core = EngineCore(scroller: scroller, gestures: GestureTracker(settings: settings.gestures, axis: .horizontal),
                               attract: AttractSchedule(settings: settings.attract, time: time), time: time)
        core.scroller.bounds = itemBounds
        centredZoom = settings.zoom.map { CentredZoom(pan: ZoomPan(viewport: viewport, settings: $0)) }
        rebuildPool()
        startDwell(time: time)
    }

    // MARK: - State

    public var canMoveByItself: Bool { itemCount > 1 }

    /// The item nearest the centre; nil when there are no items.
    public var currentIndex: Int? {
        guard itemCount > 0 else { return nil }
        return item(forVirtualIndex: clampedVirtual(Int(position.rounded())))
    }

    public var slotCount: Int { pool.slotCount }

    /// The slot holding a virtual index, if the pool covers it.
    public func slot(forVirtualIndex v: Int) -> Int? { pool.slot(forVirtualIndex: v) }

    /// The virtual indices the slot pool holds; nil when there are no items.
    public var coveredRange: ClosedRange<Int>? { pool.window }

    /// The range of virtual indices that exist: nil when the strip wraps.
    public var bounds: ClosedRange<Int>? {
        settings.wrap ? nil : 0...max(itemCount - 1, 0)
    }

    /// Every item overlapping the viewport, left to right, with its slot and box; a zoomed
    /// picture's box grown and moved by its zoom, and last, so that it is drawn over the rest.
    public var visibleItems: [VisibleItem] {
        var items = pool.visibleItems(in: layout, at: position, bounds: bounds, itemCount: itemCount)
        if let k = kenBurns, let i = items.firstIndex(where: { $0.virtualIndex == k.virtualIndex }) {
            items[i].crop = KenBurns.crop(progress: k.progress, item: items[i].item)
        }
        guard let zoom = zoomPan, let v = zoom.target?.virtualIndex, zoom.isZoomed,
              let i = items.firstIndex(where: { $0.virtualIndex == v }) else { return items }
        var zoomed = items[i]
        // The zoom is about the item at rest; the strip's own motion (a drag handed on at the
        // picture's edge) moves it as it is, unscaled.
        let rest = layout.frame(ofVirtualIndex: v, at: Double(v))
        let mapped = zoom.map(rest)
        zoomed.frame = Rect(x: mapped.minX + zoomed.frame.minX - rest.minX, y: mapped.minY + zoomed.frame.minY - rest.minY,
                            width: mapped.size.width, height: mapped.size.height)
        var out = items
        out.remove(at: i)
        out.append(zoomed)
        return out
    }

    /// The centred picture can be zoomed: which it is and where it sits at fit (the scene
    /// knows once the picture is loaded); nil while there is none.
    public mutating func showZoomable(_ target: ZoomPan.Target?) {
        zoomPan?.show(target)
    }

    /// The item shown at a virtual index.
    public func item(forVirtualIndex v: Int) -> Int {
        itemCount > 0 ? SlotPool.wrap(v, itemCount) : 0
    }

    // MARK: - Inputs

    /// A new list of items (files added, removed or replaced), with `index` in the centre:
    /// where the centred item went, so that it stays in place. Any motion stops; the pool
    /// is rebuilt, so every slot is filled again. Apply it at rest: it jumps.
    public mutating func replaceItems(count: Int, centredOn index: Int, time t: Double) {
        advance(to: t)
        itemCount = max(0, count)
        core.scroller.bounds = itemBounds
        core.scroller.jump(to: Double(min(max(index, 0), max(itemCount - 1, 0))))
        core.movedSinceRest = false
        zoomPan?.show(nil)
        rebuildPool()
    }

    // MARK: - Gestures

    public var viewport: Size { layout.viewport }

    public mutating func pressEnded(time t: Double) {
        settle(to: Int(position.rounded()), velocity: 0, time: t)
    }

    public mutating func release(travel: Double, velocity: Double, time t: Double) {
        guard itemCount > 0 else { core.scroller.stop(); return }
        let pressed = core.scroller.pressPosition
        guard let landing = core.scroller.release(travel: travel, velocity: velocity, time: t, physics: physics) else { return }
        let record = ReleaseRecord(
            decision: landing.decision ?? .realign,
            from: item(forVirtualIndex: clampedVirtual(Int(pressed.rounded()))),
            to: item(forVirtualIndex: Int(landing.animation.target)), velocity: velocity, travel: travel)
        core.events.append(ViewEvent(time: t, kind: .release(record)))
        if landing.isStill { cameToRest(time: t) }
    }

    public mutating func tap(at point: Point, time t: Double) {
        guard case .tracking = core.scroller.motion else { return }
        let caught = core.scroller.pressCaughtMotion
        guard itemCount > 0,
              let v = layout.virtualIndex(at: point, position: position),
              settings.wrap || (0..<itemCount).contains(v)
        else {
            settle(to: Int(position.rounded()), velocity: 0, time: t)
            return
        }
        let item = item(forVirtualIndex: v)
        core.events.append(ViewEvent(time: t, kind: .tap(index: item)))
        if !caught && Double(v) == position {
            core.events.append(ViewEvent(time: t, kind: .activate(index: item)))
        }
        settle(to: v, velocity: 0, time: t)
    }

    // MARK: - Attract mode

    /// The screen comes back on (opening hours) at `t`: attract mode starts afresh, as at
    /// start, instead of catching up on every step it would have made while off.
    public mutating func restartAttract(at t: Double) {
        core.attract = AttractSchedule(settings: settings.attract, time: t)
        advance(to: t)
    }

    /// The item autoplay's next step goes to from the item at rest (the next, or the first
    /// again at the end of a strip that does not wrap); nil when autoplay is not playing or
    /// there is nowhere to go. A clip there can be made ready before the show moves on.
    public var autoplayNext: Int? {
        guard core.attract.isPlaying, itemCount > 1, let here = currentIndex else { return nil }
        if settings.wrap { return item(forVirtualIndex: Int(position.rounded()) + 1) }
        return here < itemCount - 1 ? here + 1 : 0
    }

    /// When autoplay's next step is due, a clip holding the show letting go at `holdEnd`
    /// (nil: not known); nil when autoplay is paused or off, or the idle-home slide comes first.
    public func autoplayDue(holdEnd: Double?) -> Double? {
        core.attract.step(ifLetGoAt: holdEnd)
    }

    public mutating func perform(_ due: AttractSchedule.Due, time t: Double) {
        guard itemCount > 1, let here = currentIndex else { return }
        let base = Int(position.rounded())
        let first = base - here
        let action: AttractAction, target: Int, duration: Double?
        switch due {
        case .home:
            guard here != 0 else { return }
            (action, target, duration) = (.home, first, settings.attract.returnDuration)
        case .step where settings.wrap || here < itemCount - 1:
            (action, target, duration) = (.next, base + 1, nil)
        case .step:
            (action, target, duration) = (.rewind, first, settings.attract.returnDuration)
        }
        core.events.append(ViewEvent(time: t, kind: .attract(action, from: here, to: item(forVirtualIndex: target))))
        guard settings.transition == .slide else { return change(to: target, time: t) }
        core.scroller.animate(SettleAnimation(from: position, to: Double(target), velocity: 0, time: t, fixedDuration: duration))
    }

    /// Ken Burns on the item autoplay dwells on: how far through its dwell (1 while the strip
    /// moves on); nil when off, not playing, or once anyone touched the screen in the dwell.
    public var kenBurns: (virtualIndex: Int, progress: Double)? {
        guard let d = dwell, core.attract.lastInput <= d.start, core.attract.isPlaying, !isInteracting,
              zoomPan?.isZoomed != true, d.end > d.start else { return nil }
        return (d.virtualIndex, min(max((core.time - d.start) / (d.end - d.start), 0), 1))
    }

    /// Ken Burns moves the picture by itself: frames are drawn until the dwell ends.
    public var kenBurnsMoving: Bool {
        guard let d = dwell, let k = kenBurns else { return false }
        return k.progress < 1 && core.time < d.end
    }

    /// At rest with autoplay playing: the dwell until its next step starts.
    private mutating func startDwell(time t: Double) {
        dwell = nil
        // Only while autoplay runs: not in the pause after a touch (its next step is then
        // further than one interval away).
        guard settings.kenBurns, itemCount > 1, core.attract.isPlaying, let next = core.attract.next, next.due == .step,
              let interval = settings.attract.autoplayInterval, next.time - t <= interval + 1e-9 else { return }
        dwell = (Int(position.rounded()), t, next.time)
    }

    /// The crossfade under way: the outgoing and incoming items (virtual indices) and how
    /// far the incoming one has faded in.
    public var fade: (from: Int, to: Int, progress: Double)? {
        guard let f = core.scroller.animation as? FadeAnimation else { return nil }
        return (Int(f.start.rounded()), Int(f.target.rounded()), f.progress(at: core.time))
    }

    /// The incoming item of a crossfade, where it will rest (in the outgoing one's place),
    /// and how far it has faded in; nil when its slot is not in the pool.
    public var fadeIn: (item: VisibleItem, opacity: Double)? {
        guard let f = fade, let slot = pool.slot(forVirtualIndex: f.to) else { return nil }
        return (VisibleItem(item: item(forVirtualIndex: f.to), virtualIndex: f.to, slot: slot,
                            frame: layout.frame(ofVirtualIndex: f.to, at: Double(f.to))), f.progress)
    }

    /// Ends a crossfade at once on its incoming item (its picture is not decoded yet: it
    /// shows at once rather than fade in from a placeholder).
    public mutating func cutFade(time t: Double) {
        guard let f = core.scroller.animation as? FadeAnimation else { return }
        moving { $0.jump(to: f.target) }
        cameToRest(time: t)
    }

    /// To `target` by the transition set, other than sliding: a crossfade to a neighbour
    /// from rest, a cut otherwise.
    private mutating func change(to target: Int, time t: Double) {
        if case .fade(let seconds) = settings.transition, abs(Double(target) - position) == 1 {
            core.scroller.animate(FadeAnimation(from: position, to: Double(target), time: t, duration: seconds))
            return
        }
        moving { $0.jump(to: Double(target)) }
        cameToRest(time: t)
    }

    // MARK: - Steps and wheel

    public mutating func step(_ s: Step, time t: Double) {
        guard itemCount > 0, !core.gestures.isActive else { return }
        let base = Int((core.scroller.animation?.target ?? position).rounded())
        let here = item(forVirtualIndex: base)
        let target: Int
        switch s {
        case .next: target = base + 1
        case .previous: target = base - 1
        case .by(let n): target = base + n
        case .nextPage: target = base + pageSize
        case .previousPage: target = base - pageSize
        case .first: target = base - here
        case .last: target = base - here + itemCount - 1
        case .item(let i): target = base - here + min(max(i, 0), itemCount - 1)
        }
        let clamped = clampedVirtual(target)
        guard Double(clamped) != position || isAnimating else { return }
        guard settings.transition == .slide else { return change(to: clamped, time: t) }
        settle(to: clamped, velocity: currentVelocity, time: t)
    }

    /// Items one page step moves: as set, else the whole items the viewport shows but at
    /// least 5, so that PageDown does more than the arrow key in a one-up layout.
    public var pageSize: Int {
        settings.pageSize ?? max(5, Int(((layout.viewport.width + layout.gap) / layout.stride).rounded(.down)))
    }

    public mutating func scroll(notches delta: Double, time t: Double) {
        if t - lastScrollTime > settings.scrollResetInterval { scrollAccumulator = 0 }
        lastScrollTime = t
        scrollAccumulator += delta
        let whole = Int(scrollAccumulator < 0 ? scrollAccumulator.rounded(.up) : scrollAccumulator.rounded(.down))
        guard whole != 0 else { return }
        scrollAccumulator -= Double(whole)
        step(.by(whole), time: t)
    }

    // MARK: - Resize

    public mutating func resize(to size: Size, time t: Double) {
        layout = StripLayout(viewport: size, spec: settings.layout)
        // A finger still down keeps the strip where it is; later travel moves it at the new stride.
        core.scroller.setUnit(layout.stride, viewportLength: size.width)
        rebuildPool()
    }

    // MARK: - Motion

    private var currentVelocity: Double { core.scroller.velocity(at: core.time) }

    private mutating func settle(to target: Int, velocity: Double, time t: Double) {
        let target = clampedVirtual(target)
        if Double(target) == position && velocity == 0 {
            core.scroller.stop()
            cameToRest(time: t)
            return
        }
        core.scroller.animate(SettleAnimation(from: position, to: Double(target), velocity: velocity, time: t))
    }

    /// At rest after moving: `settled` names the centred item.
    public mutating func cameToRest(time t: Double) {
        // Rested on another picture: the one zoomed went back to fit as it left.
        if let v = zoomPan?.target?.virtualIndex, Double(v) != position { zoomPan?.show(nil) }
        startDwell(time: t)
        guard core.movedSinceRest, itemCount > 0 else { return }
        core.movedSinceRest = false
        core.events.append(ViewEvent(time: t, kind: .settled(index: item(forVirtualIndex: Int(position.rounded())))))
    }

    /// The positions that exist, for the rubber band: nil for a strip that wraps.
    private var itemBounds: ClosedRange<Double>? {
        settings.wrap ? nil : 0...Double(max(itemCount - 1, 0))
    }

    private func clampedVirtual(_ v: Int) -> Int {
        settings.wrap ? v : min(max(v, 0), max(itemCount - 1, 0))
    }

    // MARK: - Slot pool

    private mutating func rebuildPool() {
        pool = SlotPool(slotCount: layout.slotCount)
        core.events.append(ViewEvent(time: core.time, kind: .pool(PoolInfo(
            slots: pool.slotCount, itemSize: layout.itemSize, gap: layout.gap, viewport: layout.viewport))))
        core.slotChanges.removeAll()
        updatePool()
    }

    public mutating func updatePool() {
        guard itemCount > 0 else { pool.clear(); return }
        let centre = Int(position.rounded())
        var lo = centre - 1, hi = centre + 1
        if let r = layout.visibleRange(at: position) {
            lo = min(lo, r.lowerBound)
            hi = max(hi, r.upperBound)
        }
        if let b = bounds {
            lo = max(lo, b.lowerBound)
            hi = min(hi, b.upperBound)
            if lo > hi { lo = hi }
        }
        core.merge(pool.cover(lo...hi, within: bounds, itemCount: itemCount))
    }
}
