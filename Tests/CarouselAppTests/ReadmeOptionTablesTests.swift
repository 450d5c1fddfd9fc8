import Foundation
import Testing
@testable import CarouselApp

/// README's option tables name every option of `carousel run` and `carousel render`, and
/// nothing that is not one, so the user's guide cannot fall behind the command line.
@Suite struct ReadmeOptionTablesTests {
    static let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../README.md").standardized.path

    /// The `--names` in the first column of README's tables (`--no-vsync` counts as `vsync`).
    static func tabled() throws -> Set<String> {
        let text = try String(contentsOfFile: readme, encoding: .utf8)
        var names: Set<String> = []
        for line in text.split(separator: "\n") where line.hasPrefix("| `--") {
            // The first cell ends at the first " |" outside backquotes.
            var cell = "", quoted = false
            for c in line.dropFirst(2) {
                if c == "`" { quoted.toggle() }
                if c == "|" && !quoted && cell.last == " " { break }
                cell.append(c)
            }
            for match in cell.matches(of: /`--([a-z][a-z0-9-]*)/) {
                let name = String(match.1)
                names.insert(name.hasPrefix("no-") ? String(name.dropFirst(3)) : name)
            }
        }
        return names
    }

    /// README is the user's guide: what grows goes into the guides it points to
    /// (kiosk/README.md, Tests/README.md, Sources/README.md). It crept from 509 to 593 lines
    /// in a day once (issue 61); at 520 this fails.
    @Test func theUsersGuideStaysShort() throws {
        let lines = try String(contentsOfFile: Self.readme, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false).count
        #expect(lines <= 520, "README.md has \(lines) lines: move the detail into the guides")
    }

    @Test func everyOptionOfRunAndRenderIsInATable() throws {
        let tabled = try Self.tabled()
        // The config file's own options are in a table too; render's script and output
        // folder are in its synopsis.
        let run = Set(OptionCatalog(RunCommand.self).entries.values.filter { $0.kind != .positional }.map(\.name))
            .union(["config", "print-config"])
        let render = Set(OptionCatalog(RenderCommand.self).entries.values.filter { $0.kind != .positional }.map(\.name))
            .subtracting(["script", "out"])
        #expect(run.count > 50 && render.count > 30)
        let missing = run.union(render).subtracting(tabled)
        #expect(missing.isEmpty, "options missing from README's tables: \(missing.sorted())")
        let unknown = tabled.subtracting(run).subtracting(render)
        #expect(unknown.isEmpty, "README's tables name what is no option: \(unknown.sorted())")
    }
}
