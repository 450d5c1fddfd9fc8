/// Just enough XML for a WebDAV server's answers, read from bytes a server sent and trusted
/// in nothing: elements with their namespaces resolved (`xmlns` and `xmlns:p` in scope),
/// text with the five predefined entities and character references, CDATA; comments and
/// processing instructions passed over. A document type declaration is refused (no entity
/// of the server's own is ever expanded), and so is anything not well formed, nesting
/// deeper than `maxDepth`, or a name, attribute or text longer than `maxToken` bytes.
struct XMLScanner {
    /// One thing read: an element's start (its namespace and local name), its end, or text.
    enum Event: Equatable {
        case start(namespace: String, name: String)
        case end(namespace: String, name: String)
        case text(String)
    }

    struct Problem: Error, Equatable, CustomStringConvertible {
        var description: String
    }

    static let maxDepth = 64
    static let maxToken = 64 * 1024

    private let bytes: [UInt8]
    private var at = 0
    /// Open elements: their qualified names, and the prefixes each declared.
    private var open: [(qualified: [UInt8], declared: [String: String])] = []
    private var pendingEnd: Event?
    private var seenRoot = false

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// The next event; nil at the end of a well-formed document.
    mutating func next() throws(Problem) -> Event? {
        if let end = pendingEnd {
            pendingEnd = nil
            return end
        }
        while at < bytes.count {
            if bytes[at] != UInt8(ascii: "<") {
                let text = try readText()
                if open.isEmpty {
                    guard text.allSatisfy({ $0 == " " || $0 == "\n" || $0 == "\r" || $0 == "\t" }) else {
                        throw problem("text outside the document's element")
                    }
                    continue
                }
                return .text(text)
            }
            if starts(with: "<?") { try skip(past: "?>"); continue }
            if starts(with: "<!--") { try skip(past: "-->"); continue }
            if starts(with: "<![CDATA[") {
                guard !open.isEmpty else { throw problem("CDATA outside the document's element") }
                at += 9
                let start = at
                try skip(past: "]]>")
                guard at - 3 - start <= Self.maxToken else { throw problem("text longer than \(Self.maxToken) bytes") }
                return .text(String(decoding: bytes[start..<(at - 3)], as: UTF8.self))
            }
            if starts(with: "<!") { throw problem("a document type declaration (refused)") }
            if starts(with: "</") { return try readEnd() }
            return try readStart()
        }
        guard open.isEmpty else { throw problem("ends inside an element") }
        guard seenRoot else { throw problem("holds no element") }
        return nil
    }

    // MARK: - Pieces

    private mutating func readStart() throws(Problem) -> Event {
        guard open.isEmpty ? !seenRoot : true else { throw problem("a second element after the document's") }
        guard open.count < Self.maxDepth else { throw problem("elements nested deeper than \(Self.maxDepth)") }
        at += 1
        let qualified = try readName()
        var declared: [String: String] = [:]
        var selfClosing = false
        while true {
            skipSpace()
            guard at < bytes.count else { throw problem("ends inside a tag") }
            if bytes[at] == UInt8(ascii: ">") { at += 1; break }
            if starts(with: "/>") { at += 2; selfClosing = true; break }
            let attribute = try readName()
            skipSpace()
            guard at < bytes.count, bytes[at] == UInt8(ascii: "=") else { throw problem("an attribute without a value") }
            at += 1
            skipSpace()
            let value = try readQuoted()
            let name = String(decoding: attribute, as: UTF8.self)
            if name == "xmlns" { declared[""] = value } else if name.hasPrefix("xmlns:") { declared[String(name.dropFirst(6))] = value }
        }
        open.append((qualified, declared))
        seenRoot = true
        let (namespace, local) = try resolve(qualified)
        if selfClosing {
            open.removeLast()
            pendingEnd = .end(namespace: namespace, name: local)
        }
        return .start(namespace: namespace, name: local)
    }

    private mutating func readEnd() throws(Problem) -> Event {
        at += 2
        let qualified = try readName()
        skipSpace()
        guard at < bytes.count, bytes[at] == UInt8(ascii: ">") else { throw problem("an end tag not closed") }
        at += 1
        guard let last = open.last, last.qualified == qualified else {
            throw problem("an end tag </\(String(decoding: qualified, as: UTF8.self))> that closes nothing open")
        }
        let (namespace, local) = try resolve(qualified)
        open.removeLast()
        return .end(namespace: namespace, name: local)
    }

    /// A qualified name's namespace (from the innermost declaration of its prefix) and local part.
    private func resolve(_ qualified: [UInt8]) throws(Problem) -> (String, String) {
        let name = String(decoding: qualified, as: UTF8.self)
        let prefix: String, local: String
        if let colon = name.firstIndex(of: ":") {
            prefix = String(name[..<colon])
            local = String(name[name.index(after: colon)...])
        } else {
            prefix = ""
            local = name
        }
        for element in open.reversed() {
            if let namespace = element.declared[prefix] { return (namespace, local) }
        }
        if prefix.isEmpty { return ("", local) }
        if prefix == "xml" { return ("http://www.w3.org/XML/1998/namespace", local) }
        throw problem("the prefix \(prefix) is not declared")
    }

