/// A wall's layout: tiles scrolled vertically (an `ItemLayout` whose scroll position is
/// pixels from the top). Items are placed in item order as their sizes become known and
/// never move once placed; each layout gives the items in a rectangle and the item at a
/// point. The mosaic's waterfall (`MosaicLayout`) and the uniform grid (`GridLayout`), both
/// in columns (`ColumnTiles`), implement it, made by `ViewKind.tileLayouts`; `Wall`, the
/// engine of every tiled view, its slots, painter and hit testing go through it.
public protocol TileLayout: ItemLayout {
    /// The width a tile shows at: what its thumbnail is chosen for.
    var tileWidth: Double { get }
    /// Each placed item's frame, in item order.
    var frames: [Rect] { get }
    /// Down to the lowest tile and a gap below it, across the viewport's width.
    var tileBounds: Rect { get }
    /// How far down every column reaches: the content is whole above this line.
    var wholeDownTo: Double { get }
    /// The box a picture is fitted into (then cropped to its tile) so that it covers a tile
    /// of this layout in the common shapes without being scaled up.
    var pictureBox: Size { get }
    /// Places the next item (index `count`): `aspect` = its height / width, nil when its
    /// header could not be read.
    mutating func append(aspect: Double?)
}

/// A tile layout in columns of one width (the mosaic's and the grid's).
public protocol ColumnTiles: TileLayout {
    /// Its columns: their count, width, gap and margins.
    var grid: TileColumns { get }
}

extension ColumnTiles {
    public var columns: Int { grid.count }
    public var gap: Double { grid.gap }
    public var columnWidth: Double { grid.width }
    /// The left edge of the first column's gap.
    public var left: Double { grid.left }
    public var tileWidth: Double { grid.width }
}

extension TileLayout {
    public var count: Int { frames.count }

    public var contentBounds: Rect? { tileBounds }

    /// The content's height: down to the lowest tile, and a gap below it.
    public var contentHeight: Double { tileBounds.size.height }

    /// A placed item's frame; an empty one for an item not placed.
    public func frame(of virtualIndex: Int) -> Rect {
        frames.indices.contains(virtualIndex) ? frames[virtualIndex] : Rect(x: 0, y: 0, width: 0, height: 0)
    }

    /// Scrolled `position` pixels down.
    public func contentOffset(at position: Double) -> Point { Point(x: 0, y: position) }

    /// The scroll positions that exist: from the top to where the content's bottom meets
    /// the viewport's (0 when it is shorter than the viewport).
    public var scrollRange: ClosedRange<Double> { 0...max(0, contentHeight - viewport.height) }

    /// Items whose tiles overlap the content between `top` and `bottom`, in item order.
    public func items(from top: Double, to bottom: Double) -> [Int] {
        items(in: Rect(x: 0, y: top, width: viewport.width, height: bottom - top))
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

    /// Tiles have no focus: every one is drawn alike.
    public func focusDistance(of frame: Rect) -> Double { 0 }
}
