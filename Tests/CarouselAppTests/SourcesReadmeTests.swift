import Foundation
import Testing

/// Sources/README.md's dependency block says what each target imports: it stays true.
@Suite struct SourcesReadmeTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    /// What every Swift file may import without saying so.
    static let system: Set<String> = ["Foundation", "Glibc", "Dispatch", "Synchronization"]

    /// Each target's line of the block: the modules named, parenthesised remarks left out.
    static func documented() throws -> [String: Set<String>] {
        let text = try String(contentsOf: root.appendingPathComponent("Sources/README.md"), encoding: .utf8)
        var out: [String: Set<String>] = [:]
        for line in text.split(separator: "\n") where line.contains(" ─▶ ") {
            let halves = line.components(separatedBy: " ─▶ ")
            let target = halves[0].trimmingCharacters(in: .whitespaces)
            let named = halves[1].replacingOccurrences(of: #"\([^)]*\)"#, with: "", options: .regularExpression)
            out[target] = Set(named.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty })
        }
        return out
    }

    /// The modules a target's Swift files import.
    static func imported(by target: String) throws -> Set<String> {
        let folder = root.appendingPathComponent("Sources/\(target)")
        guard let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil) else { return [] }
        var out: Set<String> = []
        for case let file as URL in walker where file.pathExtension == "swift" {
            let text = try String(contentsOf: file, encoding: .utf8)
            for line in text.split(separator: "\n") {
                let words = line.split(separator: " ")
                guard let i = words.firstIndex(of: "import"), words[..<i].allSatisfy({ $0.hasPrefix("@") || ["public", "internal", "private"].contains($0) }),
                      i + 1 < words.count else { continue }
                out.insert(String(words[i + 1]))
            }
        }
        return out.subtracting(system)
    }

    @Test func everyTargetImportsWhatTheBlockSaysAndNothingElse() throws {
        let documented = try Self.documented()
        let swiftTargets = try FileManager.default.contentsOfDirectory(atPath: Self.root.appendingPathComponent("Sources").path).filter { name in
            (FileManager.default.enumerator(atPath: Self.root.appendingPathComponent("Sources/\(name)").path)?.allObjects as? [String] ?? [])
                .contains { $0.hasSuffix(".swift") }
        }
        #expect(swiftTargets.count >= 9, "\(swiftTargets)")
        for target in swiftTargets.sorted() {
            let actual = try Self.imported(by: target)
            guard let said = documented[target] else {
                Issue.record("Sources/README.md's block has no line for \(target), which imports \(actual.sorted())")
                continue
            }
            let named = said.subtracting(["nothing"])
            #expect(actual.subtracting(named).isEmpty, "\(target) imports \(actual.subtracting(named).sorted()) that Sources/README.md does not list")
            #expect(named.subtracting(actual).isEmpty, "Sources/README.md lists \(named.subtracting(actual).sorted()) for \(target), which does not import them")
        }
    }
}
