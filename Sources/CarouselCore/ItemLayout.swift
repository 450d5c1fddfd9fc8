/// A view's layout, shaped like a collection view's: the items in a rectangle, the frame of
/// an item, the content's bounds and the item at a point, in content coordinates (pixels
/// from the content's origin), and where the viewport lies on the content at a scroll
/// position. The carousel's strip (`StripLayout`) and the walls' tile layouts (`TileLayout`:
/// the mosaic's and the grid's) implement it; the slot pool, the painter and hit testing go
/// through it, never through one layout's arithmetic. Items are virtual indices: a wrapping
/// strip repeats the items endlessly.
public protocol ItemLayout: Sendable {
    var viewport: Size { get }
    /// Virtual indices whose frames overlap `rect`, in index order (ignoring item bounds
    /// where the layout does not know them: the strip's caller clamps).
    func items(in rect: Rect) -> [Int]
    /// The frame of the item at `virtualIndex`.
    func frame(of virtualIndex: Int) -> Rect
    /// The content's extent; nil where the layout alone does not bound it (the strip: its
    /// item count and wrapping are the engine's).
    var contentBounds: Rect? { get }
    /// The virtual index whose frame contains `point`; nil in a gap or outside every frame.
    func item(at point: Point) -> Int?
    /// The content point at the viewport's top-left corner when scrolled to `position` (the
    /// strip's fractional item, a wall's pixels from its top).
    func contentOffset(at position: Double) -> Point
    /// How far a box is from the focus, in the layout's own measure: the carousel counts
    /// strides from the centre (signed, negative to the left), a wall without a focus 0.
    /// Neighbour emphasis grows with its magnitude, up to 1.
    func focusDistance(of frame: Rect) -> Double

    // In viewport coordinates at a scroll position; each layout may give its own exact
    // arithmetic (the strip does), else they come from the above.
    /// The virtual indices on screen at `position`, in index order.
    func visibleItems(at position: Double) -> [Int]
    /// The box of the item at `virtualIndex` on screen at `position`.
    func frame(ofVirtualIndex virtualIndex: Int, at position: Double) -> Rect
    /// The virtual index under the screen point `point` at `position`.
    func virtualIndex(at point: Point, position: Double) -> Int?
}

extension ItemLayout {
    public func visibleItems(at position: Double) -> [Int] {
        let o = contentOffset(at: position)
        return items(in: Rect(x: o.x, y: o.y, width: viewport.width, height: viewport.height))
    }

    public func frame(ofVirtualIndex virtualIndex: Int, at position: Double) -> Rect {
        var f = frame(of: virtualIndex)
        let o = contentOffset(at: position)
        f.origin = Point(x: f.origin.x - o.x, y: f.origin.y - o.y)
        return f
    }

    public func virtualIndex(at point: Point, position: Double) -> Int? {
        let o = contentOffset(at: position)
        return item(at: Point(x: point.x + o.x, y: point.y + o.y))
    }

    /// From the first to the last item on screen; for a wall the items between them that
    /// are off screen (a column runs ahead of another) are in the range too.
    public func visibleRange(at position: Double) -> ClosedRange<Int>? {
        let items = visibleItems(at: position)
        guard let first = items.first, let last = items.last else { return nil }
        return first...last
    }
}

extension StripLayout: ItemLayout {
    /// Item v's centre at v strides from the content's origin, the row centred vertically.
    public func frame(of virtualIndex: Int) -> Rect {
        Rect(x: Double(virtualIndex) * stride - itemSize.width / 2, y: (viewport.height - itemSize.height) / 2,
             width: itemSize.width, height: itemSize.height)
    }

    /// Endless: the item count and wrapping bound it, which the carousel knows.
    public var contentBounds: Rect? { nil }

    /// The viewport's centre on item `position`'s centre.
    public func contentOffset(at position: Double) -> Point {
        Point(x: position * stride - viewport.width / 2, y: 0)
    }

    public func items(in rect: Rect) -> [Int] {
        let row = frame(of: 0)
        guard rect.maxY > row.minY, rect.minY < row.maxY, rect.size.width > 0 else { return [] }
        // v·stride + w/2 > minX and v·stride − w/2 < maxX.
        let lo = Int(((rect.minX - itemSize.width / 2) / stride).rounded(.down)) + 1
        let hi = Int(((rect.maxX + itemSize.width / 2) / stride).rounded(.up)) - 1
        return lo <= hi ? Array(lo...hi) : []
    }

    public func item(at point: Point) -> Int? {
        let v = Int((point.x / stride).rounded())
        return frame(of: v).contains(point) ? v : nil
    }

    public func focusDistance(of frame: Rect) -> Double {
        stride > 0 ? (frame.midX - viewport.width / 2) / stride : 0
    }
}
