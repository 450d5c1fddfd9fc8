/// Something a view did that the outside world may act on; the app and
/// `carousel render` write these to the event log.
public struct ViewEvent: Hashable, Sendable {
    public enum Kind: Hashable, Sendable {
        /// The slot pool was built or rebuilt (start, resize).
        case pool(PoolInfo)
        case release(ReleaseRecord)
        /// Motion came to rest with this item centred (also when it did not change).
        case settled(index: Int)
        /// A tap landed on this item.
        case tap(index: Int)
        /// The centred item was tapped while at rest.
        case activate(index: Int)
        /// Attract mode started moving the strip from one item to another.
        case attract(AttractAction, from: Int, to: Int)
        /// The centred picture came to rest at this scale (1: fit) after a zoom or a pan.
        case zoom(index: Int, scale: Double)
    }

    /// Seconds on the caller's clock when it happened.
    public var time: Double
    public var kind: Kind

    public init(time: Double, kind: Kind) {
        self.time = time
        self.kind = kind
    }
}

/// The geometry a slot pool was built for.
public struct PoolInfo: Hashable, Sendable {
    public var slots: Int
    public var itemSize: Size
    public var gap: Double
    public var viewport: Size
}

/// An item on screen: which item, which slot holds its texture, where its box is, and how
/// far it is from the view's focus (`ItemLayout.focusDistance`), for neighbour emphasis.
public struct VisibleItem: Hashable, Sendable {
    public var item: Int
    public var virtualIndex: Int
    public var slot: Int
    public var frame: Rect
    public var focusDistance: Double
    /// Only this part of the picture is shown, filling its place (fractions 0–1 of the
    /// picture; Ken Burns); nil: all of it.
    public var crop: Rect? = nil

    public init(item: Int, virtualIndex: Int, slot: Int, frame: Rect, focusDistance: Double = 0) {
        self.item = item
        self.virtualIndex = virtualIndex
        self.slot = slot
        self.frame = frame
        self.focusDistance = focusDistance
    }
}
