import Foundation
import TestSupport

/// A private X server (Xvfb) for end-to-end tests of the real window, driven with xdotool.
final class XvfbSession {
    let display: String
    private let server: Process

    /// Why Xvfb cannot be used here, or nil when it can.
    static var unavailableReason: String? {
        OutsideProgram.missing(.xvfb, .xdotool)
    }

    /// Why xinput (to add and remove the server's devices) cannot be used here, or nil.
    static var xinputUnavailableReason: String? {
        unavailableReason ?? OutsideProgram.xinput.missingReason
    }

    /// Display numbers handed out in this process: suites run in parallel, and two sessions
    /// that picked the same free number shared one X server (the other suite's clicks then
    /// reached this one's window: a screen woken by a touch stayed awake in CI).
    private static let numbers = NSLock()
    nonisolated(unsafe) private static var taken: Set<Int> = []

    init() throws {
        try RequiredTools.check(Self.unavailableReason)
        // A display number unlikely to be taken, free of a lock file, and not given to
        // another session of this process.
        let n = Self.numbers.withLock { () -> Int in
            var n = 70 + Int(ProcessInfo.processInfo.processIdentifier % 20)
            while Self.taken.contains(n) || FileManager.default.fileExists(atPath: "/tmp/.X\(n)-lock") { n += 1 }
            Self.taken.insert(n)
            return n
        }
        display = ":\(n)"
        server = Process()
        server.executableURL = try OutsideProgram.xvfb.url
        server.arguments = [display, "-screen", "0", "1280x800x24", "-nolisten", "tcp"]
        server.standardOutput = FileHandle.nullDevice
        server.standardError = FileHandle.nullDevice
        try server.run()
        for _ in 0..<50 where !FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\(n)") {
            Thread.sleep(forTimeInterval: 0.1)
        }
    }

    deinit {
        // SIGKILL: processes spawned from the test runner's threads inherit a signal mask
        // that blocks SIGTERM, so terminate() would leave Xvfb running.
        kill(server.processIdentifier, SIGKILL)
        server.waitUntilExit()
    }

    /// Runs xdotool with these arguments on this display; returns its standard output.
    @discardableResult
    func xdotool(_ args: [String]) throws -> String { try client(.xdotool, args) }

    /// Runs xinput (the X server's input devices) with these arguments on this display.
    @discardableResult
    func xinput(_ args: [String]) throws -> String { try client(.xinput, args) }

    private func client(_ tool: OutsideProgram, _ args: [String]) throws -> String {
        let p = Process()
        p.executableURL = try tool.url
        p.arguments = args
        p.environment = ["DISPLAY": display]
        let out = Pipe()
        p.standardOutput = out
        p.standardError = FileHandle.nullDevice
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }
}

/// The interactive `carousel` running in the background, its event log read from stdout.
final class RunningCarousel: @unchecked Sendable {
    let process = Process()
    private let lock = NSLock()
    private var buffer = ""
    private var errors = ""

    init(args: [String], display: String, environment: [String: String] = [:]) throws {
        process.executableURL = CarouselBinary.url
        process.arguments = args + ["--events", "-"]
        var env = ProcessInfo.processInfo.environment
        env["DISPLAY"] = display
        env.removeValue(forKey: "WAYLAND_DISPLAY")
        env.removeValue(forKey: "SDL_VIDEODRIVER")
        // The wall's thumbnails go to a folder of the test's own, not the user's cache.
        env["XDG_CACHE_HOME"] = (try? Fixtures.temporaryFolder("cache")) ?? "/nonexistent"
        env.merge(environment) { $1 }
        process.environment = env
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        out.fileHandleForReading.readabilityHandler = { [weak self] h in
            let text = String(decoding: h.availableData, as: UTF8.self)
            guard let self else { return }
            self.lock.lock(); self.buffer += text; self.lock.unlock()
        }
        err.fileHandleForReading.readabilityHandler = { [weak self] h in
            let text = String(decoding: h.availableData, as: UTF8.self)
            guard let self else { return }
            self.lock.lock(); self.errors += text; self.lock.unlock()
        }
        try process.run()
    }

    /// What the program logged so far (its standard error), for failure messages.
    var log: String {
        lock.lock(); defer { lock.unlock() }
        return errors
    }