    private mutating func readName() throws(Problem) -> [UInt8] {
        let start = at
        while at < bytes.count, !Self.endsName(bytes[at]) { at += 1 }
        guard at > start else { throw problem("a tag without a name") }
        guard at - start <= Self.maxToken else { throw problem("a name longer than \(Self.maxToken) bytes") }
        return Array(bytes[start..<at])
    }

    private mutating func readQuoted() throws(Problem) -> String {
        guard at < bytes.count, bytes[at] == UInt8(ascii: "\"") || bytes[at] == UInt8(ascii: "'") else {
            throw problem("an attribute value without quotes")
        }
        let quote = bytes[at]
        at += 1
        let start = at
        while at < bytes.count, bytes[at] != quote {
            if bytes[at] == UInt8(ascii: "<") { throw problem("a '<' in an attribute value") }
            at += 1
        }
        guard at < bytes.count else { throw problem("ends inside an attribute value") }
        guard at - start <= Self.maxToken else { throw problem("an attribute value longer than \(Self.maxToken) bytes") }
        at += 1
        return try Self.unescape(bytes[start..<(at - 1)])
    }

    private mutating func readText() throws(Problem) -> String {
        let start = at
        while at < bytes.count, bytes[at] != UInt8(ascii: "<") { at += 1 }
        guard at - start <= Self.maxToken else { throw problem("text longer than \(Self.maxToken) bytes") }
        return try Self.unescape(bytes[start..<at])
    }

    /// Text with its references replaced: `&amp;` `&lt;` `&gt;` `&quot;` `&apos;`, `&#N;`, `&#xN;`.
    static func unescape(_ raw: ArraySlice<UInt8>) throws(Problem) -> String {
        guard raw.contains(UInt8(ascii: "&")) else { return String(decoding: raw, as: UTF8.self) }
        var out: [UInt8] = []
        out.reserveCapacity(raw.count)
        var i = raw.startIndex
        while i < raw.endIndex {
            guard raw[i] == UInt8(ascii: "&") else { out.append(raw[i]); i += 1; continue }
            guard let semicolon = raw[i...].prefix(12).firstIndex(of: UInt8(ascii: ";")) else {
                throw Problem(description: "an '&' that starts no reference")
            }
            let name = String(decoding: raw[(i + 1)..<semicolon], as: UTF8.self)
            switch name {
            case "amp": out.append(UInt8(ascii: "&"))
            case "lt": out.append(UInt8(ascii: "<"))
            case "gt": out.append(UInt8(ascii: ">"))
            case "quot": out.append(UInt8(ascii: "\""))
            case "apos": out.append(UInt8(ascii: "'"))
            default:
                let code: UInt32?
                if name.hasPrefix("#x") || name.hasPrefix("#X") { code = UInt32(name.dropFirst(2), radix: 16) }
                else if name.hasPrefix("#") { code = UInt32(name.dropFirst(), radix: 10) }
                else { throw Problem(description: "an unknown entity &\(name);") }
                guard let code, code != 0, let scalar = Unicode.Scalar(code) else {
                    throw Problem(description: "a character reference &\(name); to no character")
                }
                out += Array(String(Character(scalar)).utf8)
            }
            i = semicolon + 1
        }
        return String(decoding: out, as: UTF8.self)
    }

    private mutating func skipSpace() {
        while at < bytes.count, bytes[at] == 0x20 || bytes[at] == 0x0A || bytes[at] == 0x0D || bytes[at] == 0x09 { at += 1 }
    }

    private func starts(with text: StaticString) -> Bool {
        let count = text.utf8CodeUnitCount
        guard at + count <= bytes.count else { return false }
        return text.withUTF8Buffer { pattern in (0..<count).allSatisfy { bytes[at + $0] == pattern[$0] } }
    }

    /// Moves past the next `end`; its absence is a document cut short.
    private mutating func skip(past end: StaticString) throws(Problem) {
        while at < bytes.count {
            if starts(with: end) { at += end.utf8CodeUnitCount; return }
            at += 1
        }
        throw problem("ends inside a comment, CDATA or processing instruction")
    }

    private static func endsName(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 || byte == UInt8(ascii: ">") || byte == UInt8(ascii: "/")
            || byte == UInt8(ascii: "=") || byte == UInt8(ascii: "<") || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'")
    }

    private func problem(_ what: String) -> Problem {
        let line = bytes[..<min(at, bytes.count)].reduce(1) { $0 + ($1 == 0x0A ? 1 : 0) }
        return Problem(description: "line \(line): \(what)")
    }
}
