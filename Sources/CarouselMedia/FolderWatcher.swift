import Foundation
import Glibc

/// Watches folders with inotify and calls `onChange` once a burst of changes has quietened
/// (`debounce` seconds without a new one, or `maxDelay` into a long copy), from its own
/// thread. It says only that something changed: the caller rescans. Folders on network
/// mounts may never report a change, which is why the caller rescans periodically too.
public final class FolderWatcher: @unchecked Sendable {
    private let inotify: Int32
    /// Written to stop the thread: closing a descriptor another thread polls is a race.
    private let stopPipe: (read: Int32, write: Int32)

    /// Nil when inotify is not available (then only periodic rescans find changes).
    public init?(debounce: Double = 0.5, maxDelay: Double = 2, onChange: @escaping @Sendable () -> Void) {
        let fd = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
        guard fd >= 0 else { return nil }
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { close(fd); return nil }
        inotify = fd
        stopPipe = (ends[0], ends[1])
        let (stop, debounceMs, maxDelayS) = (ends[0], Int32(debounce * 1000), maxDelay)
        let thread = Thread {
            Self.run(inotify: fd, stop: stop, debounceMs: debounceMs, maxDelay: maxDelayS, onChange: onChange)
        }
        thread.name = "folder-watcher"
        thread.start()
    }

    deinit {
        var byte: UInt8 = 1
        _ = write(stopPipe.write, &byte, 1)
        close(stopPipe.write)
    }

    /// Watches these folders. Watching a folder again is harmless (inotify keeps one watch
    /// per inode), and a folder deleted and made anew gets its new watch this way. One that
    /// cannot be watched (gone, unreadable, out of watches) is skipped: rescans cover it.
    public func watch(_ folders: [String]) {
        let mask = UInt32(IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO | IN_CLOSE_WRITE | IN_MODIFY
                          | IN_ATTRIB | IN_DELETE_SELF | IN_MOVE_SELF)
        for f in folders { _ = inotify_add_watch(inotify, f, mask) }
    }

    private static func run(inotify: Int32, stop: Int32, debounceMs: Int32, maxDelay: Double,
                            onChange: @Sendable () -> Void) {
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        var firstPending: Double?
        while true {
            var fds = [pollfd(fd: inotify, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: stop, events: Int16(POLLIN), revents: 0)]
            let ready = poll(&fds, 2, firstPending == nil ? -1 : debounceMs)
            if ready < 0 && errno == EINTR { continue }
            if fds[1].revents != 0 || ready < 0 { break }
            if fds[0].revents & Int16(POLLIN) != 0 {
                while read(inotify, &buffer, buffer.count) > 0 {}
                let now = ProcessInfo.processInfo.systemUptime
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
    }
}
