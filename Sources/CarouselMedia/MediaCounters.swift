import Foundation

/// Counters of the image work for the whole process, read by the control API's metrics.
public enum MediaCounters {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var restarts = 0

    /// Decoder helpers started again after one died or was stopped (a crash, a deadline, memory).
    public static var helperRestarts: Int { lock.withLock { restarts } }

    static func noteHelperRestart() { lock.withLock { restarts += 1 } }
}
