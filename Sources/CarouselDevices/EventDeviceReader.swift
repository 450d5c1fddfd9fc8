import CLinux
import Foundation
import Glibc
import Synchronization
import CarouselClock

/// Reads the input devices themselves on KMS/DRM, on a thread of its own, and hands what
/// they did to the run loop (`take`), waking it through `wake` (an eventfd).
///
/// Why not SDL's evdev reader (issue 43, found by kiosk/vm-test): SDL 2.26 took an axis a
/// report left out as 0 (a tablet's press landed at the top edge), passed absolute axes
/// unscaled, read `/dev/input/mouseN` as if it were evdev, and read at all only when the
/// loop pumped, so a long frame overflowed a device's kernel buffer and lost a press. Here:
/// - every `/dev/input/event*` node that is a touchscreen, pointer or keyboard is opened
///   once, at start, when it appears (inotify on /dev/input: made, then given its
///   permissions by udev) and when it comes back after a reset; one log line per device
///   opened and per device lost;
/// - its events are read as they come (the thread sleeps in poll(2): no CPU at rest) and
///   decoded by `EvdevDecoder` with the kernel's own times (CLOCK_MONOTONIC);
/// - keys are SDL's still (its keyboard path follows the console's keymap and keeps typed
///   keys off the console): key activity and udev's announcements only wake the loop so
///   that SDL reads them when it pumps. SDL's own pointer and finger events are dropped
///   by `EventQueue` while this reads.
///
/// Under Wayland the compositor reads the devices and tells its clients nothing of them
/// (only whether the seat has touch, a pointer, keys). There it only names them (`reads`
/// false): each device is opened for its name and kind and closed again, one line when it
/// appears and one when it goes, so that the journal says what the compositor was given.
public final class EventDeviceReader: @unchecked Sendable {
    private static let folder = "/dev/input"
    /// At most this many inputs wait for the loop.
    static let queueLimit = 4096

    /// What the devices did and the loop has not taken yet.
    private let queue = Mutex<[DeviceInput]>([])
    /// The screen a mouse moves over (pixels: KMS/DRM's mode, fixed while the program runs).
    private let screen: (width: Double, height: Double)
    private let stopDescriptor: Int32
    /// -1: nothing to wake (names only).
    private let wake: Int32
    private let log: @Sendable (String) -> Void
    /// Reads the devices' events; false: names them only (the compositor reads them).
    private let reads: Bool

    // The thread's own; touched by `init` before it starts, then only by the thread.
    private let inotify: Int32
    private let announcements: Int32
    private var devices: [String: Device] = [:]
    private var nextNumber = 1
    private var saidPollFailed = false

    private struct Device {
        /// -1 where the device is only named.
        let fd: Int32
        let name: String
        var decoder: EvdevDecoder
        /// The node's device number: a node made again under the same name is another device.
        let rdev: UInt
    }

    /// How many devices it found at start.
    public private(set) var startCount = 0
    /// Whether udev's announcements are heard (they wake the loop so that SDL adds the
    /// keyboards it reads).
    public let hearsUdev: Bool

    /// Nil when /dev/input cannot be watched. `reads` false: the devices are only named as
    /// they come and go (`wake` -1).
    public init?(wake: Int32, screen: (width: Double, height: Double), reads: Bool = true, log: @escaping @Sendable (String) -> Void) {
        let fd = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
        guard fd >= 0 else { return nil }
        guard inotify_add_watch(fd, Self.folder, UInt32(IN_CREATE | IN_DELETE | IN_ATTRIB)) >= 0 else {
            close(fd)
            return nil
        }
        let stop = eventfd(0, Int32(EFD_CLOEXEC | EFD_NONBLOCK))
        guard stop >= 0 else {
            close(fd)
            return nil
        }
        inotify = fd
        stopDescriptor = stop
        self.wake = wake
        self.log = log
        self.screen = screen
        self.reads = reads
        announcements = reads ? kc_udev_announcements() : -1
        hearsUdev = announcements >= 0
        rescan(atStart: true)
        startCount = devices.count
        Thread { [self] in
            _ = kc_name_thread("input devices")
            run()
        }.start()
    }

    /// What the devices did since the last call, oldest first. Any thread.
    public func take() -> [DeviceInput] {
        queue.withLock { q in
            defer { q.removeAll(keepingCapacity: true) }
            return q
        }
    }

    /// Ends the thread; it closes what it opened.
    public func stop() {
        var one: UInt64 = 1
        _ = write(stopDescriptor, &one, 8)
    }

