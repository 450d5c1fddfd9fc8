import ArgumentParser
import Foundation

/// The options a command accepts, as swift-argument-parser describes them (its help dump),
/// so that the config file accepts exactly the command line's options and no list of
/// them is kept twice.
struct OptionCatalog {
    struct Entry: Sendable {
        enum Kind: String, Decodable, Sendable { case flag, option, positional }
        /// The long name without dashes (`idle-resume`); for a positional, its value name.
        var name: String
        var kind: Kind
        /// For flags: whether `--no-NAME` exists.
        var invertible: Bool
        var valueName: String?
        var abstract: String?
    }

    private(set) var entries: [String: Entry] = [:]

    /// Options that only make sense on the command line, never in a file.
    static let commandLineOnly: Set<String> = ["help", "config", "print-config", "version"]

    init(_ command: any ParsableArguments.Type) {
        struct Dump: Decodable {
            struct Command: Decodable { var arguments: [Argument]? }
            struct Argument: Decodable {
                struct Name: Decodable { var kind: String; var name: String }
                var kind: Entry.Kind
                var names: [Name]?
                var valueName: String?
                var abstract: String?
                var shouldDisplay: Bool?
            }
            var command: Command
        }
        guard let dump = try? JSONDecoder().decode(Dump.self, from: Data(command._dumpHelp().utf8)) else { return }
        // An inverted flag is two arguments, `--wrap` and `--no-wrap`: one key, `wrap`.
        let arguments = dump.command.arguments ?? []
        let allLongs = Set(arguments.flatMap { ($0.names ?? []).filter { $0.kind == "long" }.map(\.name) })
        for a in arguments {
            let long = (a.names ?? []).first { $0.kind == "long" }?.name
            guard let name = a.kind == .positional ? a.valueName : long,
                  !Self.commandLineOnly.contains(name),
                  // Hidden options are for the program's own use (the soak's driver).
                  a.shouldDisplay != false,
                  !(name.hasPrefix("no-") && allLongs.contains(String(name.dropFirst(3)))) else { continue }
            entries[name] = Entry(name: name, kind: a.kind, invertible: allLongs.contains("no-" + name),
                                  valueName: a.valueName, abstract: a.abstract)
        }
    }

    /// The entry for a key as written in a file: `idle_resume` and `idle-resume` alike.
    func entry(forKey key: String) -> Entry? {
        entries[key.replacingOccurrences(of: "_", with: "-")]
    }

    var names: [String] { entries.keys.sorted() }
}
