import Foundation
import TestSupport

/// Decoder helpers that misbehave on purpose, for the tests of what contains them: now that
/// the common formats go through hardened libraries, no file at hand still crashes or hangs
/// the real helper. A stand-in says "ready" as a real helper does (tag 1, sandboxed 1, an
/// empty note), then on its first request crashes or hangs.
enum StandInHelper {
    case crashes, hangs
    /// Closes its connection, then spins: a helper a hostile file took over might.
    case hangsUp
    /// Writes what each of its descriptors is (`readlink /proc/self/fd/N`) into `file`,
    /// then hangs as `.hangs` does: shows what the program let a helper inherit.
    case listsDescriptors(into: String)
    /// Says it is ready without its system-call filter (as a helper on a kernel without
    /// seccomp does), then sleeps on whatever it is asked.
    case unfiltered

    /// The path of a script that behaves so.
    func script() throws -> String {
        var action = "", first = ""
        switch self {
        case .crashes: action = "kill -SEGV $$"
        // Never answers. It sleeps rather than spins: spinning stand-ins beside a busy suite
        // starved the program under test until its window took over a minute to show.
        case .hangs, .unfiltered: action = "while :; do /bin/sleep 1; done"
        case .hangsUp: action = "exec 3>&-; while :; do :; done"
        case .listsDescriptors(let file):
            first = "for d in /proc/$$/fd/*; do /bin/readlink $d; done > \(file).part; /bin/mv \(file).part \(file)"
            action = "while :; do /bin/sleep 1; done"
        }
        var ready = "printf '\\001\\001\\000\\000' >&3"
        if case .unfiltered = self {
            let note = "seccomp is not available (Invalid argument)"
            ready = "printf '\\001\\000\\000\\\(String(format: "%03o", note.utf8.count))\(note)' >&3"
        }
        let name: String
        switch self {
        case .listsDescriptors: name = "lists-descriptors"
        default: name = "\(self)"
        }
        let path = try Fixtures.temporaryFolder("helper") + "/helper-that-\(name)"
        // Helpers start with no PATH: every program by its full name.
        let text = """
            #!/bin/sh
            \(first)
            \(ready)
            /bin/dd bs=8192 count=1 <&3 >/dev/null 2>&1
            \(action)
            """
        // Written by a child process, not by this one: a process the tests start meanwhile
        // on another thread would inherit a descriptor this one had open for writing, and
        // while it lives the kernel refuses to run the file ("Text file busy").
        try text.write(toFile: path + ".txt", atomically: false, encoding: .utf8)
        let copy = Process()
        copy.executableURL = try OutsideProgram.cp.url
        copy.arguments = [path + ".txt", path]
        try copy.run()
        copy.waitUntilExit()
        chmod(path, 0o755)
        return path
    }
}
