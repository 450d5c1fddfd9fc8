/// Slots for a view whose visible items are not one run of indices (the mosaic's columns):
/// each item wanted gets a slot, an item that stays keeps its slot, the slots of items no
/// longer wanted are reused, and the pool grows only when more items are wanted at once
/// than ever before. The renderer holds one texture per slot, so the count of textures is
/// the most tiles ever wanted at one time, whatever the number of pictures.
public struct TilePool: Hashable, Sendable {
    /// The item each slot shows; nil while free.
    public private(set) var slots: [Int?] = []

    public init() {}

    public var slotCount: Int { slots.count }

    public func slot(forItem item: Int) -> Int? { slots.firstIndex(of: item) }

    /// Gives every item of `wanted` a slot, keeping those that have one; returns the slots
    /// that changed item, in slot order.
    public mutating func cover(_ wanted: [Int]) -> [SlotAssignment] {
        let want = Set(wanted)
        for s in slots.indices where slots[s].map({ !want.contains($0) }) ?? false { slots[s] = nil }
        var have = Set(slots.compactMap { $0 })
        var free = slots.indices.filter { slots[$0] == nil }[...]
        var changes: [SlotAssignment] = []
        for item in wanted where !have.contains(item) {
            let s: Int
            if let f = free.popFirst() { s = f } else { slots.append(nil); s = slots.count - 1 }
            slots[s] = item
            have.insert(item)
            changes.append(SlotAssignment(slot: s, virtualIndex: item, item: item))
        }
        return changes.sorted { $0.slot < $1.slot }
    }

    /// Frees every slot, keeping the count (the textures stay).
    public mutating func clear() {
        slots = Array(repeating: nil, count: slots.count)
    }
}
