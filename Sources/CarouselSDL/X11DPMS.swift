import Glibc

/// The X server's DPMS extension (libXext's DPMSForceLevel), the way `xset dpms force off`
/// turns a desktop's monitor off. libXext is loaded at run time, as SDL loads libX11: no
/// build dependency, and a machine without X11 never loads it.
enum X11DPMS {
    private typealias QueryExtension = @convention(c) (OpaquePointer?, UnsafeMutablePointer<Int32>?, UnsafeMutablePointer<Int32>?) -> Int32
    private typealias Capable = @convention(c) (OpaquePointer?) -> Int32
    private typealias Enable = @convention(c) (OpaquePointer?) -> Int32
    private typealias ForceLevel = @convention(c) (OpaquePointer?, UInt16) -> Int32
    private typealias Info = @convention(c) (OpaquePointer?, UnsafeMutablePointer<UInt16>?, UnsafeMutablePointer<UInt8>?) -> Int32
    private typealias Flush = @convention(c) (OpaquePointer?) -> Int32

    /// DPMSModeOn and DPMSModeOff of <X11/extensions/dpmsconst.h>.
    private static let modeOn: UInt16 = 0, modeOff: UInt16 = 3

    static func set(on: Bool, display: UnsafeMutableRawPointer) -> PanelPower.Outcome {
        guard let ext = dlopen("libXext.so.6", RTLD_NOW | RTLD_LOCAL), let x11 = dlopen("libX11.so.6", RTLD_NOW | RTLD_LOCAL) else {
            return .unavailable("libXext is not installed, so X11's DPMS cannot be used")
        }
        func fn<T>(_ lib: UnsafeMutableRawPointer, _ name: String, _: T.Type) -> T? { dlsym(lib, name).map { unsafeBitCast($0, to: T.self) } }
        guard let query = fn(ext, "DPMSQueryExtension", QueryExtension.self), let capable = fn(ext, "DPMSCapable", Capable.self),
              let enable = fn(ext, "DPMSEnable", Enable.self), let force = fn(ext, "DPMSForceLevel", ForceLevel.self),
              let info = fn(ext, "DPMSInfo", Info.self), let flush = fn(x11, "XFlush", Flush.self) else {
            return .unavailable("libXext lacks the DPMS functions")
        }
        let dpy = OpaquePointer(display)
        var event: Int32 = 0, error: Int32 = 0
        guard query(dpy, &event, &error) != 0 else { return .unavailable("the X server has no DPMS extension") }
        guard capable(dpy) != 0 else { return .unavailable("the X server's display cannot be powered down (DPMS)") }
        _ = enable(dpy)
        _ = force(dpy, on ? modeOn : modeOff)
        _ = flush(dpy)
        var level: UInt16 = 0, state: UInt8 = 0
        _ = info(dpy, &level, &state)
        return level == (on ? modeOn : modeOff) ? .done("X11 DPMS") : .unavailable("the X server kept its DPMS level \(level)")
    }
}
