import Foundation
import Testing
import TestSupport

/// The suite's outside programs are named in one place (`OutsideProgram`), and each comes
/// from a package kiosk/setup installs: on a fresh machine, `kiosk/setup && swift test` has
/// everything the tests run (issue 58: ImageMagick was installed only by `kiosk/setup --vm`).
@Suite struct OutsideProgramsTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// Every absolute path of a program (`/usr/bin/…`, `/usr/sbin/…`, `/bin/…`, `/sbin/…`)
    /// written anywhere in the tests, outside the list itself, as "file:line: path".
    static func programPathsNamedByTheTests() throws -> [(place: String, path: String)] {
        let tests = repository.appendingPathComponent("Tests").path
        let pattern = try NSRegularExpression(pattern: #"(?<![A-Za-z0-9_.~-])(?:/usr)?/s?bin/[A-Za-z0-9_.+-]+"#)
        var found: [(String, String)] = []
        let files = FileManager.default.enumerator(atPath: tests)?.compactMap { $0 as? String } ?? []
        for file in files.sorted() where file.hasSuffix(".swift") && !file.hasSuffix("/OutsidePrograms.swift") {
            let text = try String(contentsOfFile: tests + "/" + file, encoding: .utf8)
            for (n, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
            where !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") {
                // (A comment runs nothing.)
                let line = String(line)
                for match in pattern.matches(in: line, range: NSRange(line.startIndex..., in: line)) {
                    let path = String(line[Range(match.range, in: line)!])
                    found.append(("Tests/\(file):\(n + 1)", path))
                }
            }
        }
        return found
    }

    /// The packages kiosk/setup installs when given no option (what README's test command
    /// installs), read from the script.
    static func packagesSetupInstalls() throws -> Set<String> {
        let setup = try String(contentsOfFile: repository.appendingPathComponent("kiosk/setup").path, encoding: .utf8)
        guard let list = setup.components(separatedBy: "\npackages=(").dropFirst().first?.components(separatedBy: "\n)").first else {
            throw OutsideProgram.Failed(description: "kiosk/setup has no packages=( … ) list")
        }
        return Set(list.split(separator: "\n").flatMap { line in
            (line.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? "").split(separator: " ").map(String.init)
        })
    }

    @Test func everyProgramTheTestsNameIsInTheList() throws {
        let listed = Set(OutsideProgram.all.map(\.path))
        let named = try Self.programPathsNamedByTheTests()
        // The project's own program, wherever a test installs it, is not an outside one.
        let strays = named.filter { !listed.contains($0.path) && !$0.path.hasSuffix("/carousel") }
        #expect(strays.isEmpty, """
            programs the tests run that OutsideProgram does not list (add each, with its Debian package, and \
            kiosk/setup's package): \(strays.map { "\($0.place): \($0.path)" }.joined(separator: "; "))
            """)
        // The scan sees the tests' programs at all (a pattern that matched nothing would pass).
        #expect(named.contains { $0.path == OutsideProgram.sleep.path }, "the scan found none of the stand-in helpers' /bin/sleep")
    }

    @Test func theListNamesEachProgramOnce() {
        let paths = OutsideProgram.all.map(\.path)
        #expect(Set(paths).count == paths.count, "\(paths)")
    }

    /// dpkg's database answers who owns a file (Debian or Ubuntu, as kiosk/setup needs).
    static let noDpkg = FileManager.default.isExecutableFile(atPath: "/usr/bin/dpkg-query") ? nil : "dpkg-query is missing: not a Debian system"

    /// Whether `package` is one of Debian's essential packages (on every system, never
    /// listed by kiosk/setup).
    static func isEssential(_ package: String) throws -> Bool {
        (try? OutsideProgram.dpkgQuery.run(["-W", "-f=${Essential}", package]))?.trimmingCharacters(in: .whitespacesAndNewlines) == "yes"
    }

    /// The packages `package` depends on (names only; alternatives all count).
    static func dependencies(of package: String) throws -> Set<String> {
        let text = try OutsideProgram.dpkgQuery.run(["-W", "-f=${Depends},${Pre-Depends}", package])
        return Set(text.split(whereSeparator: { $0 == "," || $0 == "|" }).compactMap {
            $0.split(separator: "(").first?.split(separator: ":").first?.trimmingCharacters(in: .whitespaces)
        }.filter { !$0.isEmpty })
    }

    /// The package that owns `path`, following its symbolic links (an alternative such as
    /// /usr/bin/convert → /etc/alternatives/convert → /usr/bin/convert-im6.q16) and
    /// merged /usr (dpkg knows /bin/cp, the file is /usr/bin/cp).
    static func owner(of path: String) -> String? {
        var candidates = [path], seen = Set<String>()
        while let next = candidates.first {
            candidates.removeFirst()
            guard seen.insert(next).inserted else { continue }
            let answer = (try? OutsideProgram.dpkgQuery.run(["-S", next])) ?? ""
            for line in answer.split(separator: "\n") where !line.hasPrefix("diversion by") {
                let parts = line.components(separatedBy: ": ")
                if parts.count == 2 && parts[1] == next { return parts[0].components(separatedBy: ", ").first }
            }
            if let target = try? FileManager.default.destinationOfSymbolicLink(atPath: next) {
                candidates.append(target.hasPrefix("/") ? target : (next as NSString).deletingLastPathComponent + "/" + target)
            }
            if next.hasPrefix("/usr/") { candidates.append(String(next.dropFirst(4))) } else { candidates.append("/usr" + next) }
        }
        return nil
    }

    @Test(.enabled(if: RequiredTools.run(missing: noDpkg), "not a Debian system"))
    func eachListedProgramComesFromAPackageKioskSetupInstalls() throws {
        try RequiredTools.check(Self.noDpkg)
        let setup = try Self.packagesSetupInstalls()
        #expect(setup.contains("libsdl2-dev") && setup.contains("ffmpeg"), "kiosk/setup's list was not read: \(setup.sorted())")
        for program in OutsideProgram.all {
            let essential = try Self.isEssential(program.package)
            #expect(setup.contains(program.package) || essential,
                    "\(program.name) comes with \(program.package), which kiosk/setup does not install (add it to its packages)")
            guard program.isInstalled else {
                // Missing here: that alone fails where the tests must run (CI), and says which.
                if RequiredTools.required { Issue.record("\(program.missingReason!)") }
                continue
            }
            let owner = Self.owner(of: program.path)
            let from = [program.package] + ((try? Self.dependencies(of: program.package)) ?? [])
            #expect(owner.map(from.contains) == true,
                    "\(program.path) belongs to \(owner ?? "no package"), not to \(program.package) or a package it depends on")
        }
    }

    /// A test that needs a missing program fails with one line naming it and its package.
    @Test func aMissingProgramIsNamedWithItsPackage() {
        let absent = OutsideProgram.all[0].withPath("/nonexistent/convert")
        #expect(throws: RequiredTools.Missing.self) { try absent.url }
        #expect(absent.missingReason == "convert is not installed: it comes with Debian's imagemagick package, which kiosk/setup installs")
        #expect((try? absent.run([])) == nil)
    }
}
