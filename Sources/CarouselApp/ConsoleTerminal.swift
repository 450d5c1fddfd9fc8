import CLinux
import Foundation

/// The text console a kiosk unit runs on (`TTYPath=/dev/tty7`). SDL's KMS/DRM driver may
/// only take the screen while its logind session is in front: on a console left showing
/// tty1's login prompt, the carousel ran but nothing of it showed (found by kiosk/vm-test;
/// the unit's `chvt 7` runs as the kiosk user, which may not switch, and needs the kbd
/// package). The program brings its own terminal forward instead: allowed to a process on
/// its controlling terminal, with no extra privilege.
enum ConsoleTerminal {
    /// When standard input is a virtual terminal (/dev/ttyN) and no X11 or Wayland display
    /// is set, switches the screen to it. A line for the log when that failed, else nil.
    static func bringForward() -> String? {
        let env = ProcessInfo.processInfo.environment
        guard env["DISPLAY"] == nil, env["WAYLAND_DISPLAY"] == nil,
              let name = ttyname(0).map({ String(cString: $0) }), name.hasPrefix("/dev/tty"),
              let n = Int32(name.dropFirst("/dev/tty".count)), n > 0 else { return nil }
        if kc_vt_activate(0, n) != 0 {
            return "could not bring \(name) to the screen (\(String(cString: strerror(errno)))); another console may cover the carousel"
        }
        return nil
    }
}
