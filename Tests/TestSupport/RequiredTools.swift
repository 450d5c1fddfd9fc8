import Foundation

/// The outside programs some suites need (Xvfb and xdotool, mosquitto, Apache httpd), which kiosk/setup
/// installs. On a developer's machine without one, its suites are skipped and say why; where
/// CAROUSEL_TESTS_REQUIRE_TOOLS=1 (CI sets it) they run and fail, naming what is missing, so
/// that a green run never hides a check that did not happen.
public enum RequiredTools {
    public static let required = ProcessInfo.processInfo.environment["CAROUSEL_TESTS_REQUIRE_TOOLS"] == "1"

    /// Whether a suite whose tools are missing for `reason` (nil: none missing) runs.
    public static func run(missing reason: String?) -> Bool { reason == nil || required }

    /// Fails the test when `reason` says a tool is missing.
    public static func check(_ reason: String?) throws {
        if let reason { throw Missing(description: reason) }
    }

    public struct Missing: Error, CustomStringConvertible {
        public let description: String
    }
}