    private func run() {
        var buffer = [UInt8](repeating: 0, count: 8192)
        while true {
            let order = Array(devices.keys)
            var fds = [pollfd(fd: stopDescriptor, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: inotify, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: announcements, events: Int16(POLLIN), revents: 0)]
                + order.map { pollfd(fd: devices[$0]!.fd, events: Int16(POLLIN), revents: 0) }
            if poll(&fds, nfds_t(fds.count), -1) < 0 {
                // Never given up: a kiosk without its reader is deaf. Said once.
                if errno != EINTR && !saidPollFailed {
                    saidPollFailed = true
                    log("input: poll(2) failed (\(String(cString: strerror(errno)))); trying again every 100 ms")
                }
                if errno != EINTR { usleep(100_000) }
                continue
            }
            if fds[0].revents != 0 { break }
            var woke = false
            if fds[1].revents != 0 {
                while read(inotify, &buffer, buffer.count) > 0 {}
                if rescan(atStart: false) { woke = true }
            }
            if fds[2].revents != 0 {
                // Dropped here: SDL reads its own copy from its monitor when the loop pumps.
                while recv(announcements, &buffer, buffer.count, Int32(MSG_DONTWAIT)) > 0 {}
                _ = rescan(atStart: false)
                woke = true
            }
            var inputs: [DeviceInput] = []
            for (i, path) in order.enumerated() where fds[i + 3].revents != 0 {
                if !drain(path, into: &inputs) { lose(path) }
            }
            if !inputs.isEmpty {
                queue.withLock { q in
                    q.append(contentsOf: inputs)
                    // A loop that does not take them (stopped, or a device chattering): the
                    // motion goes, presses and lifts stay, so memory stays bounded.
                    if q.count > Self.queueLimit { q.removeAll { $0.isMotion } }
                    if q.count > Self.queueLimit { q.removeFirst(q.count - Self.queueLimit) }
                }
                woke = true
            }
            if woke && wake >= 0 {
                var one: UInt64 = 1
                _ = write(wake, &one, 8)
            }
        }
        for path in Array(devices.keys) where devices[path]!.fd >= 0 { close(devices[path]!.fd) }
        devices = [:]
        close(inotify)
        if announcements >= 0 { close(announcements) }
        close(stopDescriptor)
    }

    /// Reads what a device has; false when it is gone.
    private func drain(_ path: String, into inputs: inout [DeviceInput]) -> Bool {
        guard var device = devices[path] else { return true }
        defer { devices[path] = device }
        let size = MemoryLayout<input_event>.stride
        var events = [input_event](repeating: input_event(), count: 64)
        while true {
            let n = events.withUnsafeMutableBytes { read(device.fd, $0.baseAddress, $0.count) }
            if n < 0 { return errno == EAGAIN || errno == EINTR }
            if n == 0 { return false }
            var synced = false
            for e in events.prefix(n / size) {
                let time = Double(e.time.tv_sec) + Double(e.time.tv_usec) / 1e6
                inputs += device.decoder.take(EvdevDecoder.Event(type: e.type, code: e.code, value: e.value, time: time))
                // Events were dropped: what is queued after the drop is thrown away and the
                // device's state read instead (as libevdev does).
                if device.decoder.needsSync, let state = Self.resynced(device.fd, device.decoder.capabilities) {
                    inputs += device.decoder.sync(state, time: SystemClock.monotonic)
                    synced = true
                    break
                }
            }
            if synced { continue }
            if n < events.count * size { return true }
        }
    }

    /// Throws away what `fd` has queued, then reads its state; nil when it cannot be read
    /// (the decoder then ignores what was held until it lifts).
    private static func resynced(_ fd: Int32, _ caps: EvdevDecoder.Capabilities) -> EvdevDecoder.State? {
        var scrap = [UInt8](repeating: 0, count: 4096)
        while read(fd, &scrap, scrap.count) > 0 {}
        var state = EvdevDecoder.State()
        var keys = [UInt8](repeating: 0, count: Int(KEY_MAX) / 8 + 1)
        guard kc_evdev_keys_down(fd, &keys, Int32(keys.count)) >= 0 else { return nil }
        let down = BitSet(bytes: keys)
        state.pressed = down.contains(caps.kind == .singleTouch ? EvdevDecoder.Code.btnTouch : EvdevDecoder.Code.btnLeft)
        var x: Int32 = 0, y: Int32 = 0
        if kc_evdev_abs_value(fd, Int32(ABS_X), &x) == 0, kc_evdev_abs_value(fd, Int32(ABS_Y), &y) == 0 { (state.x, state.y) = (x, y) }
        if caps.kind == .multitouch {
            var contacts = [Int32](repeating: -1, count: caps.slots), xs = contacts, ys = contacts
            guard kc_evdev_slot_values(fd, Int32(ABS_MT_TRACKING_ID), &contacts, Int32(caps.slots)) == 0,
                  kc_evdev_slot_values(fd, Int32(ABS_MT_POSITION_X), &xs, Int32(caps.slots)) == 0,
                  kc_evdev_slot_values(fd, Int32(ABS_MT_POSITION_Y), &ys, Int32(caps.slots)) == 0 else { return nil }
            state.slots = (0..<caps.slots).map { (contacts[$0], xs[$0], ys[$0]) }
        }
        return state
    }

