/// Thresholds that turn pointer motion into taps and drags.
public struct GestureSettings: Hashable, Sendable {
    /// Movement in pixels, on either axis, below which a press is still a tap and the
    /// strip does not move yet. 8 px: Android's touch slop is 8 dp; smaller lets finger
    /// wobble start drags, larger makes short drags feel sticky.
    public var slop: Double = 8
    /// A press held this long (seconds) or longer is not a tap. 300 ms: Android's and
    /// Flutter's tap timeouts sit between 100 and 500 ms; 300 still accepts a deliberate tap.
    public var tapMaxDuration: Double = 0.300

    public init() {}
}
