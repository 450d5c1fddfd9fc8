/// A TOML 1.0 reader for the config file and manifests: tables, arrays of tables, dotted
/// and quoted keys, every kind of string, integers (decimal, hex, octal, binary), floats,
/// booleans, arrays, inline tables; dates and times are kept as their text. Every key and
/// table comes with its line, so a mistake can be named where it is.
///
/// Our own because TOMLKit 0.6.0 never frees a parsed document (AddressSanitizer's leak
/// checker found it; measured: about 10 KB lost per parse of a 1 KB manifest, for the life
/// of the process), and because these bytes come from outside: it is fuzzed (Tests/Fuzz),
/// nesting is limited, and nothing in it can trap on any input.
public enum TOML {
    public struct Error: Swift.Error, Equatable, Sendable, CustomStringConvertible {
        public var line: Int
        public var message: String
        public var description: String { "\(line): \(message)" }
    }

    /// Arrays and inline tables nested deeper than this are refused (a stack, not a crash).
    public static let maxDepth = 64

    public static func parse(_ text: String) throws(Error) -> TOMLTable {
        var parser = TOMLParser(Array(text.utf8))
        return try parser.document()
    }
}

/// A TOML value. Arrays of tables are arrays of `.table`.
public indirect enum TOMLValue: Equatable, Sendable {
    case string(String)
    case integer(Int)
    case float(Double)
    case bool(Bool)
    /// An offset or local date-time, a date or a time, as written.
    case dateTime(String)
    case array([TOMLValue])
    case table(TOMLTable)

    public var string: String? { if case .string(let s) = self { s } else { nil } }
    public var int: Int? { if case .integer(let i) = self { i } else { nil } }
    public var double: Double? { if case .float(let d) = self { d } else { nil } }
    public var bool: Bool? { if case .bool(let b) = self { b } else { nil } }
    public var array: [TOMLValue]? { if case .array(let a) = self { a } else { nil } }
    public var table: TOMLTable? { if case .table(let t) = self { t } else { nil } }
}

/// A table: its keys in the file's order, each with its value and line.
public struct TOMLTable: Equatable, Sendable {
    public struct Entry: Equatable, Sendable {
        public var key: String
        public var value: TOMLValue
        /// The line of the key, or of the header that opened this table.
        public var line: Int
    }

    public var entries: [Entry]
    /// The line of the header that opened it (1 for the whole document).
    public var line: Int

    public var keys: [String] { entries.map(\.key) }
    public subscript(key: String) -> TOMLValue? { entries.first { $0.key == key }?.value }
    public func line(of key: String) -> Int? { entries.first { $0.key == key }?.line }
}

/// The tree while it is being read: tables are shared so that headers can reopen them.
private final class TableBuilder {
    enum Origin { case implicit, header, dotted, inline }
    enum Item {
        case value(TOMLValue)
        case table(TableBuilder)
        case tables([TableBuilder])
    }
    var order: [String] = []
    var items: [String: (item: Item, line: Int)] = [:]
    var origin: Origin
    let line: Int

    init(origin: Origin, line: Int) {
        self.origin = origin
        self.line = line
    }

    func set(_ key: String, _ item: Item, line: Int) {
        if items[key] == nil { order.append(key) }
        items[key] = (item, line)
    }

    func build() -> TOMLTable {
        TOMLTable(entries: order.map { key in
            let (item, line) = items[key]!
            switch item {
            case .value(let v): return .init(key: key, value: v, line: line)
            case .table(let t): return .init(key: key, value: .table(t.build()), line: line)
            case .tables(let ts): return .init(key: key, value: .array(ts.map { .table($0.build()) }), line: line)
            }
        }, line: line)
    }
}

private struct TOMLParser {
    let b: [UInt8]
    var i = 0
    var line = 1

    init(_ bytes: [UInt8]) { b = bytes }

    // MARK: Bytes

    var atEnd: Bool { i >= b.count }
    func peek(_ k: Int = 0) -> UInt8? { i + k < b.count ? b[i + k] : nil }
    func starts(_ s: String) -> Bool {
        let u = Array(s.utf8)
        return i + u.count <= b.count && Array(b[i..<(i + u.count)]) == u
    }

    func fail(_ message: String, at line: Int? = nil) -> TOML.Error { TOML.Error(line: line ?? self.line, message: message) }

    mutating func skipSpaces() { while let c = peek(), c == 0x20 || c == 0x09 { i += 1 } }