    private func lose(_ path: String) {
        guard let device = devices.removeValue(forKey: path) else { return }
        if device.fd >= 0 { close(device.fd) }
        log(reads ? "input: lost \(path) (\(device.name))" : "input: the compositor lost \(path) (\(device.name))")
    }

    /// Opens the event devices not yet open, closes those gone or replaced. True when one
    /// was opened (SDL may add it too when it next pumps).
    @discardableResult
    private func rescan(atStart: Bool) -> Bool {
        guard let dir = opendir(Self.folder) else { return false }
        defer { closedir(dir) }
        var present: [String: UInt] = [:]
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard name.hasPrefix("event") else { continue }
            var st = stat()
            guard stat("\(Self.folder)/\(name)", &st) == 0 else { continue }
            present["\(Self.folder)/\(name)"] = UInt(st.st_rdev)
        }
        for (path, device) in devices where present[path] != device.rdev { lose(path) }
        var opened = false
        for (path, rdev) in present.sorted(by: { $0.key < $1.key }) where devices[path] == nil {
            let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
            // The clock first: events queued before it changes are dropped by the kernel
            // (a SYN_DROPPED then says so, and the state is read instead), so the fewer the better.
            if fd >= 0 { _ = kc_evdev_monotonic(fd) }
            guard fd >= 0 else {
                // A node udev has not given its permissions yet is opened when it does (IN_ATTRIB).
                if atStart { log("input: cannot open \(path): \(String(cString: strerror(errno)))") }
                continue
            }
            guard let described = describe(fd, rdev: rdev) else {
                close(fd)
                continue
            }
            var device = described
            if !reads {
                close(fd)
                device = Device(fd: -1, name: described.name, decoder: described.decoder, rdev: rdev)
            }
            devices[path] = device
            opened = true
            let what = "\(path) (\(device.name)): \(Self.summary(device.decoder.capabilities))"
            log(reads ? "input: opened \(what)" : "input: the compositor reads \(what)")
            // Read at once what came since the node was opened: a press the kernel dropped when
            // the clock was set is read back from the device's state while the finger is
            // still down (read at the loop's next turn, it had lifted: kiosk/vm-test lost 1 tap
            // of 20 so, its press and lift 40 ms apart beside a busy host).
            if reads {
                var early: [DeviceInput] = []
                if !drain(path, into: &early) { lose(path) }
                if !early.isEmpty {
                    queue.withLock { $0.append(contentsOf: early) }
                    if wake >= 0 {
                        var one: UInt64 = 1
                        _ = write(wake, &one, 8)
                    }
                }
            }
        }
        return opened
    }

    private func describe(_ fd: Int32, rdev: UInt) -> Device? {
        func bits(_ type: Int32, _ count: Int) -> BitSet {
            var b = [UInt8](repeating: 0, count: count / 8 + 1)
            _ = kc_evdev_bits(fd, type, &b, Int32(b.count))
            return BitSet(bytes: b)
        }
        var props = [UInt8](repeating: 0, count: 8)
        _ = kc_evdev_props(fd, &props, Int32(props.count))
        let caps = EvdevDecoder.Capabilities.classify(
            types: bits(0, Int(EV_MAX)), keys: bits(Int32(EV_KEY), Int(KEY_MAX)), absolute: bits(Int32(EV_ABS), Int(ABS_MAX)),
            relative: bits(Int32(EV_REL), Int(REL_MAX)), properties: BitSet(bytes: props),
            range: { axis in
                var lo: Int32 = 0, hi: Int32 = 0
                guard kc_evdev_abs_range(fd, Int32(axis), &lo, &hi) == 0, hi > lo else { return nil }
                return lo...hi
            })
        guard let caps else { return nil }
        var name = [CChar](repeating: 0, count: 256)
        let named = kc_evdev_name(fd, &name, Int32(name.count)) >= 0
        let number = nextNumber
        nextNumber = nextNumber % 32_000 + 1
        let text = named ? String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) : "unnamed"
        return Device(fd: fd, name: text,
                      decoder: EvdevDecoder(caps, device: number, screen: screen), rdev: rdev)
    }

    static func summary(_ c: EvdevDecoder.Capabilities) -> String {
        switch c.kind {
        case .multitouch: "touchscreen, \(c.slots) fingers, \(c.x.lowerBound)–\(c.x.upperBound) × \(c.y.lowerBound)–\(c.y.upperBound)"
        case .singleTouch: "touchscreen, one finger, \(c.x.lowerBound)–\(c.x.upperBound) × \(c.y.lowerBound)–\(c.y.upperBound)"
        case .absolutePointer: "absolute pointer, \(c.x.lowerBound)–\(c.x.upperBound) × \(c.y.lowerBound)–\(c.y.upperBound)"
        case .relativePointer: "mouse"
        case .keys: "keys (read by SDL)"
        }
    }
}
