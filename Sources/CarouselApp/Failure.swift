import ArgumentParser
import Foundation

/// An error the user must fix, printed as one line: `carousel: <message>`, exit status 1.
struct Failure: Error, CustomStringConvertible {
    var description: String
    init(_ message: String) { description = message }
}

/// One-line messages on standard error.
enum Log {
    static func warn(_ message: String) { write("carousel: \(message)") }
    static func info(_ message: String) { write("carousel: \(message)") }

    private static func write(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}