    mutating func skipComment() throws(TOML.Error) {
        guard peek() == 0x23 else { return }
        while let c = peek(), c != 0x0A {
            if c == 0x0D && peek(1) == 0x0A { break }
            if c < 0x20 && c != 0x09 || c == 0x7F { throw fail("a control character in a comment") }
            i += 1
        }
    }

    /// A newline (LF or CRLF); false if there is none here.
    mutating func newline() -> Bool {
        if peek() == 0x0A { i += 1; line += 1; return true }
        if peek() == 0x0D && peek(1) == 0x0A { i += 2; line += 1; return true }
        return false
    }

    /// Spaces, comments and newlines (between array elements).
    mutating func skipBlank() throws(TOML.Error) {
        while true {
            skipSpaces()
            try skipComment()
            if !newline() { return }
        }
    }

    /// The rest of a statement: spaces, a comment, then a newline or the end.
    mutating func endOfStatement() throws(TOML.Error) {
        skipSpaces()
        try skipComment()
        guard atEnd || newline() else { throw fail("expected the end of the line, found '\(character())'") }
    }

    func character() -> String {
        guard let c = peek() else { return "the end of the file" }
        if c < 0x20 || c == 0x7F { return "a control character" }
        var end = i + 1
        while end < b.count && b[end] & 0xC0 == 0x80 && end - i < 4 { end += 1 }
        return String(decoding: b[i..<end], as: UTF8.self)
    }

    // MARK: Document

    mutating func document() throws(TOML.Error) -> TOMLTable {
        let root = TableBuilder(origin: .header, line: 1)
        var current = root
        while true {
            try skipBlank()
            guard !atEnd else { break }
            if starts("[[") {
                let at = line
                i += 2
                skipSpaces()
                let path = try key()
                skipSpaces()
                guard starts("]]") else { throw fail("expected ]] after the table name") }
                i += 2
                current = try arrayTable(root, path, line: at)
            } else if peek() == 0x5B {
                let at = line
                i += 1
                skipSpaces()
                let path = try key()
                skipSpaces()
                guard peek() == 0x5D else { throw fail("expected ] after the table name") }
                i += 1
                current = try table(root, path, line: at)
            } else {
                try keyValue(into: current, depth: 0)
            }
            try endOfStatement()
        }
        return root.build()
    }

    /// Walks `path` (all but its last key) from `root`, making implicit tables.
    func walk(_ root: TableBuilder, _ path: ArraySlice<String>, line: Int) throws(TOML.Error) -> TableBuilder {
        var t = root
        for k in path {
            switch t.items[k]?.item {
            case nil:
                let next = TableBuilder(origin: .implicit, line: line)
                t.set(k, .table(next), line: line)
                t = next
            case .table(let next):
                guard next.origin != .inline else { throw fail("'\(k)' is an inline table, which cannot be added to", at: line) }
                t = next
            case .tables(let list):
                t = list[list.count - 1]
            case .value:
                throw fail("'\(k)' is already a value, not a table", at: line)
            }
        }
        return t
    }

    func table(_ root: TableBuilder, _ path: [String], line: Int) throws(TOML.Error) -> TableBuilder {
        let parent = try walk(root, path.dropLast(), line: line)
        let name = path[path.count - 1]
        switch parent.items[name]?.item {
        case nil:
            let t = TableBuilder(origin: .header, line: line)
            parent.set(name, .table(t), line: line)
            return t
        case .table(let t) where t.origin == .implicit:
            t.origin = .header
            return t
        default:
            throw fail("[\(path.joined(separator: "."))] is defined twice", at: line)
        }
    }

    func arrayTable(_ root: TableBuilder, _ path: [String], line: Int) throws(TOML.Error) -> TableBuilder {
        let parent = try walk(root, path.dropLast(), line: line)
        let name = path[path.count - 1]
        let t = TableBuilder(origin: .header, line: line)
        switch parent.items[name]?.item {
        case nil:
            parent.set(name, .tables([t]), line: line)
        case .tables(let list):
            parent.set(name, .tables(list + [t]), line: parent.items[name]!.line)
        default:
            throw fail("[[\(path.joined(separator: "."))]]: '\(name)' is already something else", at: line)
        }
        return t
    }

