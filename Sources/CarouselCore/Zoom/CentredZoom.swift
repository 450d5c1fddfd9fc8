/// The zoom a view may own (the carousel does, the walls do not): the centred picture's
/// scale and offset, and the fingers on it. The shared engine consults it through
/// `ViewEngine.centredZoom`, so a view without one carries nothing of it.
public struct CentredZoom: Sendable {
    /// The centred picture's scale, offset and their animations.
    public var pan: ZoomPan
    /// The pointers down on the view and what they are doing (strip, pinch, pan).
    var fingers = PinchTracker()

    public init(pan: ZoomPan) {
        self.pan = pan
    }
}
