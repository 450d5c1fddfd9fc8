/// A wall: tiles placed by a tile layout (the mosaic's waterfall or the grid, by
/// `ViewKind.tileLayouts`), with friction, over the shared engine (`ViewEngine`), scrolling
/// vertically, fed inputs and times, giving the scroll position (pixels from the wall's top), the visible tiles with their slots, and events (a tap names
/// the tile). Sizes come in item order as their headers are read; the wall grows and no
/// tile already placed moves. No clock and no I/O: `time` is always an argument.
public struct Wall: ViewEngine {
    public private(set) var settings: WallSettings
    public private(set) var layout: any TileLayout
    /// Items in the list; those whose size is known so far are placed (`layout.count`).
    public private(set) var itemCount: Int
    /// The wall's motion (in pixels from its top), gestures, autoplay, queues.
    public var core: EngineCore
    /// The sizes known so far, in item order: height / width, nil for an unreadable header.
    private var aspects: [Double?] = []
    private var pool = SlotPool.growing

    public init(itemCount: Int, viewport: Size, settings: WallSettings = WallSettings(), time: Double = 0) {
        self.settings = settings
        self.itemCount = max(0, itemCount)
        self.layout = Self.layout(viewport, settings)
        self.core = EngineCore(scroller: Scroller(position: 0, unit: 1, bounds: 0...0, viewportLength: viewport.height),
                               gestures: GestureTracker(settings: settings.gestures, axis: .vertical),
                               attract: AttractSchedule(settings: settings.attract, time: time), time: time)
    }

    private static func layout(_ viewport: Size, _ s: WallSettings) -> any TileLayout {
        s.kind.tileLayout(viewport: viewport, columns: (s.portraitColumns, s.landscapeColumns), gap: s.gap)
    }

    // MARK: - State

    /// Autoplay scrolls only a wall taller than the screen.
    public var canMoveByItself: Bool { layout.scrollRange.upperBound > 0 }
    /// The items whose sizes are known and placed.
    public var placedCount: Int { layout.count }
    public var slotCount: Int { pool.slotCount }

    /// The tiles overlapping the viewport, in item order, with their slots and boxes.
    public var visibleItems: [VisibleItem] {
        layout.visibleItems(at: position).compactMap { i in
            guard let slot = pool.slot(forVirtualIndex: i) else { return nil }
            return VisibleItem(item: i, virtualIndex: i, slot: slot, frame: layout.frame(ofVirtualIndex: i, at: position))
        }
    }

    /// The tile nearest the top of the screen: what a resize keeps in place;
    /// nil on an empty wall.
    public var topItem: Int? {
        layout.visibleItems(at: position).min { a, b in
            (layout.frames[a].minY, a) < (layout.frames[b].minY, b)
        }
    }

    /// Items whose pixels should be ready, most urgent first: those on screen (top to
    /// bottom), then up to `ahead` screens in the direction of motion (down when it has not
    /// moved yet) and `behind` screens the other way, nearest first. Nothing else is kept.
    public func loadOrder(ahead: Double = 2, behind: Double = 1) -> [Int] {
        let h = layout.viewport.height, p = position
        let down = direction >= 0
        let onScreen = layout.visibleItems(at: p)
        let below = layout.items(from: p + h, to: p + h + (down ? ahead : behind) * h)
        let above = layout.items(from: p - (down ? behind : ahead) * h, to: p)
        func byTop(_ items: [Int]) -> [Int] { items.sorted { (layout.frames[$0].minY, $0) < (layout.frames[$1].minY, $1) } }
        var order = byTop(onScreen)
        let after = byTop(below), before = byTop(above).reversed()
        order += down ? after + before : Array(before) + after
        var seen = Set<Int>()
        return order.filter { seen.insert($0).inserted }
    }

    /// Where the motion under way will stop; nil at rest or under a finger.
    public var animationTarget: Double? { core.scroller.animation?.target }

    /// The tiles whose small stand-ins (a file's embedded thumbnail) should be read first:
    /// those on screen (top to bottom), then, in a fling or a scroll, the screen where it will
    /// stop (seen longest), then the tiles it passes on the way, nearest first; at most
    /// `limit`. At rest: the screen and `loadOrder`'s reach, as the tiles' own decodes.
    public func previewOrder(limit: Int) -> [Int] {
        let h = layout.viewport.height, p = position
        guard let end = animationTarget, abs(end - p) > h / 2 else { return Array(loadOrder().prefix(limit)) }
        func byTop(_ items: [Int]) -> [Int] { items.sorted { (layout.frames[$0].minY, $0) < (layout.frames[$1].minY, $1) } }
        var order = byTop(layout.visibleItems(at: p)) + byTop(layout.visibleItems(at: end))
        let path = end > p ? byTop(layout.items(from: p + h, to: end)) : byTop(layout.items(from: end + h, to: p)).reversed()
        order += path
        var seen = Set<Int>()
        return Array(order.filter { seen.insert($0).inserted }.prefix(limit))
    }

    /// Whether the wall is placed `screens` screens below the viewport (or every item is):
    /// the sizes of later items are not needed yet.
    public func isPlaced(screensBelow screens: Double) -> Bool {
        aspects.count >= itemCount || layout.wholeDownTo >= position + layout.viewport.height * (1 + screens)
    }

    // MARK: - Inputs

    /// Sizes of the next items in item order (height / width, nil when unreadable): they
    /// are placed below what is there, and nothing placed moves.
    public mutating func sizesKnown(_ next: [Double?]) {
        let room = max(0, itemCount - aspects.count)
        for a in next.prefix(room) {
            aspects.append(a)
            layout.append(aspect: a)
        }
        core.scroller.bounds = layout.scrollRange
        updatePool()
    }

