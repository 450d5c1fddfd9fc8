import CarouselApp
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Another process's memory, descriptors, threads and children, read from /proc: what
/// `carousel bench --soak` samples of the program under test and its decoder helpers.
/// Each reading is nil once the process is gone.
enum ProcessProbe {
    /// Resident memory, bytes (statm's second field).
    static func resident(_ pid: pid_t) -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/statm", encoding: .utf8) else { return nil }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return nil }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    static func openFiles(_ pid: pid_t) -> Int? { entries("/proc/\(pid)/fd")?.count }

    /// CPU time used so far (user and system), seconds: stat's 14th and 15th fields, read
    /// after the command's closing parenthesis (a command may hold spaces).
    static func cpuSeconds(_ pid: pid_t) -> Double? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = text.lastIndex(of: ")") else { return nil }
        let fields = text[text.index(after: close)...].split(separator: " ")
        // After ")": state is field 3, so utime (14) and stime (15) are the 12th and 13th here.
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// Peak resident memory, bytes (status's VmHWM).
    static func peakResident(_ pid: pid_t) -> Int? { SystemMemory.status("VmHWM", of: "\(pid)") }

    static func threads(_ pid: pid_t) -> Int? { entries("/proc/\(pid)/task")?.count }

    /// The process's children, from every thread's list (a child belongs to the thread that
    /// started it); where the kernel keeps no such list, from every process's parent.
    static func children(of pid: pid_t) -> [pid_t] {
        var out: [pid_t] = []
        var listed = false
        for task in entries("/proc/\(pid)/task") ?? [] {
            guard let text = try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/children", encoding: .utf8) else { continue }
            listed = true
            out += text.split(separator: " ").compactMap { pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        }
        if !listed {
            out = (entries("/proc") ?? []).compactMap(pid_t.init).filter { parent(of: $0) == pid }
        }
        return out.sorted()
    }

    /// The parent's pid: the field after the state, past the command name in parentheses.
    static func parent(of pid: pid_t) -> pid_t? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return nil }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        return fields.count > 1 ? pid_t(fields[1]) : nil
    }

    static func isAlive(_ pid: pid_t) -> Bool { kill(pid, 0) == 0 || errno == EPERM }

    /// Each thread's name and where the kernel has it waiting: what /proc tells of a hung
    /// process when no debugger is at hand.
    static func threadStates(_ pid: pid_t) -> [String] {
        (entries("/proc/\(pid)/task") ?? []).sorted { (Int($0) ?? 0) < (Int($1) ?? 0) }.map { tid in
            func read(_ name: String) -> String {
                ((try? String(contentsOfFile: "/proc/\(pid)/task/\(tid)/\(name)", encoding: .utf8)) ?? "?")
                    .trimmingCharacters(in: .whitespacesAndNewlines)
            }
            return "thread \(tid) \(read("comm")): waiting in \(read("wchan")), syscall \(read("syscall"))"
        }
    }

    private static func entries(_ path: String) -> [String]? {
        try? FileManager.default.contentsOfDirectory(atPath: path)
    }
}
