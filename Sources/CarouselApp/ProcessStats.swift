import Foundation
#if canImport(Glibc)
import Glibc
import CarouselClock
#endif

/// The process's own memory and CPU, read from the kernel.
public enum ProcessStats {
    /// Peak resident memory since start or the last `resetPeak`, bytes (VmHWM).
    public static var peakResident: Int { statusField("VmHWM") }
    /// Resident memory now, bytes (VmRSS).
    public static var resident: Int { statusField("VmRSS") }

    /// Starts the peak over from the current use (Linux: writing 5 to clear_refs), so two
    /// runs in one process each get their own peak. False where the kernel does not allow it.
    @discardableResult
    public static func resetPeak() -> Bool {
        (try? "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)) != nil
    }

    /// CPU time this process has used, user and system, in seconds.
    public static var cpuSeconds: Double { SystemClock.processCPU }

    private static func statusField(_ name: String) -> Int { SystemMemory.status(name, of: "self") ?? 0 }
}
