import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Lets several threads write files into a folder that an interrupt may remove at any
/// moment. Each write passes through the gate; `closeForGood` waits for the writes under
/// way, then runs its last work (removing the folder) with the gate shut for the rest of
/// the process. Without it, a file created while the folder is being removed would be
/// left behind, or a write failing on the vanished folder would race the interrupt's exit
/// status with an error of its own.
public final class WriteGate: @unchecked Sendable {
    private let lock: UnsafeMutablePointer<pthread_rwlock_t>

    public init() {
        lock = .allocate(capacity: 1)
        var attributes = pthread_rwlockattr_t()
        pthread_rwlockattr_init(&attributes)
        // A closing gate must not wait behind a stream of new writers.
        pthread_rwlockattr_setkind_np(&attributes, Int32(PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP))
        pthread_rwlock_init(lock, &attributes)
        pthread_rwlockattr_destroy(&attributes)
    }

    deinit {
        pthread_rwlock_destroy(lock)
        lock.deallocate()
    }

    /// Runs `write` unless the gate is closed; once it is, blocks until the process ends.
    public func pass<T>(_ write: () throws -> T) rethrows -> T {
        pthread_rwlock_rdlock(lock)
        defer { pthread_rwlock_unlock(lock) }
        return try write()
    }

    /// Waits for the writes under way, then runs `last`; the gate never opens again.
    public func closeForGood(_ last: () -> Void) {
        pthread_rwlock_wrlock(lock)
        last()
    }
}
