import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The machine's memory as the kernel counts it (/proc/meminfo), and a process's memory
/// (/proc/PID/status): what decides whether a second video helper fits, and what
/// `ProcessStats` and `carousel bench` report.
public enum SystemMemory {
    /// MemAvailable and MemTotal, bytes; nil where they cannot be read.
    static func available() -> (available: Int, total: Int)? {
        guard let text = try? String(contentsOfFile: "/proc/meminfo", encoding: .utf8) else { return nil }
        let fields = field(["MemAvailable", "MemTotal"], in: text)
        guard let available = fields["MemAvailable"], let total = fields["MemTotal"] else { return nil }
        return (available, total)
    }

    /// The resident memory of process `pid` (VmRSS), bytes; nil once it is gone.
    static func resident(of pid: pid_t) -> Int? { status("VmRSS", of: "\(pid)") }

    /// A `kB` field of /proc/`process`/status ("self", or a process id), bytes; nil when
    /// the process is gone or has no such field.
    public static func status(_ name: String, of process: String) -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/\(process)/status", encoding: .utf8) else { return nil }
        return field([name], in: text)[name]
    }

    /// `Name: N kB` lines, in bytes.
    private static func field(_ names: Set<String>, in text: String) -> [String: Int] {
        var found: [String: Int] = [:]
        for line in text.split(separator: "\n") {
            guard let colon = line.firstIndex(of: ":"), names.contains(String(line[..<colon])) else { continue }
            // "MemTotal:       16384 kB", "VmRSS:\t  41336 kB": spaces or a tab.
            let number = line[line.index(after: colon)...].split(whereSeparator: { $0 == " " || $0 == "\t" }).first.flatMap { Int($0) }
            if let number { found[String(line[..<colon])] = number * 1024 }
        }
        return found
    }
}
