import Foundation
import Testing
import FuzzTargets

/// Every input kept in Tests/Fuzz/Corpus (seeds, and those that once found a bug) goes
/// through its parser again: a fixed bug stays fixed.
@Suite struct FuzzCorpusTests {
    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fuzz/Corpus").path

    @Test func everyParserHasACorpusAndEveryCorpusAParser() throws {
        let folders = try FileManager.default.contentsOfDirectory(atPath: Self.corpus).filter { !$0.hasPrefix(".") }.sorted()
        #expect(folders == FuzzTargets.names)
    }

    @Test(arguments: FuzzTargets.names)
    func theCorpusStillParses(_ target: String) throws {
        let folder = Self.corpus + "/" + target
        let files = try FileManager.default.contentsOfDirectory(atPath: folder).filter { !$0.hasPrefix(".") }.sorted()
        #expect(!files.isEmpty, "no inputs for \(target)")
        let parse = try #require(FuzzTargets.all[target])
        for name in files {
            let bytes = try #require(FileManager.default.contents(atPath: folder + "/" + name), "\(name)")
            parse([UInt8](bytes))
        }
    }
}
