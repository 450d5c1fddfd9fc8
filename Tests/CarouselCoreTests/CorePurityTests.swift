import Foundation
import Testing

/// The engine must stay pure Swift: no SDL, no Foundation, no Glibc, so that it can be
/// tested without a display and no behaviour can depend on a clock or the file system. Its
/// one import is swift-numerics' RealModule (exp and log: arithmetic, no I/O).
@Suite struct CorePurityTests {
    @Test func engineImportsNothing() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let dir = root.appendingPathComponent("Sources/CarouselCore")
        // Every file, in subfolders too.
        let files = (FileManager.default.enumerator(atPath: dir.path)?.allObjects as? [String] ?? []).filter { $0.hasSuffix(".swift") }
        #expect(files.count > 5)
        for file in files {
            let text = try String(contentsOf: dir.appendingPathComponent(file), encoding: .utf8)
            let imports = text.split(separator: "\n").filter {
                $0.trimmingCharacters(in: .whitespaces).range(of: #"^(@\w+\s+)?import\s"#, options: .regularExpression) != nil
            }
            let others = imports.filter { $0.trimmingCharacters(in: .whitespaces) != "import RealModule" }
            #expect(others.isEmpty, "\(file) imports \(others)")
        }
    }
}
