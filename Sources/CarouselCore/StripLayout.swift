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
}
