import Foundation

extension EventLog {
    /// The event log's writer: standard output for `-`, else a new (emptied) file. Each line
    /// is written as it happens, so a pipeline reading it sees events at once.
    static func open(_ target: String, tap: (@Sendable (String, [(String, String)], String) -> Void)? = nil) throws -> EventLog {
        if target == "-" {
            return EventLog(write: { FileHandle.standardOutput.write(Data($0.utf8)) }, tap: tap)
        }
        guard FileManager.default.createFile(atPath: target, contents: nil),
              let handle = FileHandle(forWritingAtPath: target) else {
            throw Failure("\(target): cannot write the event log there")
        }
        return EventLog(write: { handle.write(Data($0.utf8)) }, tap: tap)
    }
}