    /// Autoplay: a slow scroll down by a share of the screen, or from the end back to the top.
    public mutating func perform(_ due: AttractSchedule.Due, time t: Double) {
        let r = layout.scrollRange
        let atEnd = position >= r.upperBound
        let target = atEnd ? r.lowerBound : min(position + layout.viewport.height * settings.autoplayFraction, r.upperBound)
        guard target != position else { return }
        core.scroller.animate(SettleAnimation(from: position, to: target, velocity: 0, time: t,
                                              fixedDuration: atEnd ? settings.attract.returnDuration : settings.autoplayDuration))
    }

    /// The wall says nothing when it comes to rest.
    public mutating func cameToRest(time: Double) {}

    /// A new list: `count` items, the sizes known so far kept for those that stayed (the
    /// caller passes the sizes again in `known`). The wall is rebuilt and scrolled to keep
    /// the item at the top of the screen where it was (`keeping`: its index before and now),
    /// or clamped. Apply it at rest.
    public mutating func replaceItems(count: Int, known: [Double?], keeping item: (old: Int, new: Int)?) {
        let old = layout
        let was = position
        itemCount = max(0, count)
        aspects = []
        layout = Self.layout(layout.viewport, settings)
        pool.clear()
        sizesKnown(known)
        let p = item.map { layout.position(keeping: $0.new, was: $0.old, from: old, at: was) } ?? min(was, layout.scrollRange.upperBound)
        core.scroller.jump(to: p)
        updatePool()
    }

    /// Scrolls at once, if needed, so that the tile of `item` is wholly on screen (or its
    /// top is, for a tile taller than the screen): the wall on return from the carousel.
    public mutating func reveal(_ item: Int) {
        guard let p = position(revealing: item) else { return }
        moving { $0.jump(to: p) }
    }

    /// Where the wall is once the tile of `item` is wholly on screen, moving as little as
    /// it can; nil for an item that is not there.
    private func position(revealing item: Int) -> Double? {
        guard layout.frames.indices.contains(item) else { return nil }
        let f = layout.frames[item], h = layout.viewport.height, g = max(0, settings.gap)
        var p = position
        if f.minY - g < p { p = f.minY - g } else if f.maxY + g > p + h { p = min(f.minY - g, f.maxY + g - h) }
        let r = layout.scrollRange
        return min(max(p, r.lowerBound), r.upperBound)
    }

    // MARK: - Gestures and keys

    public var viewport: Size { layout.viewport }

    /// A fling glides on with friction.
    public mutating func release(travel: Double, velocity: Double, time t: Double) {
        let physics = settings.physics
        moving { _ = $0.release(travel: travel, velocity: velocity, time: t, physics: physics) }
    }

    /// A tap that stops a glide only stops it; otherwise it names the tile.
    public mutating func tap(at point: Point, time t: Double) {
        let caught = core.scroller.pressCaughtMotion
        core.scroller.stop()
        if !caught, let i = layout.virtualIndex(at: point, position: position) {
            core.events.append(ViewEvent(time: t, kind: .tap(index: i)))
        }
        returnIntoBounds(time: t)
    }

    public mutating func pressEnded(time t: Double) {
        core.scroller.stop()
        returnIntoBounds(time: t)
    }

    public mutating func step(_ s: Step, time t: Double) {
        guard !core.gestures.isActive else { return }
        let page = layout.viewport.height * settings.pageFraction
        switch s {
        case .next: scroll(by: settings.wheelStep, time: t)
        case .previous: scroll(by: -settings.wheelStep, time: t)
        case .by(let n): scroll(by: Double(n) * settings.wheelStep, time: t)
        case .nextPage: scroll(by: page, time: t)
        case .previousPage: scroll(by: -page, time: t)
        case .first: scroll(to: layout.scrollRange.lowerBound, time: t)
        case .last: scroll(to: layout.scrollRange.upperBound, time: t)
        case .item(let i):
            let last = layout.frames.count - 1
            if last >= 0, let p = position(revealing: min(max(i, 0), last)) { scroll(to: p, time: t) }
        }
    }

    public mutating func scroll(notches: Double, time t: Double) {
        scroll(by: notches * settings.wheelStep, time: t)
    }

    /// Scrolls by `distance` px from where the wall is going, clamped to the wall.
    private mutating func scroll(by distance: Double, time t: Double) {
        guard !core.gestures.isActive else { return }
        scroll(to: (core.scroller.animation?.target ?? position) + distance, time: t)
    }

    private mutating func scroll(to target: Double, time t: Double) {
        let r = layout.scrollRange
        let end = min(max(target, r.lowerBound), r.upperBound)
        guard end != position else { core.scroller.stop(); return }
        core.scroller.animate(SettleAnimation(from: position, to: end, velocity: core.scroller.velocity(at: t), time: t,
                                              fixedDuration: settings.stepDuration))
    }

    /// After a press that ended without a release, a wall left in the rubber band returns.
    private mutating func returnIntoBounds(time t: Double) {
        let r = layout.scrollRange
        if !r.contains(position) { scroll(to: position, time: t) }
    }

    public mutating func resize(to size: Size, time: Double) {
        let old = layout
        let top = topItem
        let was = position
        layout = Self.layout(size, settings)
        for a in aspects { layout.append(aspect: a) }
        core.scroller.bounds = layout.scrollRange
        core.scroller.setUnit(1, viewportLength: size.height)
        let p = top.map { layout.position(keeping: $0, from: old, at: was) } ?? 0
        if case .tracking = core.scroller.motion {} else { core.scroller.jump(to: p) }
        updatePool()
    }

    // MARK: - Slots

    /// Slots for exactly the tiles on screen.
    public mutating func updatePool() {
        core.merge(pool.cover(layout.visibleItems(at: position)) { $0 })
    }
}
