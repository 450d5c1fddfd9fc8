import CSDL2
import CSDL2Image
import CSDL2TTF

/// SDL initialised for video, events, image decoding and text, for as long as this lives.
/// Create one, on the main thread, before any window.
public final class SDLSession {
    /// The video driver SDL chose (x11, wayland, kmsdrm, offscreen, dummy…).
    public let videoDriver: String

    /// - Parameter videoDriver: force a driver (e.g. "dummy" for headless); nil lets SDL choose.
    public init(videoDriver requested: String? = nil) throws(SDLError) {
        if let d = requested { SDL_SetHint(SDL_HINT_VIDEODRIVER, d) }
        // Signals are ours: SignalWatcher for the window, default actions for render.
        SDL_SetHint(SDL_HINT_NO_SIGNAL_HANDLERS, "1")
        // Keep the compositor from being bypassed/unredirected and the screensaver decisions ours.
        SDL_SetHint(SDL_HINT_VIDEO_X11_NET_WM_BYPASS_COMPOSITOR, "0")
        guard SDL_Init(SDL_INIT_VIDEO | SDL_INIT_EVENTS) == 0 else { throw SDLError("SDL_Init") }
        videoDriver = SDL_GetCurrentVideoDriver().map { String(cString: $0) } ?? "unknown"
        _ = IMG_Init(Int32(IMG_INIT_JPG.rawValue | IMG_INIT_PNG.rawValue | IMG_INIT_WEBP.rawValue | IMG_INIT_TIF.rawValue))
        if TTF_Init() != 0 {
            let error = SDLError("TTF_Init")
            SDL_Quit()
            throw error
        }
    }

    /// Hides or shows the mouse pointer (a kiosk's touchscreen has no use for it).
    public func showCursor(_ on: Bool) {
        SDL_ShowCursor(on ? SDL_ENABLE : SDL_DISABLE)
    }

    /// Keeps the screen from blanking or a screensaver from starting while this runs.
    public func disableScreenSaver() {
        SDL_DisableScreenSaver()
    }

    deinit {
        TTF_Quit()
        IMG_Quit()
        SDL_Quit()
    }
}
