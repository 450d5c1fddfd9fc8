import CarouselMedia
import Foundation
import Glibc
import CarouselClock

/// Watches folders with inotify and calls `onChange` once a burst of changes has quietened
/// (`debounce` seconds without a new one, or `maxDelay` into a long copy), from its own
/// thread. It says only that something changed: the caller rescans. A mount or unmount
/// (a USB stick, a share coming up) counts as a change too: inotify does not see a file
/// system mounted over a watched folder. What it cannot see at all, `watch` says, so the
/// caller rescans those periodically and sleeps otherwise.
public final class FolderWatcher: @unchecked Sendable {
    private let inotify: Int32
    /// Written to stop the thread: closing a descriptor another thread polls is a race.
    private let stopPipe: (read: Int32, write: Int32)
    private let isRemote: @Sendable (String) -> Bool

    /// Nil when inotify is not available (then only periodic rescans find changes).
    /// - Parameter isRemote: whether a folder is on a file system whose changes inotify misses.
    public init?(debounce: Double = 0.5, maxDelay: Double = 2,
                 isRemote: @escaping @Sendable (String) -> Bool = RemoteFileSystem.holds,
                 onChange: @escaping @Sendable () -> Void) {
        let fd = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
        guard fd >= 0 else { return nil }
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { close(fd); return nil }
        inotify = fd
        stopPipe = (ends[0], ends[1])
        self.isRemote = isRemote
        // Polling the mount table reports each mount and unmount (POLLPRI); -1 if absent.
        let mounts = open("/proc/self/mountinfo", O_RDONLY | O_CLOEXEC)
        let (stop, debounceMs, maxDelayS) = (ends[0], Int32(debounce * 1000), maxDelay)
        let thread = Thread {
            Self.run(inotify: fd, mounts: mounts, stop: stop, debounceMs: debounceMs, maxDelay: maxDelayS, onChange: onChange)
        }
        thread.name = "folder-watcher"
        thread.start()
    }

    deinit {
        var byte: UInt8 = 1
        _ = write(stopPipe.write, &byte, 1)
        close(stopPipe.write)
    }

    /// Watches these folders and returns those whose changes it cannot see: gone,
    /// unreadable, out of watches, or on a network or FUSE file system. Watching a folder
    /// again is harmless (inotify keeps one watch per inode), and a folder deleted and made
    /// anew, or mounted over, gets its new watch this way.
    @discardableResult
    public func watch(_ folders: [String]) -> [String] {
        let mask = UInt32(IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO | IN_CLOSE_WRITE | IN_MODIFY
                          | IN_ATTRIB | IN_DELETE_SELF | IN_MOVE_SELF)
        return folders.filter { inotify_add_watch(inotify, $0, mask) < 0 || isRemote($0) }
    }

    private static func run(inotify: Int32, mounts: Int32, stop: Int32, debounceMs: Int32, maxDelay: Double,
                            onChange: @Sendable () -> Void) {
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        var firstPending: Double?
        while true {
            var fds = [pollfd(fd: inotify, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: stop, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: mounts, events: Int16(POLLPRI), revents: 0)]
            let ready = poll(&fds, 3, firstPending == nil ? -1 : debounceMs)
            if ready < 0 && errno == EINTR { continue }
            if fds[1].revents != 0 || ready < 0 { break }
            let mounted = fds[2].revents & Int16(POLLPRI) != 0
            if fds[0].revents & Int16(POLLIN) != 0 || mounted {
                while read(inotify, &buffer, buffer.count) > 0 {}
                let now = SystemClock.monotonic
                if firstPending == nil { firstPending = now }
                // A long copy keeps writing: report it every maxDelay anyway.
                if let first = firstPending, now - first >= maxDelay {
                    firstPending = nil
                    onChange()
                }
            } else if ready == 0, firstPending != nil {
                firstPending = nil
                onChange()
            }
        }
        close(inotify)
        close(stop)
        if mounts >= 0 { close(mounts) }
    }
}
