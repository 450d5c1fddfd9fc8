import CarouselCore

/// Sizes needed to turn SDL's coordinates into viewport pixels.
public struct InputGeometry: Equatable, Sendable {
    /// Window size in SDL's window coordinates (points on HiDPI screens).
    public var window: Size
    /// Drawable size in pixels: the viewport the engine lays out.
    public var drawable: Size
    /// The window's top-left corner on the display, for touch reported in display pixels.
    public var origin: Point
    /// How the picture is turned on the panel: points are turned back to the logical screen.
    public var rotation: ScreenRotation
    /// Corrections for touch axes that disagree with the display.
    public var touch: TouchTransform
    /// Where the logical screen lies on the view's canvas (a panel of a spanned wall,
    /// `--span`): points are moved there.
    public var canvasOrigin = Point(x: 0, y: 0)

    public init(window: Size, drawable: Size, origin: Point = Point(x: 0, y: 0),
                rotation: ScreenRotation = .none, touch: TouchTransform = []) {
        self.window = window
        self.drawable = drawable
        self.origin = origin
        self.rotation = rotation
        self.touch = touch
    }
}