    var lines: [[String: Any]] {
        lock.lock(); defer { lock.unlock() }
        return buffer.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }

    func ofType(_ type: String) -> [[String: Any]] { lines.filter { $0["type"] as? String == type } }

    /// Waits up to `timeout` seconds until the program's log says `text`.
    func waitForLog(_ text: String, timeout: Double = 10) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if log.contains(text) { return true }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return false
    }

    /// How long a wait for the program's first events is allowed by default: 10 s, 30 s under
    /// a sanitizer (in stop 69's CI a window under ThreadSanitizer, started beside four screens
    /// playing a clip, had not said "pool" after 10 s). A wait ends as soon as the event comes.
    static let startWait: Double = IsolatedDecodingTests.sanitized ? 30 : 10

    /// Waits up to `timeout` seconds until `count` events of `type` have arrived.
    @discardableResult
    func waitFor(_ type: String, count: Int, timeout: Double = RunningCarousel.startWait) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if ofType(type).count >= count { return true }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return false
    }

    /// Waits until the program has finished what it was doing (at most 1 tick of CPU over
    /// a second), or `timeout` seconds. Decoding at start may take seconds on a loaded
    /// machine (the workers run niced); a measurement of rest must not count it. A program
    /// that never rests is still measured after the timeout, and fails. 60 s: on a busy
    /// machine under ThreadSanitizer the last frames and a zoom's detail bands took longer
    /// than the 10 s this was (the zoom window test measured 23 ticks "at rest" after a
    /// wait that had run out); it returns as soon as the program rests.
    func waitForRest(timeout: Double = 60) {
        let deadline = Date().addingTimeInterval(timeout)
        var last = cpuTicks
        while Date() < deadline {
            Thread.sleep(forTimeInterval: 1)
            let now = cpuTicks
            if now - last <= 1 { return }
            last = now
        }
    }

    /// Each thread's name, times it ran and nanoseconds on a CPU so far (schedstat): exact
    /// where ticks are sampled (a thread that runs 0.1 ms may be charged a whole tick).
    var threadStats: [Int: (name: String, runs: Int, ns: Int)] {
        let dir = "/proc/\(process.processIdentifier)/task"
        var out: [Int: (String, Int, Int)] = [:]
        for tid in (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? [] {
            guard let id = Int(tid), let stat = try? String(contentsOfFile: "\(dir)/\(tid)/schedstat", encoding: .utf8),
                  let comm = try? String(contentsOfFile: "\(dir)/\(tid)/comm", encoding: .utf8) else { continue }
            let f = stat.split(separator: " ").compactMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
            if f.count >= 3 { out[id] = (comm.trimmingCharacters(in: .newlines), f[2], f[0]) }
        }
        return out
    }

    /// CPU time used so far (user + system), in clock ticks, from /proc.
    var cpuTicks: Int {
        guard let stat = try? String(contentsOfFile: "/proc/\(process.processIdentifier)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return -1 }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        return (Int(fields[11]) ?? 0) + (Int(fields[12]) ?? 0)
    }

    /// The program's CPU at rest: ticks used over a window of `seconds`, looked at up to
    /// three times (a late wake-up from what came before, or a busy machine's, spoils one),
    /// and the bound: `fraction` of a core (2 %), 10 % under a sanitizer (which runs the
    /// program many times slower). A loop that spins takes a whole core in every window.
    func atRest(seconds: Double = 2, fraction: Double = 0.02) -> (used: Int, bound: Double) {
        let ticksPerSecond = Double(sysconf(Int32(_SC_CLK_TCK)))
        let bound = (IsolatedDecodingTests.sanitized ? max(fraction, 0.10) : fraction) * seconds * ticksPerSecond
        var used = 0
        for _ in 0..<3 {
            let before = cpuTicks
            Thread.sleep(forTimeInterval: seconds)
            used = cpuTicks - before
            if Double(used) < bound { break }
        }
        return (used, bound)
    }
}

/// Asks a window to close the way a window manager's close button does: a WM_DELETE_WINDOW
/// client message. Xvfb runs no window manager and this xdotool has no `windowclose`, so
/// the message is sent through libX11 directly, loaded at run time.
enum WindowCloser {
    typealias OpenDisplay = @convention(c) (UnsafePointer<CChar>?) -> OpaquePointer?
    typealias InternAtom = @convention(c) (OpaquePointer?, UnsafePointer<CChar>?, Int32) -> UInt
    typealias SendEvent = @convention(c) (OpaquePointer?, UInt, Int32, Int, UnsafeMutableRawPointer?) -> Int32
    typealias WithDisplay = @convention(c) (OpaquePointer?) -> Int32

    static func close(window: UInt, display: String) -> Bool {
        guard let lib = dlopen("libX11.so.6", RTLD_NOW) else { return false }
        defer { dlclose(lib) }
        func fn<T>(_ name: String, _: T.Type) -> T? { dlsym(lib, name).map { unsafeBitCast($0, to: T.self) } }
        guard let open = fn("XOpenDisplay", OpenDisplay.self), let intern = fn("XInternAtom", InternAtom.self),
              let send = fn("XSendEvent", SendEvent.self), let flush = fn("XFlush", WithDisplay.self),
              let closeDisplay = fn("XCloseDisplay", WithDisplay.self),
              let dpy = open(display) else { return false }
        defer { _ = closeDisplay(dpy) }
        // XClientMessageEvent inside the 24-long XEvent union (LP64): type, serial, send_event,
        // display, window, message_type, format, then data.l[0] = WM_DELETE_WINDOW.
        var event = [Int](repeating: 0, count: 24)
        event[0] = 33  // ClientMessage
        event[2] = 1
        event[3] = Int(bitPattern: UnsafeRawPointer(dpy))
        event[4] = Int(window)
        event[5] = Int(intern(dpy, "WM_PROTOCOLS", 0))
        event[6] = 32
        event[7] = Int(intern(dpy, "WM_DELETE_WINDOW", 0))
        let ok = event.withUnsafeMutableBytes { send(dpy, window, 0, 0, $0.baseAddress) }
        _ = flush(dpy)
        return ok != 0
    }
}

/// What the X server draws as the pointer right now, read with XFixes (loaded at run time,
/// as libX11 is above): whether any of its pixels shows.
enum PointerProbe {
    typealias OpenDisplay = @convention(c) (UnsafePointer<CChar>?) -> OpaquePointer?
    typealias WithDisplay = @convention(c) (OpaquePointer?) -> Int32
    typealias QueryVersion = @convention(c) (OpaquePointer?, UnsafeMutablePointer<Int32>?, UnsafeMutablePointer<Int32>?) -> Int32
    typealias CursorImage = @convention(c) (OpaquePointer?) -> UnsafeMutableRawPointer?
    typealias Free = @convention(c) (UnsafeMutableRawPointer?) -> Int32

    /// nil when XFixes cannot be asked.
    static func isVisible(display: String) -> Bool? {
        guard let x11 = dlopen("libX11.so.6", RTLD_NOW), let xfixes = dlopen("libXfixes.so.3", RTLD_NOW) else { return nil }
        defer { dlclose(xfixes); dlclose(x11) }
        func fn<T>(_ lib: UnsafeMutableRawPointer, _ name: String, _: T.Type) -> T? {
            dlsym(lib, name).map { unsafeBitCast($0, to: T.self) }
        }
        guard let open = fn(x11, "XOpenDisplay", OpenDisplay.self), let close = fn(x11, "XCloseDisplay", WithDisplay.self),
              let free = fn(x11, "XFree", Free.self), let query = fn(xfixes, "XFixesQueryVersion", QueryVersion.self),
              let image = fn(xfixes, "XFixesGetCursorImage", CursorImage.self), let dpy = open(display) else { return nil }
        defer { _ = close(dpy) }
        var major: Int32 = 6, minor: Int32 = 0
        guard query(dpy, &major, &minor) != 0, let cursor = image(dpy) else { return nil }
        defer { _ = free(cursor) }
        // XFixesCursorImage (LP64): short x, y; unsigned short width, height, xhot, yhot;
        // unsigned long cursor_serial; unsigned long *pixels (ARGB, one per long); ...
        let width = Int(cursor.load(fromByteOffset: 4, as: UInt16.self))
        let height = Int(cursor.load(fromByteOffset: 6, as: UInt16.self))
        guard let pixels = cursor.load(fromByteOffset: 24, as: UnsafePointer<UInt>?.self) else { return false }
        return (0..<(width * height)).contains { pixels[$0] & 0xFF00_0000 != 0 }
    }
}
