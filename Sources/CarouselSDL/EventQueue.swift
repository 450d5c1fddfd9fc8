import CarouselDevices
import CSDL2
import Glibc
import CLinux
import CarouselClock
import CarouselCore

/// An event of the platform layer, opaque outside this module so that only it touches C
/// types: SDL's, or an input device's as `EventDeviceReader` read it (KMS/DRM).
public struct SDLEvent {
    enum Origin {
        case sdl(SDL_Event)
        case device(DeviceInput)
    }
    let origin: Origin

    /// Its times are the device's own (the KMS/DRM reader's), not when SDL read it.
    public var timedByDevice: Bool {
        if case .device = origin { return true }
        return false
    }
}

/// The run loop's access to SDL's event queue and the input devices'; its deadlines and
/// event times are on `LoopClock.system`.
public enum EventQueue {
    /// Blocks until an event arrives: where an idle carousel spends its time, using no CPU.
    public static func wait() -> SDLEvent? {
        if reader != nil { return waitOnWake(until: nil, on: .system) }
        var e = SDL_Event()
        return SDL_WaitEvent(&e) == 1 ? SDLEvent(origin: .sdl(e)) : nil
    }

    /// Blocks until an event arrives or `clock` reaches `deadline`; nil at the deadline.
    public static func wait(until deadline: Double, on clock: LoopClock = .system) -> SDLEvent? {
        if reader != nil { return waitOnWake(until: deadline, on: clock) }
        let ms = ((deadline - clock.now()) * 1000).rounded(.up)
        var e = SDL_Event()
        return SDL_WaitEventTimeout(&e, Int32(min(max(ms, 0), Double(Int32.max)))) == 1 ? SDLEvent(origin: .sdl(e)) : nil
    }

    /// On KMS/DRM, the input devices read by a thread of their own (SDL's wait there polls
    /// every millisecond, and its evdev reader misplaces an absolute pointer); set on the
    /// main thread by `readInputDevices` and used only there.
    nonisolated(unsafe) private static var reader: EventDeviceReader?
    /// What `reader` handed over and `poll` has not given out yet.
    nonisolated(unsafe) private static var pending: [DeviceInput] = []

    /// Written after every event `post` pushes and whenever the devices' reader has
    /// something, so that a wait on it wakes.
    private static let wakeDescriptor: Int32 = eventfd(0, Int32(EFD_CLOEXEC | EFD_NONBLOCK))

    /// Reads the input devices on a thread of its own and sleeps on what it hands over
    /// instead of in SDL's wait. Main thread. Returns how many devices it found, or nil when
    /// it cannot (SDL's reader and wait stay).
    static func readInputDevices(screen: (width: Double, height: Double), log: @escaping @Sendable (String) -> Void) -> Int? {
        guard wakeDescriptor >= 0, reader == nil,
              let r = EventDeviceReader(wake: wakeDescriptor, screen: screen, log: log) else { return nil }
        reader = r
        return r.startCount
    }

    /// Stops reading the devices (SDL is shutting down). Main thread.
    static func stopReadingInputDevices() {
        reader?.stop()
        reader = nil
        pending = []
    }

    /// Whether udev's announcements wake the loop (so that SDL adds a keyboard plugged in later).
    public static var hearsUdev: Bool { reader?.hearsUdev ?? false }

    private static func waitOnWake(until deadline: Double?, on clock: LoopClock) -> SDLEvent? {
        while true {
            if let e = poll() { return e }
            let left = deadline.map { $0 - clock.now() }
            if let left, left <= 0 { return nil }
            let ms: Int32 = left.map { Int32(min(max(($0 * 1000).rounded(.up), 0), Double(Int32.max))) } ?? -1
            var fd = pollfd(fd: wakeDescriptor, events: Int16(POLLIN), revents: 0)
            if Glibc.poll(&fd, 1, ms) > 0 {
                var count: UInt64 = 0
                _ = read(wakeDescriptor, &count, 8)
            }
        }
    }

    /// The next queued event, without blocking.
    public static func poll() -> SDLEvent? {
        if let reader {
            if pending.isEmpty { pending = reader.take() }
            if !pending.isEmpty { return SDLEvent(origin: .device(pending.removeFirst())) }
        }
        var e = SDL_Event()
        while SDL_PollEvent(&e) == 1 {
            // SDL's own reading of the pointer and fingers, while the reader reads them.
            if reader != nil && readByDevices(e.type) { continue }
            return SDLEvent(origin: .sdl(e))
        }
        return nil
    }

