import CSDL2
import Glibc

/// The input devices under X11, where the X server opens and reads them (libinput or evdev)
/// and this program hears of them through XInput 2 (issue 43).
///
/// What it mends: SDL 2.26 lists the X server's touchscreens when it starts, and again only
/// when a touch comes from one it does not know, and that touch it drops (`SDL_GetTouch`
/// resets the list and returns nothing). A touchscreen plugged in after start, or a cheap
/// panel back after a reset, lost its first tap, and a drag began at its first movement.
/// The X server announces every device it adds, removes, enables or disables
/// (XI_HierarchyChanged, which SDL itself selects on the root window for every device); at
/// each announcement SDL is made to list the touchscreens again, so the first touch finds
/// its device known. One log line when the server starts reading a device (it enables it:
/// events then flow) and one when it loses one.
///
/// SDL hands X events on as SDL_SYSWMEVENT, their data valid only while its event filter
/// runs: this is that filter, on the main thread (SDL pumps there), and it keeps those
/// events out of the queue. libX11 and libXi are SDL's, loaded at run time, as SDL loads them.
final class X11InputDevices {
    private typealias QueryExtension = @convention(c) (OpaquePointer?, UnsafePointer<CChar>?, UnsafeMutablePointer<Int32>?,
                                                       UnsafeMutablePointer<Int32>?, UnsafeMutablePointer<Int32>?) -> Int32
    private typealias QueryDevice = @convention(c) (OpaquePointer?, Int32, UnsafeMutablePointer<Int32>?) -> UnsafeMutablePointer<XIDeviceInfo>?
    private typealias FreeDeviceInfo = @convention(c) (UnsafeMutablePointer<XIDeviceInfo>?) -> Void

    private let queryExtension: QueryExtension
    private let queryDevice: QueryDevice
    private let freeDeviceInfo: FreeDeviceInfo
    private let log: (String) -> Void
    /// XInput's major opcode on the display, once the first X event has shown which display
    /// that is; -1 when the server has no XInput 2.
    private var opcode: Int32?
    /// The slave devices the server has, by id: their names, for the line when one is lost.
    private var names: [Int32: String] = [:]
    /// Where an announcement's changes are read into (every X event is looked at: no
    /// allocation for each).
    private var changes = [kc_x11_device_change](repeating: kc_x11_device_change(), count: 32)

    /// Nil when libX11 or libXi cannot be loaded (then SDL's own behaviour stays).
    init?(log: @escaping (String) -> Void) {
        guard let x11 = dlopen("libX11.so.6", RTLD_NOW | RTLD_LOCAL), let xi = dlopen("libXi.so.6", RTLD_NOW | RTLD_LOCAL),
              let e = dlsym(x11, "XQueryExtension"), let q = dlsym(xi, "XIQueryDevice"), let f = dlsym(xi, "XIFreeDeviceInfo") else {
            log("input: libX11 or libXi cannot be loaded; a touchscreen plugged in later loses its first touch (SDL 2.26)")
            return nil
        }
        queryExtension = unsafeBitCast(e, to: QueryExtension.self)
        queryDevice = unsafeBitCast(q, to: QueryDevice.self)
        freeDeviceInfo = unsafeBitCast(f, to: FreeDeviceInfo.self)
        self.log = log
        SDL_SetEventFilter(x11EventFilter, Unmanaged.passUnretained(self).toOpaque())
        _ = SDL_EventState(UInt32(SDL_SYSWMEVENT.rawValue), SDL_ENABLE)
    }

    /// Stops listening (before SDL quits). Main thread.
    func stop() {
        _ = SDL_EventState(UInt32(SDL_SYSWMEVENT.rawValue), SDL_DISABLE)
        SDL_SetEventFilter(nil, nil)
    }

