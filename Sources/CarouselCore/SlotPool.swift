/// One slot's new assignment: the renderer reloads this slot's texture with `item`.
public struct SlotAssignment: Hashable, Sendable {
    /// The slot, 0..<slotCount: one texture in the renderer.
    public var slot: Int
    /// The virtual index the slot now shows (see `StripLayout`).
    public var virtualIndex: Int
    /// The item the slot now shows: the virtual index modulo the item count.
    public var item: Int
}

/// The slots of any view: each wanted virtual index gets a slot, one that stays keeps its
/// slot, the slots of those no longer wanted are reused. The renderer holds one texture per
/// slot, so the count of textures is the pool's size whatever the number of images.
///
/// The strip's pool is fixed (seed 000: `ceil(W / stride) + 2` slots, recycled from one
/// end of the strip to the other) and covers a window of consecutive virtual indices that
/// moves only as far as it must to hold what is required (the visible items and the centred
/// item's two neighbours). A wall's pool grows (`growing`) to the most tiles ever wanted at
/// once, whatever their indices.
public struct SlotPool: Hashable, Sendable {
    /// Virtual index shown by each slot; nil while a slot is unused.
    public private(set) var slots: [Int?]
    /// Whether it makes a slot when every one is taken (else what does not fit waits).
    public let grows: Bool
    /// The virtual indices covered by the strip's window, nil before the first `cover(_:within:itemCount:)`.
    public private(set) var window: ClosedRange<Int>?

    /// A pool of `slotCount` slots, never more.
    public init(slotCount: Int) {
        self.slots = Array(repeating: nil, count: max(1, slotCount))
        self.grows = false
    }

    /// An empty pool that grows as more items are wanted at once than ever before.
    public static var growing: SlotPool { SlotPool() }

    private init() {
        self.slots = []
        self.grows = true
    }

    public var slotCount: Int { slots.count }

    /// The slot showing `virtualIndex`, nil when none does.
    public func slot(forVirtualIndex virtualIndex: Int) -> Int? {
        slots.firstIndex(of: virtualIndex)
    }

    /// Gives every virtual index of `wanted` (in the order given) a slot, keeping those that
    /// have one and freeing the slots of the rest; `item` names the item a virtual index
    /// shows. Returns the slots that changed item, in slot order.
    public mutating func cover(_ wanted: [Int], item: (Int) -> Int) -> [SlotAssignment] {
        let want = Set(wanted)
        for s in slots.indices where slots[s].map({ !want.contains($0) }) ?? false { slots[s] = nil }
        var have = Set(slots.compactMap { $0 })
        var free = slots.indices.filter { slots[$0] == nil }[...]
        var changes: [SlotAssignment] = []
        for v in wanted where !have.contains(v) {
            let s: Int
            if let f = free.popFirst() { s = f } else if grows { slots.append(nil); s = slots.count - 1 } else { break }
            slots[s] = v
            have.insert(v)
            changes.append(SlotAssignment(slot: s, virtualIndex: v, item: item(v)))
        }
        return changes.sorted { $0.slot < $1.slot }
    }

    /// The strip's rule: moves the window the least needed to contain `required`, staying
    /// inside `bounds` (the valid virtual indices when the strip does not wrap; nil for an
    /// endless strip), and returns the slots that changed item, in slot order.
    public mutating func cover(_ required: ClosedRange<Int>, within bounds: ClosedRange<Int>?,
                               itemCount: Int) -> [SlotAssignment] {
        let size = bounds.map { min(slotCount, $0.count) } ?? slotCount
        guard size > 0, itemCount > 0 else { return clear() }

        var lo = window.map { $0.count == size ? $0.lowerBound : required.lowerBound } ?? required.lowerBound
        if required.lowerBound < lo { lo = required.lowerBound }
        if required.upperBound > lo + size - 1 { lo = required.upperBound - size + 1 }
        if let b = bounds { lo = min(max(lo, b.lowerBound), b.upperBound - size + 1) }
        let newWindow = lo...(lo + size - 1)
        window = newWindow
        return cover(Array(newWindow)) { Self.wrap($0, itemCount) }
    }

    /// Empties every slot (no items to show), keeping the count (the textures stay).
    @discardableResult
    public mutating func clear() -> [SlotAssignment] {
        slots = Array(repeating: nil, count: slotCount)
        window = nil
        return []
    }

    /// `v` modulo `count`, always in 0..<count.
    static func wrap(_ v: Int, _ count: Int) -> Int {
        let r = v % count
        return r < 0 ? r + count : r
    }
}

extension SlotPool {
    /// The items of `layout` that overlap its viewport at `position` and that the pool
    /// holds, in index order, with their boxes and focus distances: what a painter draws.
    /// `bounds`: the virtual indices that exist (nil when they wrap).
    public func visibleItems(in layout: some ItemLayout, at position: Double, bounds: ClosedRange<Int>?,
                             itemCount: Int) -> [VisibleItem] {
        guard itemCount > 0 else { return [] }
        let onScreen = layout.visibleItems(at: position)
        return onScreen.compactMap { v in
            if let bounds, !bounds.contains(v) { return nil }
            guard let slot = slot(forVirtualIndex: v) else { return nil }
            let frame = layout.frame(ofVirtualIndex: v, at: position)
            return VisibleItem(item: Self.wrap(v, itemCount), virtualIndex: v, slot: slot,
                               frame: frame, focusDistance: layout.focusDistance(of: frame))
        }
    }
}
