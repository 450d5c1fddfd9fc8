/// What a view's layout tells the parts every view shares: where the items are for a
/// scroll position, which one a point falls on, and how far an item is from the view's
/// focus. The carousel's strip (`StripLayout`) and the mosaic's wall implement it; the
/// slot pool, the painter and hit testing go through it, never through one layout's
/// arithmetic.
public protocol ItemLayout: Sendable {
    var viewport: Size { get }
    /// Virtual indices whose boxes overlap the viewport at `position`, in index order,
    /// ignoring item bounds (the caller clamps them); nil when none does.
    func visibleRange(at position: Double) -> ClosedRange<Int>?
    /// The box of the item at `virtualIndex` when the view is scrolled to `position`.
    func frame(ofVirtualIndex virtualIndex: Int, at position: Double) -> Rect
    /// The virtual index whose box contains `point`; nil in a gap or outside every box.
    func virtualIndex(at point: Point, position: Double) -> Int?
    /// How far a box is from the focus, in the layout's own measure: the carousel counts
    /// strides from the centre (signed, negative to the left), a wall without a focus 0.
    /// Neighbour emphasis grows with its magnitude, up to 1.
    func focusDistance(of frame: Rect) -> Double
}

extension StripLayout: ItemLayout {
    public func focusDistance(of frame: Rect) -> Double {
        stride > 0 ? (frame.midX - viewport.width / 2) / stride : 0
    }
}
