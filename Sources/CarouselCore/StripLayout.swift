/// Where every item sits for a given scroll position: the arithmetic of seed 000 made
/// continuous. Items are indexed by *virtual* index: with wrap on, virtual index k shows
/// item k mod count, so the strip is endless while every index stays a plain integer.
///
/// `position` is a fractional item index: 4.0 means item 4 rests exactly in the centre,
/// 4.5 means the strip is halfway between items 4 and 5.
public struct StripLayout: Hashable, Sendable {
    public var viewport: Size
    public var itemSize: Size
    public var gap: Double

    public init(viewport: Size, itemSize: Size, gap: Double) {
        self.viewport = viewport
        self.itemSize = itemSize
        self.gap = gap
    }

    public init(viewport: Size, spec: LayoutSpec) {
        let r = spec.resolved(for: viewport)
        self.init(viewport: viewport, itemSize: r.item, gap: r.gap)
    }

    /// Item width plus gap: the distance between two neighbours' centres, in pixels.
    public var stride: Double { max(1, itemSize.width + gap) }

    /// Seed 000's pool size: ceil(viewport width / stride) + 2. Enough slots to cover every
    /// visible item and the neighbours of the centred one, at any position.
    public var slotCount: Int {
        max(3, Int((max(0, viewport.width) / stride).rounded(.up)) + 2)
    }

    /// The box of the item at `virtualIndex` when the strip is at `position`.
    public func frame(ofVirtualIndex virtualIndex: Int, at position: Double) -> Rect {
        let centreX = viewport.width / 2 + (Double(virtualIndex) - position) * stride
        return Rect(x: centreX - itemSize.width / 2,
                    y: (viewport.height - itemSize.height) / 2,
                    width: itemSize.width, height: itemSize.height)
    }

    /// Virtual indices whose boxes overlap the viewport by more than zero pixels, ignoring
    /// item bounds (the caller clamps them when the strip does not wrap). May be empty when
    /// the viewport is narrower than the gap and sits between two boxes.
    public func visibleRange(at position: Double) -> ClosedRange<Int>? {
        // Item i overlaps when |i - position| * stride < (viewport.width + item.width) / 2.
        let reach = (viewport.width + itemSize.width) / (2 * stride)
        guard reach > 0 else { return nil }
        let lo = Int((position - reach).rounded(.down)) + 1
        let hi = Int((position + reach).rounded(.up)) - 1
        return lo <= hi ? lo...hi : nil
    }

    /// The virtual index whose box contains `point`, nil when the point is in a gap or
    /// beside the strip: how a tap finds its item.
    public func virtualIndex(at point: Point, position: Double) -> Int? {
        guard let range = visibleRange(at: position) else { return nil }
        return range.first { frame(ofVirtualIndex: $0, at: position).contains(point) }
    }
}
