/// Everything that tunes a wall (the mosaic or the grid), with its defaults.
public struct WallSettings: Hashable, Sendable {
    /// Where the tiles go: the mosaic's waterfall or the grid (a tiled `ViewKind`).
    public var kind = ViewKind.mosaic
    /// Columns in a portrait and in a landscape viewport (seed 003: 3 and 5).
    public var portraitColumns = 3
    public var landscapeColumns = 5
    /// Pixels between tiles and around the wall.
    public var gap = 10.0
    public var gestures = GestureSettings()
    public var physics = FrictionScrolling()
    /// Pixels one wheel notch scrolls.
    public var wheelStep = 120.0
    /// A page key scrolls this share of the viewport's height (the rest stays in view).
    public var pageFraction = 0.9
    /// Seconds a wheel notch, a page key or Home and End take to scroll.
    public var stepDuration = 0.300
    /// Autoplay: every `autoplayInterval` seconds the wall scrolls `autoplayFraction` of the
    /// screen down, over `autoplayDuration`, and from the end back to the top; a touch
    /// pauses it for `idleResume` seconds. Off without an interval. With an idle home the
    /// wall scrolls back to its top; the program gives it none (its --idle-home takes an
    /// opened carousel back to the wall: see `SceneChoice`).
    public var attract = AttractSettings()
    public var autoplayFraction = 1.0 / 3
    public var autoplayDuration = 1.5

    public init() {}
}
