/// The carousel: one state machine fed inputs and times, giving the position, the visible
/// items with their slots, and events. No clock and no I/O: `time` is always an argument.
public struct Carousel: Sendable {
    public private(set) var settings: CarouselSettings
    public private(set) var layout: StripLayout
    public private(set) var itemCount: Int
    /// Fractional item index at the centre of the viewport (a virtual index when wrapping).
    public var position: Double { scroller.position }
    /// The latest time seen, seconds.
    public private(set) var time: Double
    /// Which way the strip last moved: +1 towards higher indices, -1 towards lower, 0 not yet.
    public private(set) var direction = 0

    /// The strip's motion, in items: one unit is one stride.
    private var scroller: Scroller
    private var physics: PageSnapping
    private var gestures: GestureTracker
    private var pool: SlotPool
    /// The strip moved since it last came to rest, so the next rest emits `settled`.
    private var movedSinceRest = false
    private var scrollAccumulator = 0.0
    private var lastScrollTime = -Double.infinity
    private var attract: AttractSchedule
    private var events: [ViewEvent] = []
    private var slotChanges: [SlotAssignment] = []

    public init(itemCount: Int, viewport: Size, settings: CarouselSettings = CarouselSettings(),
                startIndex: Int = 0, time: Double = 0) {
        self.settings = settings
        self.itemCount = max(0, itemCount)
        self.layout = StripLayout(viewport: viewport, spec: settings.layout)
        self.time = time
        self.gestures = GestureTracker(settings: settings.gestures, axis: .horizontal)
        self.physics = PageSnapping(policy: settings.release)
        self.pool = SlotPool(slotCount: layout.slotCount)
        self.attract = AttractSchedule(settings: settings.attract, time: time)
        self.scroller = Scroller(position: Double(min(max(startIndex, 0), max(self.itemCount - 1, 0))),
                                 unit: layout.stride, bounds: nil, viewportLength: viewport.width)
        scroller.bounds = itemBounds
        rebuildPool()
    }

    // MARK: - State

    /// True while the strip moves by itself; when false and no pointer is down the app may sleep.
    public var isAnimating: Bool { scroller.isAnimating }

    /// When attract mode will next move the strip by itself, if it is at rest: the app
    /// may sleep until then. Nil while moving, while a pointer is down, or with nothing planned.
    public var nextScheduledTime: Double? {
        guard case .resting = scroller.motion, !gestures.isActive, itemCount > 1 else { return nil }
        return attract.next.map { max($0.time, time) }
    }

    /// True while a pointer is down.
    public var isInteracting: Bool { gestures.isActive }

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

    /// Every item overlapping the viewport, left to right, with its slot and box.
    public var visibleItems: [VisibleItem] {
        pool.visibleItems(in: layout, at: position, bounds: bounds, itemCount: itemCount)
    }

    /// Events since the last call, oldest first.
    public mutating func takeEvents() -> [ViewEvent] {
        defer { events.removeAll() }
        return events
    }

    /// Slots given a new item since the last call: the renderer reloads exactly these.
    public mutating func takeSlotChanges() -> [SlotAssignment] {
        defer { slotChanges.removeAll() }
        return slotChanges
    }

    /// The item shown at a virtual index.
    public func item(forVirtualIndex v: Int) -> Int {
        itemCount > 0 ? SlotPool.wrap(v, itemCount) : 0
    }

    // MARK: - Inputs

    /// Runs animations up to `time`, then applies the input. Every input but a resize
    /// comes from a person, so it pauses autoplay and restarts the idle timers.
    public mutating func handle(_ input: ViewInput) {
        advance(to: input.time)
        let t = time
        switch input {
        case .pointer(let e):
            attract.noteInput(at: t)
            if let g = gestures.handle(e) { apply(g) }
        case .step(let s, _):
            attract.noteInput(at: t)
            step(s, time: t)
        case .scroll(let delta, _):
            attract.noteInput(at: t)
            scroll(delta, time: t)
        case .resize(let size, _):
            resize(to: size, time: t)
        }
    }

    /// Moves animations forward to `time` (earlier times are ignored). Whatever falls due
    /// on the way (a settle ending, an autoplay step) happens at its own time, not at
    /// `newTime`, so the result does not depend on how often this is called.
    public mutating func advance(to newTime: Double) {
        guard newTime > time else { return }
        while true {
            if let a = scroller.animation {
                guard a.isDone(at: newTime) else { break }
                time = max(time, a.endTime)
                moving { $0.finishIfDone(at: newTime) }
                comeToRest(time: a.endTime)
            } else if let due = nextScheduledTime, due <= newTime, let planned = attract.next {
                time = due
                performAttract(planned.due, time: due)
            } else {
                break
            }
        }
        time = newTime
        if scroller.isAnimating { moving { $0.follow(to: newTime) } }
    }

    /// A new list of items (files added, removed or replaced), with `index` in the centre:
    /// where the centred item went, so that it stays in place. Any motion stops; the pool
    /// is rebuilt, so every slot is filled again. Apply it at rest: it jumps.
    public mutating func replaceItems(count: Int, centredOn index: Int, time t: Double) {
        advance(to: t)
        itemCount = max(0, count)
        scroller.bounds = itemBounds
        scroller.jump(to: Double(min(max(index, 0), max(itemCount - 1, 0))))
        movedSinceRest = false
        rebuildPool()
    }

    // MARK: - Gestures