    mutating func keyValue(into table: TableBuilder, depth: Int) throws(TOML.Error) {
        let at = line
        let path = try key()
        skipSpaces()
        guard peek() == 0x3D else { throw fail("expected = after the key '\(path.joined(separator: "."))'") }
        i += 1
        skipSpaces()
        let v = try value(depth: depth)
        var t = table
        for k in path.dropLast() {
            switch t.items[k]?.item {
            case nil:
                let next = TableBuilder(origin: .dotted, line: at)
                t.set(k, .table(next), line: at)
                t = next
            case .table(let next) where next.origin == .dotted || next.origin == .implicit:
                t = next
            default:
                throw fail("'\(k)' is already defined", at: at)
            }
        }
        let name = path[path.count - 1]
        guard t.items[name] == nil else { throw fail("'\(path.joined(separator: "."))' is defined twice", at: at) }
        if case .table(let inline) = v {
            let builder = TableBuilder(origin: .inline, line: at)
            Self.fill(builder, from: inline)
            t.set(name, .table(builder), line: at)
        } else {
            t.set(name, .value(v), line: at)
        }
    }

    static func fill(_ builder: TableBuilder, from table: TOMLTable) {
        for e in table.entries { builder.set(e.key, .value(e.value), line: e.line) }
    }

    /// A dotted key: simple keys joined by dots.
    mutating func key() throws(TOML.Error) -> [String] {
        var parts = [try simpleKey()]
        while true {
            let save = i
            skipSpaces()
            guard peek() == 0x2E else { i = save; return parts }
            i += 1
            skipSpaces()
            parts.append(try simpleKey())
        }
    }

    mutating func simpleKey() throws(TOML.Error) -> String {
        if peek() == 0x22 {
            guard !starts("\"\"\"") else { throw fail("a key cannot be a multi-line string") }
            return try basicString()
        }
        if peek() == 0x27 {
            guard !starts("'''") else { throw fail("a key cannot be a multi-line string") }
            return try literalString()
        }
        let start = i
        while let c = peek(), Self.isBare(c) { i += 1 }
        guard i > start else { throw fail("expected a key, found \(character())") }
        return String(decoding: b[start..<i], as: UTF8.self)
    }

    static func isBare(_ c: UInt8) -> Bool {
        (0x41...0x5A).contains(c) || (0x61...0x7A).contains(c) || (0x30...0x39).contains(c) || c == 0x5F || c == 0x2D
    }

    // MARK: Values

    mutating func value(depth: Int) throws(TOML.Error) -> TOMLValue {
        guard depth < TOML.maxDepth else { throw fail("arrays or tables nested more than \(TOML.maxDepth) deep") }
        guard let c = peek() else { throw fail("expected a value, found the end of the file") }
        switch c {
        case 0x22: return .string(starts("\"\"\"") ? try multilineBasicString() : try basicString())
        case 0x27: return .string(starts("'''") ? try multilineLiteralString() : try literalString())
        case 0x5B: return try array(depth: depth + 1)
        case 0x7B: return try inlineTable(depth: depth + 1)
        default:
            if starts("true") && !followedByBare(4) { i += 4; return .bool(true) }
            if starts("false") && !followedByBare(5) { i += 5; return .bool(false) }
            return try numberOrDate()
        }
    }

    func followedByBare(_ n: Int) -> Bool { peek(n).map(Self.isBare) ?? false }

    mutating func array(depth: Int) throws(TOML.Error) -> TOMLValue {
        let opened = line
        i += 1
        var items: [TOMLValue] = []
        while true {
            try skipBlank()
            guard !atEnd else { throw fail("the array that begins here is never closed", at: opened) }
            if peek() == 0x5D { i += 1; return .array(items) }
            items.append(try value(depth: depth))
            try skipBlank()
            if peek() == 0x2C { i += 1; continue }
            guard peek() == 0x5D else {
                throw atEnd ? fail("the array that begins here is never closed", at: opened)
                            : fail("expected , or ] in an array, found \(character())")
            }
        }
    }

    mutating func inlineTable(depth: Int) throws(TOML.Error) -> TOMLValue {
        let opened = line
        i += 1
        let builder = TableBuilder(origin: .header, line: opened)
        skipSpaces()
        if peek() == 0x7D { i += 1; return .table(builder.build()) }
        while true {
            skipSpaces()
            try keyValue(into: builder, depth: depth)
            skipSpaces()
            if peek() == 0x2C { i += 1; continue }
            if peek() == 0x7D { i += 1; return .table(builder.build()) }
            throw atEnd || peek() == 0x0A ? fail("the inline table that begins here is not closed on its line", at: opened)
                                           : fail("expected , or } in an inline table, found \(character())")
        }
    }

