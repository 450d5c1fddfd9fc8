import Foundation

/// Counters of the image work for the whole process, read by the control API's metrics.
public enum MediaCounters {
    public struct Figures: Sendable {
        /// Decoder helpers started again after one died or was stopped (a crash, a deadline).
        public var helperRestarts = 0
        /// Pictures decoded (fitted) by the helpers, and the seconds that took in all.
        public var decodes = 0
        public var decodeSeconds = 0.0
        /// Downloads that brought a file, that found it unchanged (304), that failed; bytes brought.
        public var downloads = 0
        public var downloadsUnchanged = 0
        public var downloadFailures = 0
        public var downloadBytes = 0
        /// Thumbnail look-ups of the wall that found one, and those that did not.
        public var thumbnailHits = 0
        public var thumbnailMisses = 0
        /// Embedded thumbnails (a file's own small picture) decoded for the wall's tiles.
        public var embeddedThumbnails = 0
    }

    private static let lock = NSLock()
    nonisolated(unsafe) private static var figures = Figures()

    public static var now: Figures { lock.withLock { figures } }
    /// Helpers restarted so far (a shortcut for the status).
    public static var helperRestarts: Int { now.helperRestarts }

    public static func count(_ change: (inout Figures) -> Void) { lock.withLock { change(&figures) } }
    static func noteHelperRestart() { count { $0.helperRestarts += 1 } }
}
