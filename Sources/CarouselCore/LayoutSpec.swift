/// How big an item's box is and how far apart boxes sit, before a viewport is known.
///
/// The three presets are the three shapes the product takes:
/// - `centered`: a box narrower than the viewport with both neighbours partly showing (seed 000).
/// - `paged`: the box is the viewport and there is no gap, a full-screen pager (seeds 002, 004).
/// - `preview`: a page a little narrower than the viewport with slim previews at both sides (seed 001).
public struct LayoutSpec: Hashable, Sendable {
    public var itemWidth: Length
    public var itemHeight: Length
    public var gap: Length

    public init(itemWidth: Length, itemHeight: Length, gap: Length) {
        self.itemWidth = itemWidth
        self.itemHeight = itemHeight
        self.gap = gap
    }

    /// 60% wide, 80% high, 3% gap: about 17% of each neighbour shows on either side.
    public static let centered = LayoutSpec(itemWidth: .percent(60), itemHeight: .percent(80), gap: .percent(3))
    /// The whole viewport, edge to edge.
    public static let paged = LayoutSpec(itemWidth: .percent(100), itemHeight: .percent(100), gap: .pixels(0))
    /// 86% wide, full height, 2% gap: a 5%-wide preview strip on each side.
    public static let preview = LayoutSpec(itemWidth: .percent(86), itemHeight: .percent(100), gap: .percent(2))

    /// The preset with this name (`centered`, `paged`, `preview`), nil for an unknown name.
    public static func preset(named name: String) -> LayoutSpec? {
        switch name {
        case "centered": return .centered
        case "paged": return .paged
        case "preview": return .preview
        default: return nil
        }
    }

    /// Box and gap in pixels for a viewport. Widths and the gap are measured along the
    /// viewport's width, heights along its height. A box is at least one pixel on each side.
    public func resolved(for viewport: Size) -> (item: Size, gap: Double) {
        let w = max(1, itemWidth.resolved(against: viewport.width).rounded())
        let h = max(1, itemHeight.resolved(against: viewport.height).rounded())
        let g = max(0, gap.resolved(against: viewport.width).rounded())
        return (Size(width: w, height: h), g)
    }
}