    /// Appends one Unicode scalar as UTF-8.
    static func append(_ scalar: Unicode.Scalar, to out: inout [UInt8]) {
        out.append(contentsOf: Array(String(Character(scalar)).utf8))
    }

    mutating func escape(into out: inout [UInt8]) throws(TOML.Error) {
        i += 1  // the backslash
        guard let c = peek() else { throw fail("a string ends in a backslash") }
        i += 1
        switch c {
        case 0x62: out.append(0x08)
        case 0x74: out.append(0x09)
        case 0x6E: out.append(0x0A)
        case 0x66: out.append(0x0C)
        case 0x72: out.append(0x0D)
        case 0x22: out.append(0x22)
        case 0x5C: out.append(0x5C)
        case 0x75, 0x55:
            let n = c == 0x75 ? 4 : 8
            guard i + n <= b.count, let v = UInt32(String(decoding: b[i..<(i + n)], as: UTF8.self), radix: 16),
                  let scalar = Unicode.Scalar(v) else {
                throw fail("\\\(c == 0x75 ? "u" : "U") must be followed by \(n) hex digits of a Unicode scalar")
            }
            i += n
            Self.append(scalar, to: &out)
        default:
            i -= 1
            throw fail("unknown escape \\\(character())")
        }
    }

    mutating func basicString() throws(TOML.Error) -> String {
        i += 1
        var out: [UInt8] = []
        while true {
            guard let c = peek(), c != 0x0A else { throw fail("a string is not closed on its line") }
            if c == 0x22 { i += 1; return String(decoding: out, as: UTF8.self) }
            if c == 0x5C { try escape(into: &out); continue }
            if c < 0x20 && c != 0x09 || c == 0x7F { throw fail("a control character in a string (write it as an escape)") }
            out.append(c)
            i += 1
        }
    }

    mutating func literalString() throws(TOML.Error) -> String {
        i += 1
        let start = i
        while true {
            guard let c = peek(), c != 0x0A else { throw fail("a string is not closed on its line") }
            if c == 0x27 { i += 1; return String(decoding: b[start..<(i - 1)], as: UTF8.self) }
            if c < 0x20 && c != 0x09 || c == 0x7F { throw fail("a control character in a string") }
            i += 1
        }
    }

    mutating func multilineBasicString() throws(TOML.Error) -> String {
        let opened = line
        i += 3
        _ = newline()  // a newline right after the opening quotes is not part of the string
        var out: [UInt8] = []
        while true {
            guard let c = peek() else { throw fail("the string that begins here is never closed", at: opened) }
            if starts("\"\"\"") {
                // Up to two quotes may end the content just before the closing three.
                var quotes = 3
                while peek(quotes) == 0x22 && quotes < 5 { quotes += 1 }
                out.append(contentsOf: [UInt8](repeating: 0x22, count: quotes - 3))
                i += quotes
                return String(decoding: out, as: UTF8.self)
            }
            if c == 0x5C {
                // A backslash at the end of a line swallows the line break and the blanks after it.
                var k = i + 1
                while k < b.count && (b[k] == 0x20 || b[k] == 0x09) { k += 1 }
                if k < b.count && (b[k] == 0x0A || (b[k] == 0x0D && k + 1 < b.count && b[k + 1] == 0x0A)) {
                    i = k
                    while true {
                        skipSpaces()
                        if !newline() { break }
                    }
                    continue
                }
                try escape(into: &out)
                continue
            }
            if newline() { out.append(0x0A); continue }
            if c < 0x20 && c != 0x09 || c == 0x7F { throw fail("a control character in a string (write it as an escape)") }
            out.append(c)
            i += 1
        }
    }

    mutating func multilineLiteralString() throws(TOML.Error) -> String {
        let opened = line
        i += 3
        _ = newline()
        var out: [UInt8] = []
        while true {
            guard let c = peek() else { throw fail("the string that begins here is never closed", at: opened) }
            if starts("'''") {
                var quotes = 3
                while peek(quotes) == 0x27 && quotes < 5 { quotes += 1 }
                out.append(contentsOf: [UInt8](repeating: 0x27, count: quotes - 3))
                i += quotes
                return String(decoding: out, as: UTF8.self)
            }
            if newline() { out.append(0x0A); continue }
            if c < 0x20 && c != 0x09 || c == 0x7F { throw fail("a control character in a string") }
            out.append(c)
            i += 1
        }
    }

