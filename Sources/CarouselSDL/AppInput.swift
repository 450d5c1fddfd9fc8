import CarouselCore

/// What an SDL event means to the app: input for the engine, or a request to the app.
public enum AppInput: Equatable, Sendable {
    case carousel(CarouselInput)
    case toggleFullscreen
    case quit
    /// The window's drawable size changed (resize, rotation, full screen).
    case resized
    /// The renderer lost its textures; they must be made and filled again.
    case renderReset
    /// The window needs drawing again (exposed, restored).
    case redraw
}

/// Sizes needed to turn SDL's coordinates into viewport pixels.
public struct InputGeometry: Equatable, Sendable {
    /// Window size in SDL's window coordinates (points on HiDPI screens).
    public var window: Size
    /// Drawable size in pixels: the viewport the engine lays out.
    public var drawable: Size
    /// The window's top-left corner on the display, for touch reported in display pixels.
    public var origin: Point

    public init(window: Size, drawable: Size, origin: Point = Point(x: 0, y: 0)) {
        self.window = window
        self.drawable = drawable
        self.origin = origin
    }
}
