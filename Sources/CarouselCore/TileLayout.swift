/// A layout of tiles in columns, scrolled vertically, shaped like a collection view's: the
/// items in a rectangle, the frame of an item, the content's bounds and the item at a point,
/// all in content coordinates (pixels from the content's top-left corner). Items are placed
/// in item order as their sizes become known and never move once placed. The mosaic's
/// waterfall (`MosaicLayout`) and the uniform grid (`GridLayout`) implement it; `Wall`, the
/// engine of every tiled view, its slots, painter and hit testing go through it.
public protocol TileLayout: ItemLayout {
    /// `columns`: for portrait and for landscape viewports, chosen by the viewport's
    /// orientation (a square one counts as landscape); `gap`: pixels between tiles and
    /// around them.
    init(viewport: Size, columns: (portrait: Int, landscape: Int), gap: Double)
    /// Its columns: their count, width, gap and margins.
    var grid: TileColumns { get }
    /// Each placed item's frame, in item order.
    var frames: [Rect] { get }
    /// Down to the lowest tile and a gap below it, across the viewport's width.
    var contentBounds: Rect { get }
    /// How far down every column reaches: the content is whole above this line.
    var wholeDownTo: Double { get }
    /// The box a picture is fitted into (then cropped to its tile) so that it covers a tile
    /// of this layout in the common shapes without being scaled up.
    var pictureBox: Size { get }
    /// Places the next item (index `count`): `aspect` = its height / width, nil when its
    /// header could not be read.
    mutating func append(aspect: Double?)
    /// Items whose frames overlap `rect`, in item order.
    func items(in rect: Rect) -> [Int]
    /// The item whose frame contains `point`; nil in a gutter or below the last tile.
    func item(at point: Point) -> Int?
}

extension TileLayout {
    public var count: Int { frames.count }
    public var columns: Int { grid.count }
    public var gap: Double { grid.gap }
    public var columnWidth: Double { grid.width }
    /// The left edge of the first column's gap.
    public var left: Double { grid.left }

    /// The content's height: down to the lowest tile, and a gap below it.
    public var contentHeight: Double { contentBounds.size.height }

    /// The scroll positions that exist: from the top to where the content's bottom meets
    /// the viewport's (0 when it is shorter than the viewport).
    public var scrollRange: ClosedRange<Double> { 0...max(0, contentHeight - viewport.height) }

    /// Items whose tiles overlap the content between `top` and `bottom`, in item order.
    public func items(from top: Double, to bottom: Double) -> [Int] {
        items(in: Rect(x: 0, y: top, width: viewport.width, height: bottom - top))
    }

    /// The items on screen when the content is scrolled to `position`.
    public func visibleItems(at position: Double) -> [Int] {
        items(from: position, to: position + viewport.height)
    }

    /// Where the content must be scrolled for the tile of `item` to keep the same place on
    /// screen it has in `old` at `position` (its offset inside the tile kept in proportion),
    /// clamped to the scroll range: how a resize or rotation keeps the top tile in place.
    /// `oldItem`: the item's index in `old`, when a new list moved it.
    public func position(keeping item: Int, was oldItem: Int? = nil, from old: any TileLayout, at position: Double) -> Double {
        let oldItem = oldItem ?? item
        guard frames.indices.contains(item), old.frames.indices.contains(oldItem) else {
            return min(max(position, scrollRange.lowerBound), scrollRange.upperBound)
        }
        let was = old.frames[oldItem], now = frames[item]
        let fraction = was.size.height > 0 ? (position - was.minY) / was.size.height : 0
        let p = now.minY + fraction * now.size.height
        return min(max(p, scrollRange.lowerBound), scrollRange.upperBound)
    }

    // MARK: ItemLayout

    /// From the first to the last item on screen; the items between them that are off
    /// screen (a column runs ahead of another) are in the range too, drawn off screen.
    public func visibleRange(at position: Double) -> ClosedRange<Int>? {
        let items = visibleItems(at: position)
        guard let first = items.first, let last = items.last else { return nil }
        return first...last
    }

    public func frame(ofVirtualIndex virtualIndex: Int, at position: Double) -> Rect {
        guard frames.indices.contains(virtualIndex) else { return Rect(x: 0, y: 0, width: 0, height: 0) }
        var f = frames[virtualIndex]
        f.origin.y -= position
        return f
    }

    public func virtualIndex(at point: Point, position: Double) -> Int? {
        item(at: Point(x: point.x, y: point.y + position))
    }

    /// Tiles have no focus: every one is drawn alike.
    public func focusDistance(of frame: Rect) -> Double { 0 }
}
