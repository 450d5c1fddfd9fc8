import CarouselSDL
#if canImport(Glibc)
import Glibc
import CarouselClock
#endif

/// SIGTERM, SIGINT and SIGHUP as wake-ups in the window's event queue, so the run loop handles them like
/// any input: quit with status 0, or reload. A thread waits for them with `sigwait`;
/// pushing an event from a signal handler would not be safe. A quit the loop has not
/// carried out within `quitGrace` seconds ends the program from that thread.
///
/// SDL's own handlers would turn SIGTERM into the same SDL_QUIT as closing the window,
/// which a kiosk must ignore, and know nothing of SIGHUP. Call `start()` first thing in
/// the program, before any other thread exists: threads inherit the blocked set, and a
/// thread without it would let the default action kill the process.
public enum SignalWatcher {
    public static func start() {
        #if canImport(Glibc)
        var set = resetToDefault([SIGTERM, SIGINT, SIGHUP])
        pthread_sigmask(SIG_BLOCK, &set, nil)
        var thread = pthread_t()
        pthread_create(&thread, nil, { _ in
            var set = SignalWatcher.signalSet([SIGTERM, SIGINT, SIGHUP])
            // The first quit and when the program must be gone by.
            var quit: (signal: Int32, deadline: Double)?
            while true {
                guard let pending = quit else {
                    var sig: Int32 = 0
                    guard sigwait(&set, &sig) == 0 else { continue }
                    if sig == SIGHUP { SignalWatcher.deliver(.reload); continue }
                    quit = (sig, SignalWatcher.monotonic(after: SignalWatcher.quitGrace))
                    SignalWatcher.deliver(.quit)
                    continue
                }
                // Asked to quit: the loop has `quitGrace` seconds to end the program tidily.
                var left = SignalWatcher.until(pending.deadline)
                if left.tv_sec < 0 || (left.tv_sec == 0 && left.tv_nsec == 0) { SignalWatcher.forceQuit(pending.signal) }
                if sigtimedwait(&set, nil, &left) < 0 && errno == EAGAIN { SignalWatcher.forceQuit(pending.signal) }
            }
        }, nil)
        pthread_detach(thread)
        #endif
    }

    /// For a program that does not watch them (`carousel render`): SIGTERM and SIGINT end
    /// it at once. A parent (a service manager, a test runner) may have left them ignored
    /// or blocked, and then Ctrl+C would do nothing; reset both.
    public static func useDefaultActions() {
        #if canImport(Glibc)
        var set = resetToDefault([SIGTERM, SIGINT])
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
        #endif
    }

    /// For a command that must tidy up when interrupted (`carousel bench` removes its
    /// temporary photos): SIGTERM and SIGINT run `cleanup` on a watcher thread, then end
    /// the process with 128 + the signal's number, the status the default action reports.
    public static func exitTidily(cleanup: @escaping @Sendable () -> Void) {
        #if canImport(Glibc)
        var set = resetToDefault([SIGTERM, SIGINT])
        pthread_sigmask(SIG_BLOCK, &set, nil)
        let task = Unmanaged.passRetained(Cleanup(cleanup)).toOpaque()
        var thread = pthread_t()
        pthread_create(&thread, nil, { task in
            let cleanup = Unmanaged<Cleanup>.fromOpaque(task!).takeRetainedValue()
            var set = SignalWatcher.signalSet([SIGTERM, SIGINT])
            var sig: Int32 = 0
            while sigwait(&set, &sig) != 0 {}
            cleanup.run()
            _exit(128 + sig)
        }, task)
        pthread_detach(thread)
        #endif
    }

    /// For a command that ends early but tidily (`carousel bench --soak` reports what it has
    /// so far): SIGTERM and SIGINT call `body` on a watcher thread, every time, and nothing else.
    public static func onInterrupt(_ body: @escaping @Sendable () -> Void) {
        #if canImport(Glibc)
        var set = resetToDefault([SIGTERM, SIGINT])
        pthread_sigmask(SIG_BLOCK, &set, nil)
        let task = Unmanaged.passRetained(Cleanup(body)).toOpaque()
        var thread = pthread_t()
        pthread_create(&thread, nil, { task in
            let body = Unmanaged<Cleanup>.fromOpaque(task!).takeRetainedValue()
            var set = SignalWatcher.signalSet([SIGTERM, SIGINT])
            var sig: Int32 = 0
            while true { if sigwait(&set, &sig) == 0 { body.run() } }
        }, task)
        pthread_detach(thread)
        #endif
    }

    private final class Cleanup: Sendable {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }

    #if canImport(Glibc)
    private static func signalSet(_ signals: [Int32]) -> sigset_t {
        var set = sigset_t()
        sigemptyset(&set)
        for s in signals { sigaddset(&set, s) }
        return set
    }

    /// `signals` back to their default actions (a parent may have left them ignored), as a set.
    private static func resetToDefault(_ signals: [Int32]) -> sigset_t {
        for s in signals { signal(s, SIG_DFL) }
        return signalSet(signals)
    }
    #endif

    /// Seconds the run loop has to end the program after SIGTERM or SIGINT. A loop that
    /// does not answer (stuck in a driver, a bug) must not leave a kiosk that ignores its
    /// service manager: then the process ends itself, with the status the signal's default
    /// action gives. The decoder helpers die with it (their parent-death signal); every
    /// cache is written atomically, so nothing is left half-written.
    public static let quitGrace = 5.0

    #if canImport(Glibc)
    private static func forceQuit(_ signal: Int32) -> Never {
        let name = signal == SIGINT ? "SIGINT" : "SIGTERM"
        let line = "carousel: still running \(Int(quitGrace)) s after \(name) (the main loop does not answer); ending now\n"
        _ = line.utf8CString.withUnsafeBufferPointer { write(2, $0.baseAddress, $0.count - 1) }
        _exit(128 + signal)
    }

    private static func monotonic(after seconds: Double) -> Double { SystemClock.monotonic + seconds }

    /// The time from now until `deadline` (negative once passed).
    private static func until(_ deadline: Double) -> timespec {
        let left = deadline - SystemClock.monotonic, whole = left.rounded(.down)
        return timespec(tv_sec: Int(whole), tv_nsec: Int((left - whole) * 1e9))
    }
    #endif

    private static func deliver(_ request: WakeReason) {
        // Before SDL's queue exists (still starting up) a quit cannot wait for the loop.
        // `_exit`, not `exit`: the main thread may be inside SDL_Init, and the exit handlers
        // it would run from this thread can wait on what that holds (once: forever).
        if !request.post() && request == .quit { _exit(0) }
    }
}
