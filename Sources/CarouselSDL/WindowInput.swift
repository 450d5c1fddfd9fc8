import CarouselCore

/// What an SDL event says, in the window's terms: a pointer, a wheel, a key, the window, a
/// wake-up from another thread. What it means to the program (a step, going back, a
/// reload) is the app's to say.
public enum WindowInput: Equatable, Sendable {
    case pointer(PointerEvent)
    /// The wheel or a touchpad: forward positive, in notches.
    case scroll(Double, time: Double)
    /// The wheel turned with Ctrl held (how a touchpad's pinch arrives too): up positive, in
    /// notches, with the pointer's place.
    case zoomWheel(Double, at: Point, time: Double)
    case key(KeyPress)
    /// The window manager asked to close the window (its close button, Alt+F4).
    case windowClosed
    /// The display server (a Wayland compositor) closed its connection: nothing more can
    /// show. SDL says so with SDL_QUIT, which it no longer sends for a window closed
    /// (SDLSession). Under X11, Xlib ends the process itself.
    case displayLost
    /// The window's drawable size changed (resize, rotation, full screen, a display change).
    case resized
    /// The renderer lost its textures; they must be made and filled again.
    case renderReset
    /// The window needs drawing again (exposed, restored).
    case redraw
    /// Another thread woke the loop (`EventQueue.post`) with this code.
    case wake(Int32)
}

/// A key pressed: which, with which modifiers held, when (seconds).
public struct KeyPress: Equatable, Sendable {
    /// The keys the program gives a meaning to; nil for any other.
    public enum Name: Equatable, Sendable {
        case left, right, up, down, home, end, pageUp, pageDown, space, escape, backspace, f11, f, q, plus, minus
        /// Return, the keypad's Enter and a remote's OK: opens the picture in focus on a wall.
        case enter
        /// K (as in web video players) and a keyboard's or remote's Play/Pause key.
        case k, playPause
        /// J and L (as in web video players) and a keyboard's or remote's rewind and
        /// fast-forward keys: the clip 10 s back or on.
        case j, l, rewind, fastForward
    }

    public var name: Name?
    /// SDL's keycode (a printable key is its lower-case character), for `KeyCombo`.
    public var keycode: Int32
    public var modifiers: KeyCombo.Modifiers
    public var time: Double

    public init(name: Name?, keycode: Int32, modifiers: KeyCombo.Modifiers = [], time: Double) {
        self.name = name
        self.keycode = keycode
        self.modifiers = modifiers
        self.time = time
    }
}
