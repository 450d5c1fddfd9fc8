import Foundation
import Synchronization

/// The wall clock a group's screens keep step by: seconds since 1970, the host's. Read here
/// and nowhere else in the group's code (`ScreenGroup`, `GroupChannel` and its clock
/// exchange), so that a wrong clock can be tried without touching the host's time.
///
/// `CAROUSEL_WALL_CLOCK=FILE` (tests, and trying a wall's behaviour by hand) names a file
/// holding `OFFSET [synchronised|unsynchronised]`: the clock reads the host's plus OFFSET
/// seconds (at most a day either way), and NTP is said to keep it or not, in place of what
/// the kernel says. The file is read again whenever it changes; one that cannot be read or
/// parsed leaves the host's clock as it is.
public enum WallClock {
    /// What the file says: the offset, and whether NTP is said to keep the clock.
    public struct Override: Equatable, Sendable {
        public var offset: Double
        public var synchronised: Bool?

        /// `text` as the file holds it; nil when it is not that.
        public init?(_ text: String) {
            let words = text.split(whereSeparator: \.isWhitespace)
            guard (1...2).contains(words.count), let offset = Double(words[0]), offset.isFinite, abs(offset) <= 86_400 else { return nil }
            self.offset = offset
            switch words.count == 2 ? String(words[1]) : nil {
            case nil: synchronised = nil
            case "synchronised"?: synchronised = true
            case "unsynchronised"?: synchronised = false
            default: return nil
            }
        }
    }

    private static let file = ProcessInfo.processInfo.environment["CAROUSEL_WALL_CLOCK"]
    /// The file's modification time (seconds, nanoseconds) when last read, and what it said.
    private static let read = Mutex<(stamp: [Int], value: Override?)>(([], nil))

    /// The override in force; nil without `CAROUSEL_WALL_CLOCK` or with a file that says nothing.
    public static var override: Override? {
        guard let file else { return nil }
        var info = stat()
        guard stat(file, &info) == 0 else { return nil }
        let stamp = [info.st_mtim.tv_sec, info.st_mtim.tv_nsec]
        return read.withLock { read in
            if read.stamp != stamp {
                let text = (try? String(contentsOfFile: file, encoding: .utf8)) ?? ""
                read = (stamp, Override(String(text.prefix(200))))
            }
            return read.value
        }
    }

    /// Seconds since 1970 on this screen's wall clock.
    public static func now() -> Double {
        SystemClock.wall + (override?.offset ?? 0)
    }
}
