/// Resistance when the strip is dragged past its first or last item: the further the
/// overscroll, the less the strip follows the finger, never beyond one viewport width.
/// UIScrollView's curve: shown = (x · c · d) / (d + c · x), c = 0.55, d = the viewport width.
public enum RubberBand {
    /// Initial fraction of finger motion the strip follows past an end.
    public static let coefficient = 0.55

    /// The displayed overscroll for a raw overscroll `x` (both ≥ 0, px) in a viewport `d` px wide.
    public static func damped(_ x: Double, dimension d: Double) -> Double {
        guard x > 0, d > 0 else { return max(0, x) }
        return (x * coefficient * d) / (d + coefficient * x)
    }

    /// The raw overscroll that shows as `y`: the inverse of `damped`, x = y · d / (c · (d − y)).
    public static func undamped(_ y: Double, dimension d: Double) -> Double {
        guard y > 0, d > 0 else { return max(0, y) }
        let shown = min(y, coefficient * d * 0.999)
        return shown * d / (coefficient * (d - shown))
    }
}