    // MARK: Numbers and dates

    mutating func numberOrDate() throws(TOML.Error) -> TOMLValue {
        let start = i
        while let c = peek(), Self.isBare(c) || c == 0x2B || c == 0x2E || c == 0x3A { i += 1 }
        // A date and a time may be parted by a space: "1979-05-27 07:32:00".
        if i - start == 10, peek() == 0x20, let d = peek(1), (0x30...0x39).contains(d), b[start + 4] == 0x2D {
            i += 1
            while let c = peek(), Self.isBare(c) || c == 0x2B || c == 0x2E || c == 0x3A { i += 1 }
        }
        let token = String(decoding: b[start..<i], as: UTF8.self)
        guard !token.isEmpty else { throw fail("expected a value, found \(character())") }
        if let v = Self.number(token) { return v }
        if Self.isDateTime(token) { return .dateTime(token) }
        i = start
        throw fail("'\(token)' is not a value (a string needs quotes)")
    }

    static func number(_ token: String) -> TOMLValue? {
        var t = Substring(token)
        switch t {
        case "inf", "+inf": return .float(.infinity)
        case "-inf": return .float(-.infinity)
        case "nan", "+nan", "-nan": return .float(.nan)
        default: break
        }
        for (prefix, radix) in [("0x", 16), ("0o", 8), ("0b", 2)] where t.hasPrefix(prefix) {
            let digits = t.dropFirst(2)
            guard let clean = underscored(digits), let v = Int(clean, radix: radix) else { return nil }
            return .integer(v)
        }
        var sign = ""
        if t.first == "+" || t.first == "-" { sign = String(t.first!); t = t.dropFirst() }
        guard let first = t.first, first.isASCII, first.isNumber else { return nil }
        let isFloat = t.contains { $0 == "." || $0 == "e" || $0 == "E" }
        if isFloat {
            // Digits on both sides of the dot; an exponent after digits.
            let mantissa = t.prefix { $0 != "e" && $0 != "E" }
            let exponent = t.dropFirst(mantissa.count)
            let parts = mantissa.split(separator: ".", omittingEmptySubsequences: false)
            guard parts.count <= 2, let whole = underscored(parts[0]), !hasLeadingZero(whole) else { return nil }
            if parts.count == 2 { guard underscored(parts[1]) != nil else { return nil } }
            var text = sign + whole + (parts.count == 2 ? "." + underscored(parts[1])! : "")
            if !exponent.isEmpty {
                var e = exponent.dropFirst()
                var eSign = ""
                if e.first == "+" || e.first == "-" { eSign = String(e.first!); e = e.dropFirst() }
                guard let digits = underscored(e) else { return nil }
                text += "e" + eSign + digits
            }
            guard let d = Double(text) else { return nil }
            return .float(d)
        }
        guard let clean = underscored(t), !hasLeadingZero(clean), let v = Int(sign + clean) else { return nil }
        return .integer(v)
    }

    /// Digits with single underscores between them, without the underscores; nil otherwise.
    static func underscored(_ s: Substring) -> String? {
        guard let f = s.first, let l = s.last, f != "_", l != "_", !s.contains("__") else { return nil }
        let digits = s.filter { $0 != "_" }
        guard digits.allSatisfy({ $0.isASCII && $0.isHexDigit }) else { return nil }
        return String(digits)
    }

    static func hasLeadingZero(_ digits: String) -> Bool { digits.count > 1 && digits.first == "0" }

    /// 1979-05-27, 07:32:00, 1979-05-27T07:32:00Z, with fractions and offsets.
    static func isDateTime(_ token: String) -> Bool {
        let allowed = Set("0123456789-:.TtZz+ ")
        guard token.allSatisfy(allowed.contains), token.first?.isNumber == true else { return false }
        let date = token.count >= 10 && token.prefix(10).enumerated().allSatisfy { k, c in
            (k == 4 || k == 7) ? c == "-" : c.isNumber
        }
        let time = token.count >= 8 && token.prefix(8).enumerated().allSatisfy { k, c in
            (k == 2 || k == 5) ? c == ":" : c.isNumber
        }
        return date || time
    }
}
