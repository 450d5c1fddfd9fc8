/// The last failure of each web URL, and the line said for it, until the URL works again:
/// a failure is said once per URL and reason. A value kept under `RemoteLibrary`'s lock.
struct FailureBook {
    private var failures: [String: String] = [:]
    private var said: [String: String] = [:]

    func failure(of url: String) -> String? { failures[url] }

    /// Records `reason` for `url`; whether it is new (not the reason already standing).
    mutating func record(_ url: String, reason: String) -> Bool {
        defer { failures[url] = reason }
        return failures[url] != reason
    }

    /// Notes the line said of `url`'s failure.
    mutating func said(_ line: String, of url: String) { said[url] = line }

    /// Whether `line` was said of a failure that still stands.
    func hasSaid(_ line: String) -> Bool { said.values.contains(line) }

    mutating func succeeded(_ url: String) {
        failures.removeValue(forKey: url)
        said.removeValue(forKey: url)
    }
}
