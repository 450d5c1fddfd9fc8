/// One slot's new assignment: the renderer reloads this slot's texture with `item`.
public struct SlotAssignment: Hashable, Sendable {
    /// The slot, 0..<slotCount: one texture in the renderer.
    public var slot: Int
    /// The virtual index the slot now shows (see `StripLayout`).
    public var virtualIndex: Int
    /// The item the slot now shows: the virtual index modulo the item count.
    public var item: Int
}

/// A fixed set of slots recycled from one end of the strip to the other (seed 000), so the
/// renderer holds `slotCount` textures whatever the number of images.
///
/// The pool covers a window of consecutive virtual indices. A slot keeps its item for as
/// long as that item stays in the window; the window moves only as far as it must to hold
/// what is required (the visible items and the centred item's two neighbours).
public struct SlotPool: Hashable, Sendable {
    public let slotCount: Int
    /// Virtual index shown by each slot; nil while a slot is unused.
    public private(set) var slots: [Int?]
    /// The virtual indices covered, nil before the first `cover`.
    public private(set) var window: ClosedRange<Int>?

    public init(slotCount: Int) {
        self.slotCount = max(1, slotCount)
        self.slots = Array(repeating: nil, count: max(1, slotCount))
    }

    /// The slot showing `virtualIndex`, nil when it is outside the window.
    public func slot(forVirtualIndex virtualIndex: Int) -> Int? {
        slots.firstIndex(of: virtualIndex)
    }

    /// Moves the window the least needed to contain `required`, staying inside `bounds`
    /// (the valid virtual indices when the strip does not wrap; nil for an endless strip),
    /// and returns the slots that changed item, in slot order.
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

        for s in slots.indices where slots[s].map({ !newWindow.contains($0) }) ?? false {
            slots[s] = nil
        }
        var changes: [SlotAssignment] = []
        var free = slots.indices.filter { slots[$0] == nil }[...]
        for v in newWindow where !slots.contains(v) {
            guard let s = free.popFirst() else { break }
            slots[s] = v
            changes.append(SlotAssignment(slot: s, virtualIndex: v, item: Self.wrap(v, itemCount)))
        }
        return changes.sorted { $0.slot < $1.slot }
    }

    /// Empties every slot (no items to show).
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
        guard itemCount > 0, var range = layout.visibleRange(at: position) else { return [] }
        if let b = bounds {
            let lo = max(range.lowerBound, b.lowerBound), hi = min(range.upperBound, b.upperBound)
            guard lo <= hi else { return [] }
            range = lo...hi
        }
        return range.compactMap { v in
            guard let slot = slot(forVirtualIndex: v) else { return nil }
            let frame = layout.frame(ofVirtualIndex: v, at: position)
            return VisibleItem(item: Self.wrap(v, itemCount), virtualIndex: v, slot: slot,
                               frame: frame, focusDistance: layout.focusDistance(of: frame))
        }
    }
}
