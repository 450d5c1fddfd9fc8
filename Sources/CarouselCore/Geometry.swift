/// A point in viewport pixels, origin at the top-left corner, y growing downwards.
public struct Point: Hashable, Sendable {
    public var x: Double
    public var y: Double
    public init(x: Double, y: Double) { self.x = x; self.y = y }
}

/// A width and height in pixels.
public struct Size: Hashable, Sendable {
    public var width: Double
    public var height: Double
    public init(width: Double, height: Double) { self.width = width; self.height = height }

    /// True when either side is zero or negative: nothing can be drawn into it.
    public var isEmpty: Bool { width <= 0 || height <= 0 }
}

/// An axis-aligned rectangle in viewport pixels.
public struct Rect: Hashable, Sendable {
    public var origin: Point
    public var size: Size

    public init(x: Double, y: Double, width: Double, height: Double) {
        origin = Point(x: x, y: y)
        size = Size(width: width, height: height)
    }

    public var minX: Double { origin.x }
    public var minY: Double { origin.y }
    public var maxX: Double { origin.x + size.width }
    public var maxY: Double { origin.y + size.height }
    public var midX: Double { origin.x + size.width / 2 }
    public var midY: Double { origin.y + size.height / 2 }

    /// True when the point lies inside, the left and top edges included.
    public func contains(_ p: Point) -> Bool {
        p.x >= minX && p.x < maxX && p.y >= minY && p.y < maxY
    }

    /// True when `other` lies wholly inside (edges may touch), to a hundredth of a pixel.
    public func covers(_ other: Rect) -> Bool {
        minX <= other.minX + 0.01 && minY <= other.minY + 0.01 && maxX >= other.maxX - 0.01 && maxY >= other.maxY - 0.01
    }

    /// The area both share; empty (zero size) when they do not meet.
    public func intersection(_ other: Rect) -> Rect {
        let x0 = max(minX, other.minX), y0 = max(minY, other.minY)
        let x1 = min(maxX, other.maxX), y1 = min(maxY, other.maxY)
        return Rect(x: x0, y: y0, width: max(0, x1 - x0), height: max(0, y1 - y0))
    }

    /// What of this rectangle lies outside `hole`: up to four bands (above, below, left,
    /// right of it), none thinner than half a pixel; this whole rectangle when they do not meet.
    public func around(_ hole: Rect) -> [Rect] {
        let h = hole.intersection(self)
        guard h.size.width > 0, h.size.height > 0 else { return [self] }
        return [Rect(x: minX, y: minY, width: size.width, height: h.minY - minY),
                Rect(x: minX, y: h.maxY, width: size.width, height: maxY - h.maxY),
                Rect(x: minX, y: h.minY, width: h.minX - minX, height: h.size.height),
                Rect(x: h.maxX, y: h.minY, width: maxX - h.maxX, height: h.size.height)]
            .filter { $0.size.width >= 0.5 && $0.size.height >= 0.5 }
    }

    /// True when the two rectangles share an area larger than zero.
    public func intersects(_ other: Rect) -> Bool {
        minX < other.maxX && other.minX < maxX && minY < other.maxY && other.minY < maxY
    }
}

/// The direction a view scrolls in: the carousel's strip is horizontal, the mosaic's wall
/// vertical. Drags along the other axis belong to someone else.
public enum Axis: Hashable, Sendable {
    case horizontal, vertical

    /// The other axis.
    public var other: Axis { self == .horizontal ? .vertical : .horizontal }
}

extension Point {
    /// The coordinate along `axis`: x for horizontal, y for vertical.
    public func along(_ axis: Axis) -> Double { axis == .horizontal ? x : y }
}

extension Size {
    /// The extent along `axis`: the width for horizontal, the height for vertical.
    public func along(_ axis: Axis) -> Double { axis == .horizontal ? width : height }
}
