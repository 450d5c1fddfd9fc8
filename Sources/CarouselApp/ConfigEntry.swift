import TOMLReader

/// One key of the effective configuration, as `--print-config` writes it.
struct ConfigEntry {
    enum Value {
        case string(String), number(Double), bool(Bool), strings([String])
    }

    var key: String
    /// Nil when the option is not set; `unset` then says what applies instead.
    var value: Value?
    var unset: String

    init(_ key: String, _ value: Value?, unset: String = "") {
        self.key = key
        self.value = value
        self.unset = unset
    }

    /// The entries as TOML a config file can hold; unset ones as comments.
    static func toml(_ entries: [ConfigEntry]) -> String {
        entries.map { e in
            guard let v = e.value else { return "# \(e.key) = (\(e.unset))\n" }
            return "\(e.key) = \(literal(v))\n"
        }.joined()
    }

    private static func literal(_ v: Value) -> String {
        switch v {
        case .string(let s): return quote(s)
        case .bool(let b): return b ? "true" : "false"
        case .number(let d): return d == d.rounded() && abs(d) < 1e15 ? String(Int(d)) : String(d)
        case .strings(let a): return "[" + a.map(quote).joined(separator: ", ") + "]"
        }
    }

    /// TOML basic strings take JSON's escapes: the event log's quoting serves both.
    private static func quote(_ s: String) -> String { EventLog.quote(s) }
}
