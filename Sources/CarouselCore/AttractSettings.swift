/// Attract mode: what the carousel does by itself while nobody touches it. All off by default.
public struct AttractSettings: Hashable, Sendable {
    /// Seconds between automatic steps to the next item; nil: no autoplay.
    public var autoplayInterval: Double? = nil
    /// Seconds without input after which a paused autoplay resumes. Its first step comes one
    /// interval after that, as if it had just started, so resuming never jumps at once.
    /// 30 s: long enough for a visitor reading a caption, short enough that a walk-away
    /// screen comes back to life before the next passer-by.
    public var idleResume: Double = 30
    /// Seconds without input after which the first item slides back to the centre; nil: never.
    public var idleHome: Double? = nil
    /// How long the slide back to the first item takes, seconds (autoplay's return from the
    /// last item, idle home): slower than a swipe so that it reads as "back to the start".
    public var returnDuration: Double = 0.9

    public init() {}
}

/// What attract mode did.
public enum AttractAction: String, Hashable, Sendable {
    /// Autoplay stepped to the next item.
    case next
    /// Autoplay, at the last item of a strip that does not wrap, slid back to the first.
    case rewind
    /// Nobody touched the screen for `idleHome` seconds: back to the first item.
    case home
}
