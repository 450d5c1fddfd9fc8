import Foundation
import Testing
import TestSupport

/// `--order fair` as a kiosk runs it (issue 60, point 2): every picture once before any
/// repeats, and a power cut (SIGKILL) in the middle of a round: the next start goes on with
/// the same round from where it was, the kept round under the XDG state folder.
@Suite(.serialized) struct FairOrderTests {
    static func screen(_ folder: String, state: String) throws -> RunningCarousel {
        try RunningCarousel(args: [folder, "--size", "320x180", "--autoplay", "1", "--order", "fair"],
                            display: ":0", environment: ["SDL_VIDEODRIVER": "dummy", "XDG_STATE_HOME": state])
    }

    /// Eight pictures, each its own colour.
    static func folder() throws -> String {
        let dir = try Fixtures.temporaryFolder("fair")
        for n in 0..<8 {
            try Fixtures.bmp(160, 120) { _, _ in (UInt8(n * 30), 120, UInt8(250 - n * 30)) }.write(to: URL(fileURLWithPath: dir + "/p\(n).bmp"))
        }
        return dir
    }

    static func settled(_ app: RunningCarousel) -> [Int] { app.ofType("settled").compactMap { $0["index"] as? Int } }

    /// The kept round: its order and how far the show had come.
    static func kept(_ state: String) throws -> (order: [String], round: Int, next: Int) {
        let folder = state + "/kiosk-carousel"
        let name = try #require(try FileManager.default.contentsOfDirectory(atPath: folder).first { $0.hasSuffix(".txt") })
        let lines = try String(contentsOfFile: folder + "/" + name, encoding: .utf8).split(separator: "\n").map(String.init)
        let position = try String(contentsOfFile: folder + "/" + name.replacingOccurrences(of: ".txt", with: ".next"), encoding: .utf8)
            .split(separator: " ").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        return (Array(lines.dropFirst(3)), Int(position[1]) ?? -1, Int(position[3]) ?? -1)
    }

    @Test func aPowerCutInTheMiddleOfARoundGoesOnWithItNoPictureAgainBeforeItEnds() throws {
        let folder = try Self.folder()
        let count = 8
        let state = try Fixtures.temporaryFolder("fair-state")
        let first = try Self.screen(folder, state: state)
        #expect(Poll.until(20) { Self.settled(first).count >= 3 }, "\(first.log)")
        // The power cut after the position of the picture at rest was written (it is written
        // off the loop's thread as the show rests); a step on since is fine too.
        #expect(Poll.until(5) { (try? Self.kept(state).next).map { $0 >= Self.settled(first).count + 1 } ?? false })
        kill(first.process.processIdentifier, SIGKILL)
        first.process.waitUntilExit()
        let before = try Self.kept(state)
        // It started on the round's first picture and walked it in order.
        let walkedBefore = [0] + Self.settled(first).filter { $0 < before.next }
        #expect(walkedBefore == Array(0..<walkedBefore.count), "\(walkedBefore)")
        #expect(before.round == 1 && before.next == walkedBefore.count, "kept as it rested: \(before)")

        let second = try Self.screen(folder, state: state)
        defer { kill(second.process.processIdentifier, SIGKILL) }
        // The rest of the round, then back to the start: a new round.
        #expect(Poll.until(30) { Self.settled(second).contains(0) }, "\(Self.settled(second)) \(second.log)")
        let walked = Self.settled(second)
        let thisRound = [before.next] + walked.prefix { $0 != 0 }
        #expect(thisRound == Array(before.next..<count), "it starts on the round's next picture and shows the rest, none again: \(walked)")
        #expect(Set(walkedBefore).isDisjoint(with: Set(thisRound)) && Set(walkedBefore + thisRound).count == count, "every picture once")
        // Kept off the loop's thread as the show rests: read once it has been written (seen
        // read before it on a busy machine, kiosk/fresh-test).
        #expect(Poll.until(5) { (try? Self.kept(state)).map { $0.round == 2 && $0.next == 1 } ?? false })
        let after = try Self.kept(state)
        #expect(after.round == 2 && after.next == 1, "a new round once every picture was shown: \(after)")
        #expect(Set(after.order) == Set(before.order) && after.order.count == count)
    }

    /// A kept round someone broke (or a power cut cut short): one line, a new round, the show goes on.
    @Test func aBrokenKeptRoundIsOneLineAndANewRound() throws {
        let folder = try Self.folder()
        let state = try Fixtures.temporaryFolder("fair-broken")
        let first = try Self.screen(folder, state: state)
        #expect(Poll.until(20) { Self.settled(first).count >= 2 }, "\(first.log)")
        kill(first.process.processIdentifier, SIGKILL)
        first.process.waitUntilExit()
        let kept = state + "/kiosk-carousel"
        let name = try #require(try FileManager.default.contentsOfDirectory(atPath: kept).first { $0.hasSuffix(".txt") })
        try Data("# kiosk-carousel fair round 1 (written by the program; a broken one starts a new round)\nround 1\nnext 99\n/a\n/a\n".utf8)
            .write(to: URL(fileURLWithPath: kept + "/" + name))
        let second = try Self.screen(folder, state: state)
        defer { kill(second.process.processIdentifier, SIGKILL) }
        #expect(Poll.until(20) { Self.settled(second).count >= 2 }, "\(second.log)")
        #expect(second.waitForLog("--order fair: " + kept + "/" + name + ": line 5 lists an item twice; a new round begins"), "\(second.log)")
        #expect(try Self.kept(state).order.count == 8, "a new round of every picture, kept")
    }
}
