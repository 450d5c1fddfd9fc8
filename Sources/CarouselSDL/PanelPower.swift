import CLinux
import CSDL2

/// The panel itself off and on, through the display layer the program owns, instead of a
/// black picture with the backlight still burning. On KMS/DRM: the DPMS property of every
/// connected connector of the DRM device SDL drives (its session holds the DRM master, so
/// the kernel takes the change from it). Elsewhere the screen stays black, and `set` says why
/// in one line. Main thread.
public enum PanelPower {
    /// What happened: the panel was turned off or on, or why it was not (the picture is black
    /// instead).
    public enum Outcome: Equatable, Sendable {
        case done(connectors: Int)
        case unavailable(String)
    }

    public static func set(on: Bool, window: SDLWindow) -> Outcome {
        var subsystem: Int32 = -1
        let fd = kc_sdl_kmsdrm_fd(window.handle, &subsystem)
        guard subsystem >= 0 else {
            return .unavailable("the video driver gives no handle to the display (\(String(cString: SDL_GetError())))")
        }
        guard fd >= 0 else {
            return .unavailable("display power is switched only on KMS/DRM, not under \(name(subsystem))")
        }
        let result = kc_drm_set_dpms(fd, on ? 1 : 0)
        if result < 0 { return .unavailable("DPMS on the DRM connector failed: \(String(cString: strerror(-result)))") }
        if result == 0 { return .unavailable("no connected DRM connector has a DPMS property") }
        return .done(connectors: Int(result))
    }

    private static func name(_ subsystem: Int32) -> String {
        switch UInt32(subsystem) {
        case SDL_SYSWM_X11.rawValue: "X11"
        case SDL_SYSWM_WAYLAND.rawValue: "Wayland"
        default: "this video driver"
        }
    }
}
