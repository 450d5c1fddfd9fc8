import Glibc
import CLinux

/// A blocking event wait for SDL's KMS/DRM driver, whose own `SDL_WaitEvent` polls every
/// millisecond (about 1,000 wake-ups a second at rest: found by kiosk/vm-test on the kiosk's
/// own path). It sleeps in poll(2) on what can bring an event there:
/// - the input devices (`/dev/input/event*`), opened read-only a second time: the kernel
///   gives every reader its own copy of each event, so what is read here is thrown away
///   and SDL reads its own;
/// - udev's announcements (a netlink socket in the group udev's monitors listen to): a
///   device set up by udev, which SDL adds when it next looks at its own monitor. Booting,
///   udev may set the touch panel up seconds after the program started (kiosk/vm-test
///   lost a whole drag so on a busy machine): each announcement wakes the loop to let SDL
///   look. Where that socket cannot be had, the wait wakes every 50 ms for a few seconds
///   after each change of `/dev/input` instead;
/// - `/dev/input` itself (inotify): a device node made or given its permissions, to open
///   it here too;
/// - a wake descriptor (eventfd) that `EventQueue.post` writes after each event it pushes,
///   from any thread.
/// Used on the main thread only, as SDL's event calls are.
final class InputDeviceWait {
    private static let folder = "/dev/input"
    /// How long after a change of `/dev/input` the wait still wakes to let SDL pump.
    private static let settleSeconds = 3.0
    private static let settleStepMs: Int32 = 50

    private let inotify: Int32
    /// udev's announcements; -1 without them (then `settlingUntil` stands in).
    private let announcements: Int32
    private var devices: [String: Int32] = [:]
    private var settlingUntil: Double?

    /// Nil when `/dev/input` cannot be watched; SDL's own wait is used then.
    init?(now: Double) {
        let fd = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
        guard fd >= 0 else { return nil }
        guard inotify_add_watch(fd, Self.folder, UInt32(IN_CREATE | IN_DELETE | IN_ATTRIB)) >= 0 else {
            close(fd)
            return nil
        }
        inotify = fd
        // Made before SDL first looks at its monitor: nothing udev says after it is missed.
        announcements = kc_udev_announcements()
        rescan()
        // Without udev's announcements: SDL found its devices in SDL_Init, and those it may
        // still be adding settle like a change.
        if announcements < 0 { settlingUntil = now + Self.settleSeconds }
    }

    deinit {
        for fd in devices.values { close(fd) }
        close(inotify)
        if announcements >= 0 { close(announcements) }
    }

    /// Whether udev's announcements wake the wait (else it polls for a while after changes).
    var hearsUdev: Bool { announcements >= 0 }

    /// How many input devices it listens to.
    var deviceCount: Int { devices.count }

    /// Sleeps until an input device has something, `/dev/input` changes, `wake` is written,
    /// or `timeout` seconds pass (nil: no limit). Drains what woke it.
    func block(timeout: Double?, now: Double, wake: Int32) {
        var limitMs: Int32 = timeout.map { Int32(min(max(($0 * 1000).rounded(.up), 0), Double(Int32.max))) } ?? -1
        if let until = settlingUntil {
            if now >= until { settlingUntil = nil } else { limitMs = limitMs < 0 ? Self.settleStepMs : min(limitMs, Self.settleStepMs) }
        }
        let order = Array(devices.values)
        // A closed descriptor (-1) is left out by poll(2).
        var fds = [pollfd(fd: wake, events: Int16(POLLIN), revents: 0),
                   pollfd(fd: inotify, events: Int16(POLLIN), revents: 0),
                   pollfd(fd: announcements, events: Int16(POLLIN), revents: 0)]
            + order.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        guard poll(&fds, nfds_t(fds.count), limitMs) > 0 else { return }
        var buffer = [UInt8](repeating: 0, count: 8192)
        if fds[0].revents != 0 { _ = read(wake, &buffer, 8) }
        if fds[1].revents != 0 {
            while read(inotify, &buffer, buffer.count) > 0 {}
            rescan()
            if announcements < 0 { settlingUntil = now + Self.settleSeconds }
        }
        if fds[2].revents != 0 {
            // Read and dropped: SDL reads its own copy from its monitor when the loop pumps.
            while recv(announcements, &buffer, buffer.count, Int32(MSG_DONTWAIT)) > 0 {}
            rescan()
        }
        for (i, fd) in order.enumerated() where fds[i + 3].revents != 0 {
            // Thrown away: SDL reads its own copy. A device unplugged says so here (ENODEV).
            var n: Int
            repeat { n = read(fd, &buffer, buffer.count) } while n > 0
            if n < 0 && errno != EAGAIN && errno != EINTR { forget(fd) }
        }
    }

    /// Opens the event devices not yet open and closes those gone.
    private func rescan() {
        guard let dir = opendir(Self.folder) else { return }
        defer { closedir(dir) }
        var present: Set<String> = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard name.hasPrefix("event") else { continue }
            present.insert(name)
            if devices[name] == nil {
                let fd = open("\(Self.folder)/\(name)", O_RDONLY | O_NONBLOCK | O_CLOEXEC)
                if fd >= 0 { devices[name] = fd }
            }
        }
        for (name, fd) in devices where !present.contains(name) {
            close(fd)
            devices[name] = nil
        }
    }

    private func forget(_ fd: Int32) {
        close(fd)
        devices = devices.filter { $0.value != fd }
    }
}