    /// An X event SDL has just handled.
    fileprivate func heard(_ message: UnsafePointer<SDL_SysWMmsg>) {
        guard let display = kc_x11_event_display(message).map(OpaquePointer.init) else { return }
        if opcode == nil { start(on: display) }
        guard let opcode, opcode >= 0 else { return }
        let room = Int32(changes.count)
        let count = Int(kc_x11_device_changes(message, opcode, &changes, room))
        guard count > 0 else { return }
        for change in changes.prefix(count) {
            let id = change.deviceid
            // Added, the device is described; enabled, the server reads it (a device is
            // opened when added, and its events flow from when it is enabled).
            if change.flags & XIDeviceEnabled != 0, let device = describe(id, on: display) {
                names[id] = device.name
                log("input: the X server reads \(device.name) (device \(id), \(device.kind))")
            }
            if change.flags & XISlaveRemoved != 0 {
                log("input: the X server lost \(names.removeValue(forKey: id) ?? "a device") (device \(id))")
            }
        }
        // Asked of a touch device it does not know, SDL 2.26 lists the server's touch devices
        // again (X11_ResetTouch): the one just added is then known before its first touch.
        // Not while a finger is down: the list made again forgets the fingers down, and that
        // touch's up then finds none (a tap lost; an announcement may come as a new
        // touchscreen's first tap is under way). Its device is known then anyway.
        guard !Self.fingerDown else { return }
        _ = SDL_GetNumTouchFingers(Self.unknownTouch)
        SDL_ClearError()
    }

    /// Whether a finger is down on any touch device SDL knows.
    private static var fingerDown: Bool {
        (0..<SDL_GetNumTouchDevices()).contains { SDL_GetNumTouchFingers(SDL_GetTouchDevice($0)) > 0 }
    }

    /// A touch id no device has (X's device ids are small and positive).
    private static let unknownTouch: SDL_TouchID = .min

    /// XInput's opcode on `display` and the devices the server has at start (one line).
    private func start(on display: OpaquePointer) {
        var major: Int32 = -1, event: Int32 = 0, error: Int32 = 0
        guard queryExtension(display, "XInputExtension", &major, &event, &error) != 0 else {
            opcode = -1
            log("input: the X server has no XInput extension; devices plugged in later are not followed")
            return
        }
        opcode = major
        let devices = devices(on: display)
        for d in devices { names[d.id] = d.name }
        let listed = devices.map { "\($0.name) (\($0.kind))" }.joined(separator: ", ")
        log("input: at start the X server reads: \(devices.isEmpty ? "no device" : listed)")
    }

    private struct Device { let id: Int32, name: String, kind: String }

    /// Looked up among all devices, not asked of `id` alone: a device gone again by then
    /// would be a BadDevice error, which Xlib's default handler answers by ending the process.
    private func describe(_ id: Int32, on display: OpaquePointer) -> Device? {
        devices(on: display).first { $0.id == id }
    }

    /// The server's slave devices (what it reads), each with the kind of input it gives.
    private func devices(on display: OpaquePointer) -> [Device] {
        var count: Int32 = 0
        guard let info = queryDevice(display, XIAllDevices, &count) else { return [] }
        defer { freeDeviceInfo(info) }
        var found: [Device] = []
        for i in 0..<Int(max(0, count)) {
            let d = info[i]
            guard [XISlavePointer, XISlaveKeyboard, XIFloatingSlave].contains(d.use) else { continue }
            var kind = d.use == XISlaveKeyboard ? "a keyboard" : "a pointer"
            for c in 0..<Int(max(0, d.num_classes)) {
                guard let cls = d.classes?[c], cls.pointee.type == XITouchClass else { continue }
                let mode = UnsafeRawPointer(cls).assumingMemoryBound(to: XITouchClassInfo.self).pointee.mode
                kind = mode == XIDirectTouch ? "a touchscreen" : "a touchpad"
            }
            found.append(Device(id: d.deviceid, name: d.name.map { String(cString: $0) } ?? "device \(d.deviceid)", kind: kind))
        }
        return found
    }
}

/// SDL's event filter while `X11InputDevices` listens: X events to it, kept out of the queue.
private func x11EventFilter(_ userdata: UnsafeMutableRawPointer?, _ event: UnsafeMutablePointer<SDL_Event>?) -> Int32 {
    guard let userdata, let event, event.pointee.type == SDL_SYSWMEVENT.rawValue else { return 1 }
    if let message = event.pointee.syswm.msg {
        Unmanaged<X11InputDevices>.fromOpaque(userdata).takeUnretainedValue().heard(message)
    }
    return 0
}
