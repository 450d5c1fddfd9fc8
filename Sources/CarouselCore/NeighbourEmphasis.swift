/// How items beside the centre are drawn smaller and darker, so the eye goes to the centre.
/// Interpolated with the distance from the centre, so nothing jumps while the strip moves.
public struct NeighbourEmphasis: Hashable, Sendable {
    /// Size of an item one stride or more from the centre, as a fraction (1: as large).
    public var scale: Double = 1
    /// Darkening of an item one stride or more from the centre, 0 (none) to 1 (black).
    public var dim: Double = 0

    public init(scale: Double = 1, dim: Double = 0) {
        self.scale = scale
        self.dim = dim
    }

    /// Scale and darkening for an item `distance` strides from the centre (either side).
    public func factors(distance: Double) -> (scale: Double, dim: Double) {
        let t = min(1, abs(distance))
        return (1 - (1 - scale) * t, dim * t)
    }

    /// `frame` shrunk about its centre by the scale at `distance`.
    public func frame(_ frame: Rect, distance: Double) -> Rect {
        let s = factors(distance: distance).scale
        let w = frame.size.width * s, h = frame.size.height * s
        return Rect(x: frame.midX - w / 2, y: frame.midY - h / 2, width: w, height: h)
    }
}
