import Foundation

/// Waiting for something another process does: the condition asked every 0.1 s until it
/// holds or `timeout` seconds have passed (what a busy machine needs, never a fixed sleep).
public enum Poll {
    /// Whether `condition` held within `timeout` seconds (asked once more at the end).
    public static func until(_ timeout: Double, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if condition() { return true }
            Thread.sleep(forTimeInterval: 0.1)
        }
        return condition()
    }
}
