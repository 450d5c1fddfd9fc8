import ArgumentParser
import Foundation

/// An error the user must fix, printed as one line: `carousel: <message>`, exit status 1.
public struct Failure: Error, CustomStringConvertible {
    public var description: String
    public init(_ message: String) { description = message }
}

/// One-line messages on standard error.
public enum Log {
    public static func warn(_ message: String) { write("carousel: \(message)") }
    public static func info(_ message: String) { write("carousel: \(message)") }

    private static func write(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}
