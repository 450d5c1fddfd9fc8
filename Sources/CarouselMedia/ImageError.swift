/// Why an image could not be shown. The description is one line for the log and the
/// event log's `reason`.
public struct ImageError: Error, Sendable, Equatable, CustomStringConvertible {
    public var path: String
    public var reason: String
    /// Not the file's fault (no decoder helper could be started: a machine short of memory
    /// or processes for a while): the picture is tried again, never counted broken.
    public var transient: Bool

    public init(path: String, reason: String, transient: Bool = false) {
        self.path = path
        self.reason = reason
        self.transient = transient
    }

    public var description: String { "\(path): \(reason)" }
}
