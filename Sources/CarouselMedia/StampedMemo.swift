import CarouselCore
import Foundation

/// What was read from a file, kept by its path and stamp (size and modification time), so
/// that a rescan reads only the files that changed; a file without a stamp is read each
/// time. At most 100,000 are kept (then all are forgotten at once). Any thread.
public final class StampedMemo<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var known: [String: (stamp: FileStamp?, value: Value)] = [:]

    public init() {}

    /// What `read` gives for `path`, read again only when its stamp changed.
    public func value(for path: String, stamp: FileStamp?, read: () -> Value) -> Value {
        if let stamp, let k = lock.withLock({ known[path] }), k.stamp == stamp { return k.value }
        let value = read()
        lock.withLock {
            if known.count >= 100_000 { known.removeAll() }
            known[path] = (stamp, value)
        }
        return value
    }
}
