import ArgumentParser
import CarouselMedia
import Foundation
import TOMLReader

/// `--config FILE`: a TOML file whose keys are the command's long option names
/// (`autoplay = 8`, `idle-resume = 30` or `idle_resume = 30`, `kiosk = true`) plus
/// `sources = ["/srv/photos"]` for the positional paths. It becomes command-line
/// arguments placed before the real ones, so a flag given on the command line wins.
///
/// Every key is checked on its own by the command's own parser, so an error names the
/// file, the line, the key and what is expected, and a value means the same in the file
/// as on the command line.
struct ConfigFile {
    /// True while one key of a file is checked alone: rules between options (`--mqtt-user`
    /// needs `--mqtt`) wait for the whole file and the command line, which are checked
    /// together after (a file giving both keys was refused at the first of them).
    @TaskLocal static var checkingOneKey = false

    /// Options as arguments, in the file's order.
    var arguments: [String] = []
    /// `sources`, used only when the command line names none.
    var sources: [String] = []

    static let sourcesKey = "sources"

    /// Reads and checks `path` against `command`'s options.
    init(path: String, for command: any ParsableArguments.Type) throws(Failure) {
        let text: String
        do { text = try String(contentsOfFile: path, encoding: .utf8) } catch {
            throw Failure("\(path): cannot be read")
        }
        try self.init(text: text, path: path, for: command)
    }

    /// Checks `text`, the contents of `path`, against `command`'s options.
    init(text: String, path: String, for command: any ParsableArguments.Type) throws(Failure) {
        let table: TOMLTable
        do { table = try TOML.parse(text) } catch {
            throw Failure("\(path):\(error.line): \(error.message)")
        }
        let catalog = OptionCatalog(command)
        // The file's own order, so that two spellings of one key resolve predictably.
        for entry in table.entries {
            let (key, value) = (entry.key, entry.value)
            let at = "\(path):\(entry.line)"
            if key == Self.sourcesKey {
                sources = try Self.strings(value, at: at, key: key)
                continue
            }
            guard let entry = catalog.entry(forKey: key), entry.kind != .positional else {
                throw Failure("\(at): unknown key '\(key)' (expected a command-line option without its dashes, or 'sources'; every key is in kiosk/carousel.toml)")
            }
            let args = try Self.arguments(for: entry, value: value, at: at, key: key)
            do { _ = try Self.$checkingOneKey.withValue(true) { try command.parse(args) } } catch {
                throw Failure("\(at): \(key): \(command.message(for: error))\(Self.expected(entry))")
            }
            arguments += args
        }
    }

    private static func arguments(for entry: OptionCatalog.Entry, value: TOMLValue,
                                  at: String, key: String) throws(Failure) -> [String] {
        if entry.kind == .flag {
            guard let on = value.bool else { throw Failure("\(at): \(key) must be true or false") }
            if on { return ["--" + entry.name] }
            return entry.invertible ? ["--no-" + entry.name] : []
        }
        let text: String
        if let s = value.string { text = s }
        else if let i = value.int { text = String(i) }
        else if let d = value.double { text = String(d) }
        else { throw Failure("\(at): \(key) must be a string or a number\(expected(entry))") }
        return ["--" + entry.name, text]
    }

    private static func strings(_ value: TOMLValue, at: String, key: String) throws(Failure) -> [String] {
        if let s = value.string { return [s] }
        guard let array = value.array else { throw Failure("\(at): \(key) must be a list of paths, like [\"/srv/photos\"]") }
        return try array.map { (v: TOMLValue) throws(Failure) -> String in
            guard let s = v.string else { throw Failure("\(at): \(key) must be a list of paths, like [\"/srv/photos\"]") }
            return s
        }
    }

    private static func expected(_ entry: OptionCatalog.Entry) -> String {
        guard let abstract = entry.abstract, !abstract.isEmpty else { return "" }
        return " (expected \(entry.valueName ?? "a value"): \(abstract))"
    }

    /// The command line with `--config`'s file merged in: the file's options first, so the
    /// command line's win, and the file's sources when the command line names none.
    static func merge<C: ParsableArguments>(_ commandLine: [String], into command: C.Type,
                                            config: (C) -> String?, hasSources: (C) -> Bool) throws -> C {
        let plain = try C.parse(commandLine)
        guard let path = config(plain) else { return plain }
        let file = try ConfigFile(path: path, for: C.self)
        var merged = file.arguments + commandLine
        if !hasSources(plain) && !file.sources.isEmpty { merged += ["--"] + file.sources }
        return try C.parse(merged)
    }
}
