import CSDL2
import CSDL2Image
import CSDL2TTF
#if canImport(Glibc)
import Glibc
#endif

/// SDL initialised for video, events, image decoding and text, for as long as this lives.
/// Create one, on the main thread, before any window.
public final class SDLSession {
    /// The video driver SDL chose (x11, wayland, kmsdrm, offscreen, dummy…).
    public let videoDriver: String

    /// - Parameter videoDriver: force a driver (e.g. "dummy" for headless); nil lets SDL choose.
    public init(videoDriver requested: String? = nil) throws(SDLError) {
        if let d = requested { SDL_SetHint(SDL_HINT_VIDEODRIVER, d) }
        Self.restoreQuitSignals()
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

    /// SDL turns SIGTERM and SIGINT into a quit event, but only over the default
    /// disposition; a parent (a service manager, a test runner) may have left them ignored
    /// or blocked, and then SIGTERM would not stop the carousel. Reset both first.
    private static func restoreQuitSignals() {
        #if canImport(Glibc)
        signal(SIGTERM, SIG_DFL)
        signal(SIGINT, SIG_DFL)
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGTERM)
        sigaddset(&set, SIGINT)
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
        #endif
    }

    deinit {
        TTF_Quit()
        IMG_Quit()
        SDL_Quit()
    }
}
