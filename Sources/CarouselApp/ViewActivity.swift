/// What a view is doing, read once a pass by whatever drives it: whether to draw the next
/// frame at once, and how long it may sleep when it need not.
public struct ViewActivity: Equatable, Sendable {
    /// Moving by itself (a swipe's settle, a fling, a crossfade, Ken Burns): every frame is drawn.
    public var moving: Bool
    /// A pointer is down: frames follow the input.
    public var held: Bool
    /// When it next moves by itself while at rest (autoplay), nil for never: the loop sleeps until then.
    public var nextStep: Double?
    /// When the item in focus lets the show go (a clip that holds it ends), on the loop's
    /// clock; nil: it does not hold the show, or its end is not known yet. A group holds it
    /// until then (`ScreenGroup`).
    public var heldUntil: Double?

    public init(moving: Bool, held: Bool, nextStep: Double? = nil, heldUntil: Double? = nil) {
        self.moving = moving
        self.held = held
        self.nextStep = nextStep
        self.heldUntil = heldUntil
    }

    /// Neither moving nor held: what may change what is on screen (a new catalog, a broken
    /// picture left out) waits for this.
    public var resting: Bool { !moving && !held }
}
