import Foundation
import Testing

/// The host's clocks are read in one file, `Sources/CarouselClock/SystemClock.swift`
/// (issue 61): every other file is handed the time, so a test can hand it another.
@Suite struct ClockReadsTests {
    static let sources = SourcesReadmeTests.root.appendingPathComponent("Sources")
    static let theOneFile = "CarouselClock/SystemClock.swift"

    /// The ways Swift on Linux reads a clock: Foundation's dates and uptime, the C calls
    /// (directly or through CLinux's helpers), Dispatch's and the standard library's clocks.
    static let reads = [#"\bDate\(\)"#, #"Date\.now\b"#, #"timeIntervalSinceNow"#, #"Date\(timeIntervalSinceNow"#,
                        #"\bclock_gettime\("#, #"\bgettimeofday\("#, #"\btime\(nil\)"#, #"\bgetrusage\("#,
                        #"\bkc_monotonic"#, #"systemUptime"#, #"CFAbsoluteTimeGetCurrent"#,
                        #"DispatchTime\.now\(\)\.uptime"#, #"ContinuousClock\(\)\.now"#, #"SuspendingClock\(\)\.now"#]

    /// Every line outside the one file that reads a clock, as "file:line: text"; comments left out.
    static func readingsOutside(in folder: URL) throws -> [String] {
        let patterns = try reads.map { try Regex($0) }
        var found: [String] = []
        guard let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil) else { return [] }
        for case let file as URL in walker where file.pathExtension == "swift" {
            let relative = String(file.path.dropFirst(folder.path.count + 1))
            guard relative != theOneFile else { continue }
            for (n, line) in try String(contentsOf: file, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let code = line.split(separator: "//", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
                // A seccomp list names system calls as strings: not a reading.
                let unquoted = code.replacing(try Regex(#""[^"]*""#), with: "\"\"")
                if patterns.contains(where: { unquoted.contains($0) }) { found.append("\(relative):\(n + 1): \(line.trimmingCharacters(in: .whitespaces))") }
            }
        }
        return found.sorted()
    }

    @Test func noFileButTheClockFileReadsTheHostsClocks() throws {
        let found = try Self.readingsOutside(in: Self.sources)
        #expect(found.isEmpty, "read the time through SystemClock (CarouselClock), not in place:\n\(found.joined(separator: "\n"))")
    }

    /// The rule finds each kind of reading it names, and passes over comments and strings.
    @Test func theRuleFindsAReadingWhereverItIs() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("clock-reads-\(getpid())")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("CarouselClock"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try "let a = Date().timeIntervalSince1970\n".write(to: folder.appendingPathComponent("A.swift"), atomically: true, encoding: .utf8)
        try "var t = timespec()\nclock_gettime(CLOCK_MONOTONIC, &t)\nlet u = ProcessInfo.processInfo.systemUptime\n"
            .write(to: folder.appendingPathComponent("B.swift"), atomically: true, encoding: .utf8)
        try "// Date() in a comment\nlet calls = [\"clock_gettime\", \"gettimeofday\"]\nlet d = numberOrDate()\n"
            .write(to: folder.appendingPathComponent("C.swift"), atomically: true, encoding: .utf8)
        try "let now = Date()\n".write(to: folder.appendingPathComponent(Self.theOneFile), atomically: true, encoding: .utf8)
        #expect(try Self.readingsOutside(in: folder).map { String($0.prefix(while: { $0 != " " })) } == ["A.swift:1:", "B.swift:2:", "B.swift:3:"])
    }
}