    /// SDL's pointer and touch events, which the devices' reader gives instead.
    private static func readByDevices(_ type: UInt32) -> Bool {
        switch SDL_EventType(type) {
        case SDL_MOUSEMOTION, SDL_MOUSEBUTTONDOWN, SDL_MOUSEBUTTONUP, SDL_MOUSEWHEEL,
             SDL_FINGERDOWN, SDL_FINGERMOTION, SDL_FINGERUP, SDL_MULTIGESTURE, SDL_DOLLARGESTURE:
            return true
        default:
            return false
        }
    }

    /// The code `wakeUp` posts: something is ready to be drawn.
    public static let readyCode: Int32 = 0

    /// Wakes a thread blocked in `wait()`: something (an image) is ready. Any thread may
    /// call it (SDL_PushEvent is thread-safe): the decode workers do.
    @Sendable public static func wakeUp() { post(readyCode) }

    /// Wakes the loop with `code`, which comes out of the translator as `.wake(code)`; what
    /// a code means is the app's to say. False when SDL's queue does not exist (yet).
    @discardableResult @Sendable
    public static func post(_ code: Int32) -> Bool {
        var e = SDL_Event()
        e.type = SDL_USEREVENT.rawValue
        e.user.code = code
        guard SDL_PushEvent(&e) == 1 else { return false }
        var one: UInt64 = 1
        if wakeDescriptor >= 0 { _ = write(wakeDescriptor, &one, 8) }
        return true
    }

    /// An SDL event's time (its ticks: milliseconds on CLOCK_MONOTONIC_RAW from SDL's start,
    /// 32 bits, so they wrap after 49.7 days) on `LoopClock.system`. Counted back from SDL's
    /// ticks now, so a wrap in between does not matter; CLOCK_MONOTONIC, which NTP slews,
    /// and the raw clock are read side by side each time (microseconds apart) to bring the
    /// raw time across.
    static func fromSDL(_ ms: UInt32) -> Double {
        let ticks = SDL_GetTicks64()
        let start: Double
        if let known = sdlStart, ticks >= lastTicks { start = known } else { start = findSDLStart(); sdlStart = start }
        lastTicks = ticks
        let raw = start + Double(ticksOf(ms, now: ticks)) / 1000
        // The raw clock read between two readings of the other, again if the thread was
        // put aside between them (more than 50 µs apart).
        var best = (gap: Double.infinity, offset: 0.0)
        for _ in 0..<3 where best.gap > 0.00005 {
            let before = SystemClock.monotonic, r = SystemClock.monotonicRaw, after = SystemClock.monotonic
            if after - before < best.gap { best = (after - before, (before + after) / 2 - r) }
        }
        return LoopClock.fromMonotonic(raw + best.offset)
    }

    /// An event's 32-bit ticks `ms` as 64-bit ticks, counted back from SDL's ticks `now`.
    static func ticksOf(_ ms: UInt32, now: UInt64) -> UInt64 {
        let age = UInt64(UInt32(truncatingIfNeeded: now) &- ms)
        return now >= age ? now - age : 0
    }

    /// SDL's start on the raw clock, to microseconds: its ticks are whole milliseconds, so
    /// the moment one turns over is waited for (under a millisecond, once). Read at any
    /// other moment it was up to a millisecond late, and SDL's times came out ahead of the
    /// loop's. The turn lies between the last reading of the old millisecond and the first
    /// of the new; it counts only when the two are at most 100 µs apart: a thread put aside
    /// between them (a busy machine) had set every SDL time of the run that far off.
    private static func findSDLStart() -> Double {
        var lastRead = SystemClock.monotonicRaw
        var last = SDL_GetTicks64()
        while true {
            let before = SystemClock.monotonicRaw, ticks = SDL_GetTicks64(), after = SystemClock.monotonicRaw
            if ticks != last, after - lastRead < 0.0001 { return (lastRead + after) / 2 - Double(ticks) / 1000 }
            last = ticks
            lastRead = before
        }
    }

    /// When SDL's ticks began, on CLOCK_MONOTONIC_RAW: found at the first event (and again
    /// if SDL was started again, which starts its ticks over). Main thread.
    nonisolated(unsafe) private static var sdlStart: Double?
    nonisolated(unsafe) private static var lastTicks: UInt64 = 0
}
