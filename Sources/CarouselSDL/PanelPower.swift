import CLinux
import CSDL2

/// The panel itself off and on, through the display layer the program owns, instead of a
/// black picture with the backlight still burning. On KMS/DRM: the DPMS property of every
/// connected connector of the DRM device SDL drives (its session holds the DRM master, so
/// the kernel takes the change from it). On X11: the server's DPMS extension. Under Wayland
/// the compositor owns the outputs' power (no common protocol): the screen stays black, and
/// `set` says why in one line, as wherever the layer refuses. Main thread.
public enum PanelPower {
    /// What happened: the panel was turned off or on, or why it was not (the picture is black
    /// instead).
    public enum Outcome: Equatable, Sendable {
        /// How: `DPMS, 1 connector` (KMS/DRM), `X11 DPMS`.
        case done(String)
        case unavailable(String)
    }

    public static func set(on: Bool, window: SDLWindow) -> Outcome {
        var subsystem: Int32 = -1
        let fd = kc_sdl_kmsdrm_fd(window.handle, &subsystem)
        guard subsystem >= 0 else {
            return .unavailable("the video driver gives no handle to the display (\(String(cString: SDL_GetError())))")
        }
        guard fd >= 0 else {
            if UInt32(subsystem) == SDL_SYSWM_X11.rawValue, let display = kc_sdl_x11_display(window.handle) {
                return X11DPMS.set(on: on, display: display)
            }
            return .unavailable("display power is switched on KMS/DRM and X11 (DPMS), not under \(name(subsystem)), whose compositor owns it")
        }
        let result = kc_drm_set_dpms(fd, on ? 1 : 0)
        if result < 0 { return .unavailable("DPMS on the DRM connector failed: \(String(cString: strerror(-result)))") }
        if result == 0 { return .unavailable("no connected DRM connector has a DPMS property") }
        return .done("DPMS, \(result) connector\(result == 1 ? "" : "s")")
    }

    private static func name(_ subsystem: Int32) -> String {
        switch UInt32(subsystem) {
        case SDL_SYSWM_X11.rawValue: "X11"
        case SDL_SYSWM_WAYLAND.rawValue: "Wayland"
        default: "this video driver"
        }
    }
}
