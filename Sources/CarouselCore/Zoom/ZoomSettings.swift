/// How the centred picture zooms: the scales a double tap, the wheel and the keys go to,
/// the longest zoom, and how quickly it animates.
public struct ZoomSettings: Hashable, Sendable {
    /// Where a double tap goes from fit: 2.5×, as phone galleries do (or the largest scale,
    /// when that is smaller).
    public var doubleTapScale = 2.5
    /// The largest scale is the picture's own pixels at 1:1 on the screen, but never less
    /// than this, so that a picture no larger than its slot still zooms.
    public var minimumMaxScale = 2.0
    /// One wheel notch with Ctrl zooms by this factor; `+` and `-` by `keyFactor`.
    public var wheelFactor = 1.25
    public var keyFactor = 1.5
    /// Seconds a double tap, a wheel step, a key step or a spring back to fit takes.
    public var duration = 0.300
    /// A second tap within this many seconds of the first ...
    public var doubleTapInterval = 0.300
    /// ... and this many pixels of it is a double tap.
    public var doubleTapDistance = 40.0
    public init() {}

    /// What a `+` (in) or `-` (out) key asks, about the screen's centre.
    public static func keyStep(in zoomIn: Bool, time: Double) -> ViewInput {
        let f = ZoomSettings().keyFactor
        return .zoom(by: zoomIn ? f : 1 / f, about: nil, time: time)
    }
}
