import CarouselDevices
import CSDL2
import Glibc
import CSDL2TTF

/// SDL initialised for video, events, image decoding and text, for as long as this lives.
/// Create one, on the main thread, before any window.
public final class SDLSession {
    /// The video driver SDL chose (x11, wayland, kmsdrm, offscreen, dummy…).
    public let videoDriver: String
    /// On KMS/DRM, how many input devices its own reader found at start (nil: SDL reads them).
    public let inputDevicesRead: Int?
    /// On X11, the server's devices followed, so that one plugged in later is known to SDL.
    private var x11Devices: X11InputDevices?
    /// Under Wayland: the devices named as they come and go (the compositor reads them).
    private var waylandDevices: EventDeviceReader?

    /// - Parameter videoDriver: force a driver (e.g. "dummy" for headless); nil: a driver
    ///   that shows something on a screen (SDL_VIDEODRIVER in the environment still wins).
    /// - Parameter inputLog: where the devices' reader says what it opened and lost (KMS/DRM).
    public init(videoDriver requested: String? = nil, inputLog: @escaping @Sendable (String) -> Void = { _ in }) throws(SDLError) {
        // Signals are the program's to handle (SDL installs no handlers of its own).
        SDL_SetHint(SDL_HINT_NO_SIGNAL_HANDLERS, "1")
        // A window closed is only that (a kiosk ignores it); SDL_QUIT then means the display
        // server went away (a Wayland compositor: a kiosk must end with it, not linger).
        SDL_SetHint(SDL_HINT_QUIT_ON_LAST_WINDOW_CLOSE, "0")
        // Keep the compositor from being bypassed/unredirected and the screensaver decisions ours.
        SDL_SetHint(SDL_HINT_VIDEO_X11_NET_WM_BYPASS_COMPOSITOR, "0")
        if let d = requested { SDL_SetHint(SDL_HINT_VIDEODRIVER, d) }
        let chosen = requested != nil || getenv("SDL_VIDEODRIVER").map { $0.pointee != 0 } == true
        if chosen {
            guard SDL_Init(SDL_INIT_VIDEO | SDL_INIT_EVENTS) == 0 else { throw SDLError("SDL_Init") }
        } else {
            try Self.startOnAScreen()
        }
        videoDriver = SDL_GetCurrentVideoDriver().map { String(cString: $0) } ?? "unknown"
        // On KMS/DRM the devices are read here (SDL 2.26's evdev reader misplaces an absolute
        // pointer, and its event wait polls every millisecond): EventDeviceReader.
        if videoDriver.lowercased() == "kmsdrm" {
            var mode = SDL_DisplayMode()
            let screen = SDL_GetDesktopDisplayMode(0, &mode) == 0 ? (Double(mode.w), Double(mode.h)) : (1920.0, 1080.0)
            inputDevicesRead = EventQueue.readInputDevices(screen: screen, log: inputLog)
        } else {
            inputDevicesRead = nil
        }
        if videoDriver.lowercased() == "x11" { x11Devices = X11InputDevices(log: inputLog) }
        if videoDriver.lowercased() == "wayland" {
            waylandDevices = EventDeviceReader(wake: -1, screen: (0, 0), reads: false, log: inputLog)
        }
        if TTF_Init() != 0 {
            let error = SDLError("TTF_Init")
            x11Devices?.stop()
            waylandDevices?.stop()
            SDL_Quit()
            throw error
        }
    }

    /// Left to itself, SDL falls back to its offscreen driver when no screen is reachable
    /// (no X11 or Wayland display, no KMS/DRM device): the program would run on, showing
    /// nothing to anyone. So only the drivers that draw on a screen are tried, in SDL's order.
    private static func startOnAScreen() throws(SDLError) {
        var tried: [String] = []
        for i in 0..<SDL_GetNumVideoDrivers() {
            guard let cName = SDL_GetVideoDriver(i) else { continue }
            let name = String(cString: cName)
            guard !["offscreen", "dummy", "evdev"].contains(name.lowercased()) else { continue }
            // Without a runtime folder libwayland cannot connect and prints its own error.
            if name == "wayland", !waylandReachable { continue }
            // Over an empty SDL_VIDEODRIVER in the environment, which a plain hint would not beat.
            SDL_SetHintWithPriority(SDL_HINT_VIDEODRIVER, name, SDL_HINT_OVERRIDE)
            tried.append(name)
            if SDL_Init(SDL_INIT_VIDEO | SDL_INIT_EVENTS) == 0 { return }
            SDL_Quit()
        }
        throw SDLError(call: "SDL_Init", message: tried.isEmpty ? "this SDL has no screen driver"
                       : "tried \(tried.joined(separator: ", ")): none found a screen")
    }

    private static var waylandReachable: Bool {
        let display = getenv("WAYLAND_DISPLAY").map { String(cString: $0) } ?? ""
        let runtime = getenv("XDG_RUNTIME_DIR").map { String(cString: $0) } ?? ""
        return display.hasPrefix("/") || !runtime.isEmpty
    }

    /// Whether SDL draws straight to the screen through KMS/DRM (no X11 or Wayland).
    public var drawsOnKMS: Bool { videoDriver.lowercased() == "kmsdrm" }

    /// How many displays (monitors) the video driver sees.
    public var displayCount: Int { max(0, Int(SDL_GetNumVideoDisplays())) }

    /// Hides or shows the mouse pointer (a kiosk's touchscreen has no use for it).
    public func showCursor(_ on: Bool) {
        SDL_ShowCursor(on ? SDL_ENABLE : SDL_DISABLE)
    }

    /// Keeps the screen from blanking or a screensaver from starting while this runs.
    public func disableScreenSaver() {
        SDL_DisableScreenSaver()
    }

    deinit {
        EventQueue.stopReadingInputDevices()
        x11Devices?.stop()
        waylandDevices?.stop()
        TTF_Quit()
        SDL_Quit()
    }
}
