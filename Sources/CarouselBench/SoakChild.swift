import CarouselApp
import CarouselMedia
import CarouselSDL
import CLinux
import Foundation
#if canImport(Glibc)
import Glibc
import CarouselClock
import CarouselCore
#endif

/// The program under test in `carousel bench --soak`: this same binary running `carousel
/// run` on the soak's folder, driven by the seeded mix (`carousel soak-drive SEED`). It runs in a
/// process group of its own (Ctrl+C reaches the bench, which ends it and reports) and dies
/// with the bench. What it writes to standard output (its event log and its once-a-second
/// reports) is read on a thread into `observed`; its standard error goes to `logPath`.
final class SoakChild: @unchecked Sendable {
    let pid: pid_t
    let logPath: String
    let observed = SoakObservations()
    private var status: Int32?

    init(arguments: [String], environment: [String: String], logPath: String) throws {
        var pipeEnds: [Int32] = [0, 0]
        guard pipe(&pipeEnds) == 0 else { throw Failure("cannot make a pipe for the program under test") }
        for fd in pipeEnds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        let started = ChildSpawn.start("/proc/self/exe", arguments: ["carousel"] + arguments,
                                       environment: environment.map { "\($0.key)=\($0.value)" },
                                       descriptors: [0: .null(writing: false), 1: .copy(pipeEnds[1]), 2: .file(logPath)],
                                       ownGroup: true)
        close(pipeEnds[1])
        let pid: pid_t
        switch started {
        case .success(let child): pid = child
        case .failure(let error):
            close(pipeEnds[0])
            throw Failure("cannot start the program under test (\(error))")
        }
        self.pid = pid
        self.logPath = logPath
        let reader = Thread { [observed, fd = pipeEnds[0]] in
            var pending: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 65536)
            while true {
                let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { break }
                pending += buffer[0..<n]
                while let newline = pending.firstIndex(of: 10) {
                    observed.take(line: pending[..<newline])
                    pending.removeSubrange(...newline)
                }
            }
            close(fd)
        }
        reader.name = "soak-reader"
        reader.start()
    }

    /// How it ended ("exit 0", "SIGSEGV"), once it has; nil while it runs.
    func ended() -> String? {
        if status == nil {
            var s: Int32 = 0
            if waitpid(pid, &s, WNOHANG) == pid { status = s }
        }
        return status.map(Self.describe)
    }

    static func describe(_ status: Int32) -> String {
        if kc_signaled(status) != 0 {
            let sig = kc_term_signal(status)
            return kc_signal_abbrev(sig).map { "SIG" + String(cString: $0) } ?? "signal \(sig)"
        }
        return "exit \(kc_exit_status(status))"
    }

    func signal(_ sig: Int32) { if status == nil { kill(pid, sig) } }

    /// Sends SIGTERM and waits up to `seconds` for the end; SIGKILL after that. The seconds
    /// it took, or nil when it had to be killed.
    func stop(within seconds: Double) -> Double? {
        let began = LoopClock.system.now()
        signal(SIGTERM)
        while ended() == nil {
            if LoopClock.system.now() - began > seconds {
                signal(SIGKILL)
                while ended() == nil { usleep(10_000) }
                return nil
            }
            usleep(10_000)
        }
        return LoopClock.system.now() - began
    }

    /// The last `lines` lines of its standard error.
    func logTail(_ lines: Int) -> [String] {
        guard let text = try? String(contentsOfFile: logPath, encoding: .utf8) else { return [] }
        return Array(text.split(separator: "\n", omittingEmptySubsequences: false).suffix(lines).map(String.init))
    }

    /// The stack of every thread, for a hang: from gdb where it is installed, else what
    /// /proc says each thread waits in.
    func stacks() -> [String] {
        let gdb = ["/usr/bin/gdb", "/usr/local/bin/gdb"].first { FileManager.default.isExecutableFile(atPath: $0) }
        if let gdb {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: gdb)
            process.arguments = ["-p", String(pid), "-batch", "-nx", "-ex", "thread apply all bt 30"]
            let out = Pipe()
            process.standardOutput = out
            process.standardError = FileHandle.nullDevice
            if (try? process.run()) != nil {
                // gdb may ignore SIGTERM while it holds the process stopped; a stuck one
                // would keep this bench (and whatever waits for it) waiting for good.
                let gdbPid = process.processIdentifier
                let killer = DispatchWorkItem { kill(gdbPid, SIGKILL) }
                DispatchQueue.global().asyncAfter(deadline: .now() + 30, execute: killer)
                let data = out.fileHandleForReading.readDataToEndOfFile()
                process.waitUntilExit()
                killer.cancel()
                let lines = String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
                    .filter { $0.hasPrefix("#") || $0.hasPrefix("Thread ") }
                if !lines.isEmpty { return lines }
            }
        }
        return ProcessProbe.threadStates(pid)
    }
}

/// What the program under test said on standard output: its once-a-second reports and
/// its events, counted by type. Filled by the reader thread, read by the bench.
final class SoakObservations: @unchecked Sendable {
    struct Report: Sendable {
        var received: Double
        var frameTimes: [Double]
        var moving: Bool
        var decoded: Int
        var failed: Int
    }

    private let lock = NSLock()
    private var reports: [Report] = []
    private var events: [String: Int] = [:]
    private var helperReplacements = 0

    func take(line: ArraySlice<UInt8>) {
        let object = (try? JSONSerialization.jsonObject(with: Data(line))) as? [String: Any]
        lock.lock()
        defer { lock.unlock() }
        // Lines that are neither (SDL or a library writing to standard output) are passed over.
        guard let object else { return }
        if object["soak"] as? String == "report" {
            reports.append(Report(received: LoopClock.system.now(),
                                  frameTimes: ((object["frames_ms"] as? [Double]) ?? []).map { $0 / 1000 },
                                  moving: object["moving"] as? Bool ?? false,
                                  decoded: object["decoded"] as? Int ?? 0, failed: object["failed"] as? Int ?? 0))
        } else if let type = object["type"] as? String {
            events[type, default: 0] += 1
            // A helper that crashed or ran past its deadline was replaced.
            if type == "load_failed", let reason = object["reason"] as? String,
               reason.contains("decoder crashed") || reason.contains("took longer than") {
                helperReplacements += 1
            }
        }
    }

    /// The reports received after the first `skipping`.
    func reports(after skipping: Int) -> [Report] {
        lock.lock()
        defer { lock.unlock() }
        return skipping < reports.count ? Array(reports[skipping...]) : []
    }

    var reportCount: Int { lock.lock(); defer { lock.unlock() }; return reports.count }
    var lastReport: Report? { lock.lock(); defer { lock.unlock() }; return reports.last }
    var eventCounts: [String: Int] { lock.lock(); defer { lock.unlock() }; return events }
    /// Helpers replaced because they crashed or hung on a file, as the failures said.
    var helpersReplaced: Int { lock.lock(); defer { lock.unlock() }; return helperReplacements }
}
