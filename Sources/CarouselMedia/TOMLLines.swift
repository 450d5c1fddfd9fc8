import Foundation

/// Finds the line a TOML key sits on. TOMLKit reports lines only for syntax errors; an
/// unknown key or a bad value must name its line too, so this reads the text once more.
public struct TOMLLines: Sendable {
    /// Line (1-based) of each key, by table: "" for the top level, "name" for [name],
    /// "name#3" for the third [[name]].
    private var keys: [String: [String: Int]] = [:]
    /// Line of each table header, same naming.
    private var headers: [String: Int] = [:]

    public init(_ text: String) {
        var table = "", arrayCounts: [String: Int] = [:]
        for (n, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.drop { $0 == " " || $0 == "\t" }
            if line.hasPrefix("[[") {
                let name = Self.bare(line.dropFirst(2).prefix { $0 != "]" })
                arrayCounts[name, default: 0] += 1
                table = "\(name)#\(arrayCounts[name]!)"
                headers[table] = n + 1
            } else if line.hasPrefix("[") {
                table = Self.bare(line.dropFirst().prefix { $0 != "]" })
                headers[table] = n + 1
            } else if let eq = line.firstIndex(of: "="), !line.hasPrefix("#") {
                let key = Self.bare(line[..<eq])
                if keys[table, default: [:]][key] == nil { keys[table, default: [:]][key] = n + 1 }
            }
        }
    }

    /// The line of `key` in `table`, else of the table's header, else nil.
    public func line(of key: String? = nil, in table: String = "") -> Int? {
        if let key, let n = keys[table]?[key] { return n }
        return headers[table]
    }

    private static func bare(_ s: Substring) -> String {
        s.trimmingCharacters(in: CharacterSet(charactersIn: " \t\"'"))
    }
}
