import CarouselControl
import CarouselCore
import CarouselSDL

/// What an input means to the program: input for the view's engine, or a request to the app
/// (`InputMapper` makes them from the window's input and the wake-ups of other threads).
public enum AppInput: Equatable, Sendable {
    case view(ViewInput)
    case toggleFullscreen
    /// K or Play/Pause: pauses the show and the clip playing, or lets them go on (what the
    /// remote's pause and play do).
    case togglePause
    /// J, L, a remote's rewind or fast-forward key, or a remote `seek`: the clip in focus moves.
    case seekClip(ClipSeek)
    /// A quit key, SIGTERM or SIGINT: leave with status 0.
    case quit
    /// Escape or Backspace in a view opened from another (the carousel opened from the
    /// wall): back to that one.
    case back
    /// The window manager asked to close the window (its close button, Alt+F4).
    case windowClosed
    /// The display server closed its connection: leave (a service manager starts the
    /// program again with its compositor).
    case displayLost
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
    /// Requests of the control API or MQTT are waiting in its inbox.
    case control
    /// A remote `screen`: on or off until the opening hours next change.
    case screen(on: Bool)
    /// A remote `view`: the wall, or the carousel opened over it.
    case showView(ViewKind)
    /// A remote `brightness`, 0 to 1.
    case brightness(Double)
    /// A presence sensor (`--presence-key`, `--presence-topic`, a remote `presence`):
    /// someone there or not.
    case presence(Bool)
    /// The TV said something over HDMI-CEC: its remote's keys, its standby (`CECAdapter.take`).
    case television
    /// A presence sensor's key said something (`PresenceKeyReader.take`).
    case presenceKey
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
