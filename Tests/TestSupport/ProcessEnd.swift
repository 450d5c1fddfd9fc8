import Foundation

/// How a started process ended, read only once it has: Foundation traps on reading
/// `terminationStatus` or `terminationReason` of a process it has not yet seen end (after a
/// SIGKILL too, until it has reaped it), and that trap takes the whole test run with it. In stop
/// 69's CI a program slow under ThreadSanitizer was killed and its status read at once: the
/// suite died with signal 4 and every test after it went unrun.
public struct ProcessEnd: Sendable, Equatable {
    /// false: still running at the deadline, and killed.
    public let byItself: Bool
    /// nil: Foundation never saw it end, even 10 s after the SIGKILL (it once left an ended
    /// program a zombie unseen, and an unbounded waitUntilExit() held the whole suite).
    public let reason: Process.TerminationReason?
    public let status: Int32?

    /// Ended by itself with status 0.
    public var clean: Bool { exited(with: 0) }

    /// Ended by itself, with exit status `code`.
    public func exited(with code: Int32) -> Bool { byItself && reason == .exit && status == code }
}

extension Process {
    /// Waits up to `seconds` for the process to end by itself, then kills it (SIGKILL) and
    /// waits up to 10 s more for that: how it ended, always safe to read.
    public func end(within seconds: Double) -> ProcessEnd {
        let deadline = Date().addingTimeInterval(seconds)
        while isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        let byItself = !isRunning
        if !byItself {
            kill(processIdentifier, SIGKILL)
            let killed = Date().addingTimeInterval(10)
            while isRunning && Date() < killed { Thread.sleep(forTimeInterval: 0.05) }
        }
        guard !isRunning else { return ProcessEnd(byItself: false, reason: nil, status: nil) }
        return ProcessEnd(byItself: byItself, reason: terminationReason, status: terminationStatus)
    }
}
