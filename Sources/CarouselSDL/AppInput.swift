import CarouselCore

/// What an SDL event means to the app: input for the engine, or a request to the app.
public enum AppInput: Equatable, Sendable {
    case carousel(CarouselInput)
    case toggleFullscreen
    /// A quit key, SIGTERM or SIGINT: leave with status 0.
    case quit
    /// Escape or Backspace in a view opened from another (the carousel opened from the
    /// wall): back to that one.
    case back
    /// The window manager asked to close the window (its close button, Alt+F4).
    case windowClosed
    /// SIGHUP: read the configuration and the sources again.
    case reload
    /// A watched source folder changed: rescan it.
    case foldersChanged
    /// Memory pressure rose or eased.
    case memoryPressureChanged
    /// The window's drawable size changed (resize, rotation, full screen).
    case resized
    /// The renderer lost its textures; they must be made and filled again.
    case renderReset
    /// The window needs drawing again (exposed, restored).
    case redraw
}

/// Which keys do what beyond navigation.
public struct KeyBindings: Hashable, Sendable {
    /// Kiosk mode: Escape, q, F11 and f do nothing; only `quit` leaves.
    public var kiosk: Bool
    /// The combination that always quits; nil: none (a kiosk then stops only by signal).
    public var quit: KeyCombo?

    public init(kiosk: Bool = false, quit: KeyCombo? = KeyCombo(parsing: "ctrl+alt+q")) {
        self.kiosk = kiosk
        self.quit = quit
    }
}

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

    public init(window: Size, drawable: Size, origin: Point = Point(x: 0, y: 0),
                rotation: ScreenRotation = .none, touch: TouchTransform = []) {
        self.window = window
        self.drawable = drawable
        self.origin = origin
        self.rotation = rotation
        self.touch = touch
    }
}
