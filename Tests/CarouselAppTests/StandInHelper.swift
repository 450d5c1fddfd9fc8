import Foundation

/// Decoder helpers that misbehave on purpose, for the tests of what contains them: now that
/// the common formats go through hardened libraries, no file at hand still crashes or hangs
/// the real helper. A stand-in says "ready" as a real helper does (tag 1, sandboxed 1, an
/// empty note), then on its first request crashes or hangs.
enum StandInHelper {
    case crashes, hangs
    /// Closes its connection, then spins: a helper a hostile file took over might.
    case hangsUp

    /// The path of a script that behaves so.
    func script() throws -> String {
        let action: String
        switch self {
        case .crashes: action = "kill -SEGV $$"
        // Never answers. It sleeps rather than spins: spinning stand-ins beside a busy suite
        // starved the program under test until its window took over a minute to show.
        case .hangs: action = "while :; do /bin/sleep 1; done"
        case .hangsUp: action = "exec 3>&-; while :; do :; done"
        }
        let path = try Fixtures.temporaryFolder("helper") + "/helper-that-\(self)"
        // Helpers start with no PATH: every program by its full name.
        let text = """
            #!/bin/sh
            printf '\\001\\001\\000\\000' >&3
            /bin/dd bs=8192 count=1 <&3 >/dev/null 2>&1
            \(action)
            """
        // Written by a child process, not by this one: a process the tests start meanwhile
        // on another thread would inherit a descriptor this one had open for writing, and
        // while it lives the kernel refuses to run the file ("Text file busy").
        try text.write(toFile: path + ".txt", atomically: false, encoding: .utf8)
        let copy = Process()
        copy.executableURL = URL(fileURLWithPath: "/bin/cp")
        copy.arguments = [path + ".txt", path]
        try copy.run()
        copy.waitUntilExit()
        chmod(path, 0o755)
        return path
    }
}
