/// `--caption-format`: the caption under the centred item made from its own facts, e.g.
/// `{title}`, `{date:%A %-d %B %Y} · {title}`, `{caption}`. Fields: `title` (the manifest's,
/// else the file name), `caption` (the manifest's), `file` (the file's name), `date` (when
/// it was taken, as its listing or its file says; `{date:FORMAT}` in strftime's format, else
/// `%-d %B %Y`), `place` (where, as its listing says: Immich's city and country, a manifest's
/// `place`; else as its file's GPS falls in GeoNames' places) and `people` (who is in it, as its listing names them, joined by commas).
/// Text between two fields shows only when both do, text before the first field only with
/// it, after the last only with it: `{date} · {title}` of an undated picture is its title
/// alone. `\n` (a backslash and n) starts a second line.
public struct CaptionTemplate: Sendable, Hashable {
    public enum Part: Sendable, Hashable {
        case text(String)
        case field(Field, format: String?)
    }

    public enum Field: String, Sendable, CaseIterable {
        case title, caption, file, date, place, people
    }

    /// The template's lines, each its parts in order.
    public let lines: [[Part]]

    public static let defaultDateFormat = "%-d %B %Y"

    /// What an item's fields say; nil or empty: nothing.
    public struct Facts {
        public var title: String
        public var caption: String?
        public var file: String
        /// `date` formatted with a strftime format (the app's, in the locale's words).
        public var date: ((String) -> String)?
        public var place: String?
        public var people: [String]

        public init(title: String, caption: String?, file: String, date: ((String) -> String)?, place: String? = nil, people: [String] = []) {
            self.title = title
            self.caption = caption
            self.file = file
            self.date = date
            self.place = place
            self.people = people
        }
    }

    public struct ParseError: Error, CustomStringConvertible {
        public var description: String
    }

    public init(parsing template: String) throws(ParseError) {
        var lines: [[Part]] = []
        for line in Self.split(template) {
            var parts: [Part] = []
            var rest = Substring(line)
            while let open = rest.firstIndex(of: "{") {
                if open > rest.startIndex { parts.append(.text(String(rest[..<open]))) }
                guard let close = rest[open...].firstIndex(of: "}") else { throw ParseError(description: "a '{' without its '}'") }
                let inside = rest[rest.index(after: open)..<close]
                let name = inside.prefix { $0 != ":" }
                guard let field = Field(rawValue: String(name)) else {
                    throw ParseError(description: "unknown field {\(inside)} (fields: title, caption, file, date, date:FORMAT, place, people)")
                }
                let format = inside.count > name.count ? String(inside.dropFirst(name.count + 1)) : nil
                if format != nil && field != .date { throw ParseError(description: "{\(inside)}: only date takes a format") }
                if format?.isEmpty == true { throw ParseError(description: "{date:}: the format is empty") }
                parts.append(.field(field, format: format))
                rest = rest[rest.index(after: close)...]
            }
            if !rest.isEmpty { parts.append(.text(String(rest))) }
            lines.append(parts)
        }
        guard lines.contains(where: { $0.contains { if case .field = $0 { true } else { false } } }) else {
            throw ParseError(description: "no field in it (fields: title, caption, file, date, date:FORMAT, place, people)")
        }
        self.lines = lines
    }

    /// `template` cut at each `\n` (a backslash and an n).
    static func split(_ template: String) -> [Substring] {
        var lines: [Substring] = []
        var rest = Substring(template)
        while let at = rest.firstRange(of: "\\n") {
            lines.append(rest[..<at.lowerBound])
            rest = rest[at.upperBound...]
        }
        return lines + [rest]
    }

    /// The caption's lines for an item of `facts`; lines that come out empty are left out.
    /// Whether a line of the template has `field` (what is not asked for is not looked up).
    public func says(_ field: Field) -> Bool {
        lines.contains { $0.contains { if case .field(field, _) = $0 { true } else { false } } }
    }

    public func lines(for facts: Facts) -> [String] {
        lines.compactMap { parts -> String? in
            // Each field's text first, then the text around them kept as the rule says.
            let values: [String?] = parts.map { part in
                guard case let .field(field, format) = part else { return nil }
                switch field {
                case .title: return facts.title
                case .caption: return facts.caption ?? ""
                case .file: return facts.file
                case .date: return facts.date?(format ?? Self.defaultDateFormat) ?? ""
                case .place: return facts.place ?? ""
                case .people: return facts.people.joined(separator: ", ")
                }
            }
            var out = ""
            for (i, part) in parts.enumerated() {
                switch part {
                case .field: out += values[i] ?? ""
                case .text(let text):
                    let before = parts[..<i].lastIndex { if case .field = $0 { true } else { false } }
                    let after = parts[(i + 1)...].firstIndex { if case .field = $0 { true } else { false } }
                    let shownBefore = before.map { !(values[$0] ?? "").isEmpty }
                    let shownAfter = after.map { !(values[$0] ?? "").isEmpty }
                    if (shownBefore ?? true) && (shownAfter ?? true) { out += text }
                }
            }
            let line = out.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed()
            return line.isEmpty ? nil : String(line)
        }
    }

    /// The captions of a pair's pictures (`--pair-portraits`) as one: line by line, each
    /// picture's side by side with " · " between, a line both say alike said once, one
    /// neither says left out.
    public static func side(by each: [[String]]) -> [String] {
        guard each.count > 1 else { return each.first ?? [] }
        let count = each.map(\.count).max() ?? 0
        return (0..<count).compactMap { i in
            var said: [String] = []
            for lines in each where i < lines.count && !lines[i].isEmpty && !said.contains(lines[i]) { said.append(lines[i]) }
            return said.isEmpty ? nil : said.joined(separator: " · ")
        }
    }
}
