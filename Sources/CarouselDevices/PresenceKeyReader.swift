import CLinux
import Foundation
import Glibc
import Synchronization

/// A motion or occupancy sensor wired as an input key (`--presence-key CODE`): a PIR on a
/// Raspberry Pi's GPIO becomes an evdev key with the `gpio-key` device-tree overlay, pressed
/// while it sees motion. A thread of its own opens every `/dev/input/event*` node that has
/// the key (at start and when one appears), reads it without grabbing it (the display
/// server reads its own copy), and says each press (someone there) and release (the
/// timeout runs from then) through `take()` after `notify`. Under any display: it reads the
/// kernel's devices, not SDL's.
public final class PresenceKeyReader: Sendable {
    public let code: UInt16
    private let stopDescriptor: Int32
    private let inotify: Int32
    private let log: @Sendable (String) -> Void
    private let notify: @Sendable () -> Void
    private let changes = Mutex<[Bool]>([])
    static let folder = "/dev/input"

    /// Nil, said in one line, when `/dev/input` cannot be watched.
    public init?(code: UInt16, log: @escaping @Sendable (String) -> Void, notify: @escaping @Sendable () -> Void) {
        let fd = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
        guard fd >= 0, inotify_add_watch(fd, Self.folder, UInt32(IN_CREATE | IN_ATTRIB)) >= 0 else {
            if fd >= 0 { close(fd) }
            log("presence: \(Self.folder) cannot be watched; --presence-key hears nothing")
            return nil
        }
        let stop = eventfd(0, Int32(EFD_CLOEXEC | EFD_NONBLOCK))
        guard stop >= 0 else {
            close(fd)
            return nil
        }
        self.code = code
        self.inotify = fd
        self.stopDescriptor = stop
        self.log = log
        self.notify = notify
        Thread { [self] in
            _ = kc_name_thread("presence key")
            run()
        }.start()
    }

    /// The sensor's changes since the last call, oldest first: true someone there (the key
    /// pressed), false nobody any more (released). Any thread.
    public func take() -> [Bool] {
        changes.withLock { c in
            defer { c.removeAll() }
            return c
        }
    }

    public func stop() {
        var one: UInt64 = 1
        _ = write(stopDescriptor, &one, 8)
    }

    private func say(_ present: Bool) {
        changes.withLock { c in
            // A chattering sensor: only the last few matter.
            c.append(present)
            if c.count > 16 { c.removeFirst(c.count - 16) }
        }
        notify()
    }

    private func run() {
        var devices: [String: Int32] = [:]
        var saidNone = false
        func rescan() {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: Self.folder)) ?? []
            for name in names.sorted() where name.hasPrefix("event") && devices[Self.folder + "/" + name] == nil {
                let path = Self.folder + "/" + name
                let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
                guard fd >= 0 else { continue }
                var bits = [UInt8](repeating: 0, count: Int(KEY_MAX) / 8 + 1)
                guard kc_evdev_bits(fd, Int32(EV_KEY), &bits, Int32(bits.count)) >= 0,
                      Int(code) / 8 < bits.count, bits[Int(code) / 8] & (1 << (code % 8)) != 0 else {
                    close(fd)
                    continue
                }
                var label = [CChar](repeating: 0, count: 128)
                _ = kc_evdev_name(fd, &label, Int32(label.count))
                let deviceName = String(decoding: label.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                devices[path] = fd
                log("presence: key \(code) read from \(path) (\(deviceName))")
                // Someone already there when it is opened (the key held down).
                var down = [UInt8](repeating: 0, count: bits.count)
                if kc_evdev_keys_down(fd, &down, Int32(down.count)) >= 0, down[Int(code) / 8] & (1 << (code % 8)) != 0 { say(true) }
            }
            if devices.isEmpty && !saidNone {
                saidNone = true
                log("presence: no input device has key \(code) yet; its sensor is heard when it appears")
            }
        }
        rescan()
        var scrap = [UInt8](repeating: 0, count: 4096)
        let size = MemoryLayout<input_event>.stride
        var events = [input_event](repeating: input_event(), count: 64)
        loop: while true {
            let order = Array(devices.keys)
            var fds = [pollfd(fd: stopDescriptor, events: Int16(POLLIN), revents: 0), pollfd(fd: inotify, events: Int16(POLLIN), revents: 0)]
                + order.map { pollfd(fd: devices[$0]!, events: Int16(POLLIN), revents: 0) }
            if poll(&fds, nfds_t(fds.count), -1) < 0 {
                if errno != EINTR { usleep(100_000) }
                continue
            }
            if fds[0].revents != 0 { break }
            if fds[1].revents != 0 {
                while read(inotify, &scrap, scrap.count) > 0 {}
                rescan()
            }
            for (i, path) in order.enumerated() where fds[i + 2].revents != 0 {
                guard let fd = devices[path] else { continue }
                while true {
                    let n = events.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                    if n < 0 && (errno == EAGAIN || errno == EINTR) { break }
                    if n <= 0 {
                        close(fd)
                        devices[path] = nil
                        log("presence: \(path) went away")
                        continue loop
                    }
                    // Press (1) and release (0); a held key's repeats (2) say nothing new.
                    for e in events.prefix(n / size) where e.type == UInt16(EV_KEY) && e.code == code && e.value != 2 {
                        say(e.value == 1)
                    }
                    if n < events.count * size { break }
                }
            }
        }
        for fd in devices.values { close(fd) }
        close(inotify)
        close(stopDescriptor)
    }
}