    private mutating func apply(_ g: GestureTracker.Gesture) {
        switch g {
        case .pressed:
            scroller.press()
        case .dragged(let travel, _):
            moving { $0.drag(travel: travel) }
        case .released(let travel, let velocity, let t):
            release(travel: travel, velocity: velocity, time: t)
        case .tapped(let point, let t):
            tap(at: point, time: t)
        case .ended(let t):
            settle(to: Int(position.rounded()), velocity: 0, time: t)
        }
    }

    private mutating func release(travel: Double, velocity: Double, time t: Double) {
        guard itemCount > 0 else { scroller.stop(); return }
        let pressed = scroller.pressPosition
        guard let landing = scroller.release(travel: travel, velocity: velocity, time: t, physics: physics) else { return }
        let record = ReleaseRecord(
            decision: landing.decision ?? .realign,
            from: item(forVirtualIndex: clampedVirtual(Int(pressed.rounded()))),
            to: item(forVirtualIndex: Int(landing.animation.target)), velocity: velocity, travel: travel)
        events.append(ViewEvent(time: t, kind: .release(record)))
        if landing.isStill { comeToRest(time: t) }
    }

    private mutating func tap(at point: Point, time t: Double) {
        guard case .tracking = scroller.motion else { return }
        let caught = scroller.pressCaughtMotion
        guard itemCount > 0,
              let v = layout.virtualIndex(at: point, position: position),
              settings.wrap || (0..<itemCount).contains(v)
        else {
            settle(to: Int(position.rounded()), velocity: 0, time: t)
            return
        }
        let item = item(forVirtualIndex: v)
        events.append(ViewEvent(time: t, kind: .tap(index: item)))
        if !caught && Double(v) == position {
            events.append(ViewEvent(time: t, kind: .activate(index: item)))
        }
        settle(to: v, velocity: 0, time: t)
    }

    // MARK: - Attract mode

    /// The screen comes back on (opening hours) at `t`: attract mode starts afresh, as at
    /// start, instead of catching up on every step it would have made while off.
    public mutating func restartAttract(at t: Double) {
        attract = AttractSchedule(settings: settings.attract, time: t)
        advance(to: t)
    }

    private mutating func performAttract(_ due: AttractSchedule.Due, time t: Double) {
        attract.performed(due, at: t)
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
        events.append(ViewEvent(time: t, kind: .attract(action, from: here, to: item(forVirtualIndex: target))))
        scroller.animate(SettleAnimation(from: position, to: Double(target), velocity: 0, time: t, fixedDuration: duration))
    }

    // MARK: - Steps and wheel

    private mutating func step(_ s: Step, time t: Double) {
        guard itemCount > 0, !gestures.isActive else { return }
        let base = Int((scroller.animation?.target ?? position).rounded())
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
        }
        let clamped = clampedVirtual(target)
        guard Double(clamped) != position || isAnimating else { return }
        settle(to: clamped, velocity: currentVelocity, time: t)
    }

    /// Items one page step moves: as set, else the whole items the viewport shows but at
    /// least 5, so that PageDown does more than the arrow key in a one-up layout.
    public var pageSize: Int {
        settings.pageSize ?? max(5, Int(((layout.viewport.width + layout.gap) / layout.stride).rounded(.down)))
    }

    private mutating func scroll(_ delta: Double, time t: Double) {
        if t - lastScrollTime > settings.scrollResetInterval { scrollAccumulator = 0 }
        lastScrollTime = t
        scrollAccumulator += delta
        let whole = Int(scrollAccumulator < 0 ? scrollAccumulator.rounded(.up) : scrollAccumulator.rounded(.down))
        guard whole != 0 else { return }
        scrollAccumulator -= Double(whole)
        step(.by(whole), time: t)
    }

    // MARK: - Resize

    private mutating func resize(to size: Size, time t: Double) {
        layout = StripLayout(viewport: size, spec: settings.layout)
        // A finger still down keeps the strip where it is; later travel moves it at the new stride.
        scroller.setUnit(layout.stride, viewportLength: size.width)
        rebuildPool()
    }

    // MARK: - Motion

    private var currentVelocity: Double { scroller.velocity(at: time) }

    private mutating func settle(to target: Int, velocity: Double, time t: Double) {
        let target = clampedVirtual(target)
        if Double(target) == position && velocity == 0 {
            scroller.stop()
            comeToRest(time: t)
            return
        }
        scroller.animate(SettleAnimation(from: position, to: Double(target), velocity: velocity, time: t))
    }

    private mutating func comeToRest(time t: Double) {
        guard movedSinceRest, itemCount > 0 else { return }
        movedSinceRest = false
        events.append(ViewEvent(time: t, kind: .settled(index: item(forVirtualIndex: Int(position.rounded())))))
    }

    /// Lets the scroller move the strip, then notes which way it went and refills the slots.
    private mutating func moving<R>(_ change: (inout Scroller) -> R) {
        let before = scroller.position
        _ = change(&scroller)
        let p = scroller.position
        if p != before {
            movedSinceRest = true
            direction = p > before ? 1 : -1
        }
        updatePool()
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
        events.append(ViewEvent(time: time, kind: .pool(PoolInfo(
            slots: pool.slotCount, itemSize: layout.itemSize, gap: layout.gap, viewport: layout.viewport))))
        slotChanges.removeAll()
        updatePool()
    }

    private mutating func updatePool() {
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
        let changes = pool.cover(lo...hi, within: bounds, itemCount: itemCount)
        mergeSlotChanges(changes)
    }

    private mutating func mergeSlotChanges(_ changes: [SlotAssignment]) {
        for c in changes {
            slotChanges.removeAll { $0.slot == c.slot }
            slotChanges.append(c)
        }
    }
}
