import CLinux
import Foundation
import CarouselClock

/// How tight memory is, as the kernel's pressure stall information tells: `high` while
/// tasks have been stalling on memory (reclaim, swap-in) a noticeable share of the time.
/// Seed 001 drops the pages that are not visible when the system warns; so does the
/// carousel: under `high` it keeps only the slot pool's images and prefetches nothing.
public enum MemoryPressureLevel: String, Sendable {
    case normal, high
}

/// Where stall information comes from: the kernel (`PSIMemorySource`) or a test.
public protocol PressureSource: Sendable {
    /// Blocks until the source signals pressure (true) or `timeout` seconds pass (false).
    func waitForStall(timeout: Double) -> Bool
    /// The share of the last 10 s in which some task stalled on memory, in percent; nil if
    /// unknown.
    func recentStall() -> Double?
}

/// Watches a `PressureSource` on a thread of its own and reports each change of level:
/// `high` as soon as the source signals, `normal` once the stall share has stayed under
/// `calmBelow` percent for `calmFor` seconds. Polls only while `high`, every `checkEvery`
/// seconds, and on a source that cannot signal (no trigger allowed), every `checkEvery`
/// seconds on its thread; the main loop is woken only for a change.
public final class MemoryPressureWatcher: @unchecked Sendable {
    public struct Tuning: Sendable {
        /// Percent of stalled time (over 10 s) under which memory counts as calm again.
        public var calmBelow = 1.0
        /// Seconds it must stay calm before prefetching starts again.
        public var calmFor = 10.0
        /// Seconds between looks while `high`.
        public var checkEvery = 2.0
        public init() {}
    }

    private let lock = NSLock()
    private var current = MemoryPressureLevel.normal
    private var stopped = false

    /// `changed` is called on the watcher's thread with each new level.
    public init(source: any PressureSource, tuning: Tuning = Tuning(),
                changed: @escaping @Sendable (MemoryPressureLevel) -> Void) {
        let thread = Thread { [self] in watch(source, tuning, changed) }
        thread.name = "memory-pressure"
        thread.start()
    }

    public var level: MemoryPressureLevel { lock.withLock { current } }

    /// Stops reporting (the thread ends at its next look).
    public func stop() { lock.withLock { stopped = true } }

    private var isStopped: Bool { lock.withLock { stopped } }

    private func watch(_ source: any PressureSource, _ tuning: Tuning,
                       _ changed: @Sendable (MemoryPressureLevel) -> Void) {
        while !isStopped {
            guard source.waitForStall(timeout: 3600) else { continue }
            guard !isStopped else { return }
            lock.withLock { current = .high }
            changed(.high)
            var calmSince: Double?
            while !isStopped {
                Thread.sleep(forTimeInterval: tuning.checkEvery)
                let now = SystemClock.monotonic
                if let stall = source.recentStall(), stall < tuning.calmBelow {
                    let since = calmSince ?? now
                    calmSince = since
                    if now - since >= tuning.calmFor { break }
                } else {
                    calmSince = nil
                }
            }
            guard !isStopped else { return }
            lock.withLock { current = .normal }
            changed(.normal)
        }
    }
}

/// Linux's memory pressure: a PSI trigger on /proc/pressure/memory (150 ms of stall within
/// 2 s, the smallest window an unprivileged user may set), waited on with poll. Where a
/// trigger is refused (older kernels allow them to root only), the "some avg10" share is
/// read every 5 s instead, with 10 % as the threshold.
public final class PSIMemorySource: PressureSource, @unchecked Sendable {
    public static let path = "/proc/pressure/memory"
    private let trigger: Int32
    /// Percent of avg10 that counts as pressure when no trigger could be set.
    static let pollThreshold = 10.0

    /// Nil, with the reason, when this kernel does not report memory pressure.
    public static func open() -> (PSIMemorySource?, note: String?) {
        guard access(path, R_OK) == 0 else {
            return (nil, "memory pressure cannot be watched: \(path) is missing (a kernel without PSI, or booted with psi=0)")
        }
        let fd = Glibc.open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC)
        if fd >= 0 {
            let spec = "some 150000 2000000"
            let wrote = spec.withCString { write(fd, $0, strlen($0) + 1) }
            if wrote > 0 { return (PSIMemorySource(trigger: fd), nil) }
            close(fd)
        }
        return (PSIMemorySource(trigger: -1), "memory pressure is read every 5 s (this kernel refuses a PSI trigger here)")
    }

    private init(trigger: Int32) { self.trigger = trigger }
    deinit { if trigger >= 0 { close(trigger) } }

    public func waitForStall(timeout: Double) -> Bool {
        guard trigger >= 0 else {
            Thread.sleep(forTimeInterval: min(timeout, 5))
            return (recentStall() ?? 0) >= Self.pollThreshold
        }
        var p = pollfd(fd: trigger, events: Int16(POLLPRI), revents: 0)
        let rc = poll(&p, 1, Int32(min(timeout, 3600) * 1000))
        if rc < 0 { Thread.sleep(forTimeInterval: 1) }  // EINTR and the like: look again
        return rc > 0 && p.revents & Int16(POLLPRI) != 0
    }

    public func recentStall() -> Double? {
        guard let text = try? String(contentsOfFile: Self.path, encoding: .utf8) else { return nil }
        return Self.someAvg10(text)
    }

    /// "some avg10=1.23 avg60=…" → 1.23.
    static func someAvg10(_ text: String) -> Double? {
        for line in text.split(separator: "\n") where line.hasPrefix("some ") {
            for field in line.split(separator: " ") where field.hasPrefix("avg10=") {
                return Double(field.dropFirst(6))
            }
        }
        return nil
    }
}
