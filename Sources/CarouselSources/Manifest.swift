import CarouselMedia
import CarouselCore
import TOMLReader

/// A TOML file listing the images to show, in order, each with an optional title and
/// caption:
///
///     [[item]]
///     path = "harbour.jpg"        # relative to the manifest's folder, or absolute
///     title = "Harbour at dawn"   # default: the file name without extension
///     caption = "Taken from the north pier"
///
/// Every error names the manifest, the line and what is wrong.
public enum Manifest {
    public struct Problem: Error, CustomStringConvertible, Equatable {
        public var file: String
        public var line: Int?
        public var message: String
        public var description: String { "\(file)\(line.map { ":\($0)" } ?? ""): \(message)" }
    }

    /// `motion`: the clip that is the picture's motion (a Live Photo's), a path or URL as `path`.
    static let itemKeys = ["path", "title", "caption", "motion", "taken", "place"]

    /// The items of the manifest text `text`, read from `file` (which paths are relative to).
    public static func parse(_ text: String, file: String) throws(Problem) -> [ImageSource] {
        let folder = file.contains("/") ? String(file[..<file.lastIndex(of: "/")!]) : "."
        return try parse(text, file: file) { path in path.hasPrefix("/") ? path : folder + "/" + path }
    }

    /// The items of a manifest downloaded from `url`: each path is a URL, absolute or
    /// relative to the manifest's (`a.jpg`, `../b.jpg`, `/c.jpg`). A server cannot make the
    /// kiosk read its own files: any scheme but http and https is refused.
    public static func parse(_ text: String, url: String) throws(Problem) -> [ImageSource] {
        try parse(text, file: url) { RemoteURL.resolve($0, against: url) }
    }

    /// `resolve` turns an item's path into what is shown; nil: the path is refused.
    private static func parse(_ text: String, file: String, resolve: (String) -> String?) throws(Problem) -> [ImageSource] {
        let table: TOMLTable
        do { table = try TOML.parse(text) } catch {
            throw Problem(file: file, line: error.line, message: error.message)
        }
        for entry in table.entries where entry.key != "item" {
            throw Problem(file: file, line: entry.line,
                          message: "unknown key '\(entry.key)' (a manifest holds [[item]] tables)")
        }
        guard let value = table["item"] else { return [] }
        let itemLine = table.line(of: "item")
        guard let array = value.array, array.allSatisfy({ $0.table != nil }) else {
            throw Problem(file: file, line: itemLine, message: "'item' must be an array of tables: write [[item]]")
        }
        var sources: [ImageSource] = []
        for (i, element) in array.enumerated() {
            guard let item = element.table else { continue }
            for entry in item.entries where !itemKeys.contains(entry.key) && !["people", "width", "height"].contains(entry.key) {
                throw Problem(file: file, line: entry.line,
                              message: "unknown key '\(entry.key)' in item \(i + 1) (expected path, title, caption, motion, taken, place, people, width or height)")
            }
            var strings: [String: String] = [:]
            for key in itemKeys {
                guard let v = item[key] else { continue }
                guard let s = v.string else {
                    throw Problem(file: file, line: item.line(of: key), message: "'\(key)' in item \(i + 1) must be a string")
                }
                strings[key] = s
            }
            guard let path = strings["path"], !path.isEmpty else {
                throw Problem(file: file, line: item.line, message: "item \(i + 1) has no path")
            }
            guard let full = resolve(path) else {
                throw Problem(file: file, line: item.line(of: "path"),
                              message: "path '\(path)' in item \(i + 1) is not a web address (http or https) nor one relative to the manifest's")
            }
            var motion: String? = nil
            if let clip = strings["motion"] {
                guard let resolved = resolve(clip) else {
                    throw Problem(file: file, line: item.line(of: "motion"),
                                  message: "motion '\(clip)' in item \(i + 1) is not a web address (http or https) nor one relative to the manifest's")
                }
                motion = resolved
            }
            if let taken = strings["taken"], PhotoDate(listed: taken) == nil {
                throw Problem(file: file, line: item.line(of: "taken"),
                              message: "taken '\(taken)' in item \(i + 1) is not a date (2024-07-14, 2024-07-14T18:22:05, 2024-07-14T18:22:05+02:00)")
            }
            var people: [String] = []
            if let value = item["people"] {
                guard let list = value.array?.compactMap(\.string), list.count == value.array?.count else {
                    throw Problem(file: file, line: item.line(of: "people"), message: "'people' in item \(i + 1) must be a list of names")
                }
                people = list
            }
            // The picture's size as shown (upright), both or neither: its shape before it is
            // fetched (`--pair-portraits` pairs web pictures by it).
            var aspect: Double? = nil
            if item["width"] != nil || item["height"] != nil {
                func size(_ key: String) -> Int? { item[key]?.int.flatMap { (1...1_000_000).contains($0) ? $0 : nil } }
                guard let w = size("width"), let h = size("height") else {
                    // The line of what is wrong: a bad width's, else the height's (bad or missing).
                    let wrong = item["width"] != nil && size("width") == nil || item["height"] == nil ? "width" : "height"
                    throw Problem(file: file, line: item.line(of: wrong),
                                  message: "'width' and 'height' in item \(i + 1) must both be given, as whole pixels from 1 to 1000000")
                }
                aspect = Double(h) / Double(w)
            }
            var source = ImageSource(path: full, title: strings["title"], caption: strings["caption"], motion: motion,
                                     taken: strings["taken"], place: strings["place"], people: people)
            source.aspect = aspect
            sources.append(source)
        }
        return sources
    }

    /// `items` as a manifest (TOML) that `parse` reads back: a listing (Immich's, a WebDAV
    /// folder's) kept in the cache, which an offline start shows.
    public static func text(of items: [ImageSource]) -> String {
        func quoted(_ s: String) -> String {
            var out = "\""
            for u in s.unicodeScalars {
                switch u {
                case "\"": out += "\\\""
                case "\\": out += "\\\\"
                case _ where u.value < 0x20 || u.value == 0x7F: out += String(format: "\\u%04X", u.value)
                default: out.unicodeScalars.append(u)
                }
            }
            return out + "\""
        }
        return items.map { item in
            "[[item]]\npath = \(quoted(item.path))\ntitle = \(quoted(item.title))\n" + (item.motion.map { "motion = \(quoted($0))\n" } ?? "")
                + (item.taken.map { "taken = \(quoted($0))\n" } ?? "") + (item.place.map { "place = \(quoted($0))\n" } ?? "")
                + (item.people.isEmpty ? "" : "people = [" + item.people.map(quoted).joined(separator: ", ") + "]\n")
                + (item.aspect.flatMap { a in a.isFinite && a >= 1e-5 && a <= 100 ? "width = 10000\nheight = \(max(1, Int((a * 10000).rounded())))\n" : nil } ?? "")
        }.joined(separator: "\n")
    }
}
