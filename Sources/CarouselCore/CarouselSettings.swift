/// Everything that tunes one carousel, with documented defaults.
public struct CarouselSettings: Hashable, Sendable {
    public var layout: LayoutSpec = .centered
    /// An endless strip: after the last item comes the first again.
    public var wrap = false
    public var gestures = GestureSettings()
    public var release = ReleasePolicy()
    /// Items one page step moves; nil means as many whole items as the viewport shows, at least 5.
    public var pageSize: Int? = nil
    /// A wheel pause longer than this (seconds) drops a partly accumulated notch, so a
    /// leftover trackpad fraction never steps the strip by surprise later.
    public var scrollResetInterval = 0.5
    /// Autoplay and idle behaviour while nobody touches the screen.
    public var attract = AttractSettings()
    /// Pinch, double tap, the wheel with Ctrl and `+`/`-` zoom the centred picture; nil: they do not.
    public var zoom: ZoomSettings? = ZoomSettings()
    /// How steps and autoplay move to another item (drags and flings always slide).
    public var transition = Transition.slide
    /// While autoplay dwells on a picture, it slowly zooms and pans (`KenBurns`).
    public var kenBurns = false

    public init() {}
}
