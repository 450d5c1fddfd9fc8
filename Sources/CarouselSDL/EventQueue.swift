import CSDL2
import Glibc
import CLinux

/// An SDL event, opaque outside this module so that only the platform layer touches C types.
public struct SDLEvent {
    let raw: SDL_Event
}

/// The run loop's access to SDL's event queue and clock.
public enum EventQueue {
    /// Blocks until an event arrives: where an idle carousel spends its time, using no CPU.
    public static func wait() -> SDLEvent? {
        if deviceWait != nil { return waitOnDevices(until: nil) }
        var e = SDL_Event()
        return SDL_WaitEvent(&e) == 1 ? SDLEvent(raw: e) : nil
    }

    /// Blocks until an event arrives or the clock (`now`) reaches `deadline`; nil at the deadline.
    public static func wait(until deadline: Double) -> SDLEvent? {
        if deviceWait != nil { return waitOnDevices(until: deadline) }
        let ms = ((deadline - now) * 1000).rounded(.up)
        var e = SDL_Event()
        return SDL_WaitEventTimeout(&e, Int32(min(max(ms, 0), Double(Int32.max)))) == 1 ? SDLEvent(raw: e) : nil
    }

    /// Where SDL's own wait polls (KMS/DRM): sleeps on the input devices instead; set on the
    /// main thread by `blockOnInputDevices()` and used only there.
    nonisolated(unsafe) private static var deviceWait: InputDeviceWait?

    /// Written after every event `post` pushes, so that a wait on the devices wakes for it.
    private static let wakeDescriptor: Int32 = eventfd(0, Int32(EFD_CLOEXEC | EFD_NONBLOCK))

    /// Makes `wait` sleep in poll(2) on the input devices instead of in SDL's wait, which
    /// polls every millisecond on KMS/DRM. Main thread. Returns how many devices it listens
    /// to, or nil when it cannot (SDL's wait stays).
    public static func blockOnInputDevices() -> Int? {
        guard wakeDescriptor >= 0, let wait = InputDeviceWait(now: now) else { return nil }
        deviceWait = wait
        return wait.deviceCount
    }

    /// Whether the wait on the devices also wakes for udev's announcements of new devices
    /// (else it polls for a few seconds after each change of /dev/input).
    public static var hearsUdev: Bool { deviceWait?.hearsUdev ?? false }

    private static func waitOnDevices(until deadline: Double?) -> SDLEvent? {
        while true {
            if let e = poll() { return e }
            let left = deadline.map { $0 - now }
            if let left, left <= 0 { return nil }
            deviceWait?.block(timeout: left, now: now, wake: wakeDescriptor)
        }
    }

    /// The next queued event, without blocking.
    public static func poll() -> SDLEvent? {
        var e = SDL_Event()
        return SDL_PollEvent(&e) == 1 ? SDLEvent(raw: e) : nil
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

    /// Seconds since SDL started, on the same clock as event timestamps.
    public static var now: Double { Double(SDL_GetTicks64()) / 1000 }
}
