import CSDL2

/// An SDL event, opaque outside this module so that only the platform layer touches C types.
public struct SDLEvent {
    let raw: SDL_Event
}

/// The run loop's access to SDL's event queue and clock.
public enum EventQueue {
    /// Blocks until an event arrives: where an idle carousel spends its time, using no CPU.
    public static func wait() -> SDLEvent? {
        var e = SDL_Event()
        return SDL_WaitEvent(&e) == 1 ? SDLEvent(raw: e) : nil
    }

    /// Blocks until an event arrives or the clock (`now`) reaches `deadline`; nil at the deadline.
    public static func wait(until deadline: Double) -> SDLEvent? {
        let ms = ((deadline - now) * 1000).rounded(.up)
        var e = SDL_Event()
        return SDL_WaitEventTimeout(&e, Int32(min(max(ms, 0), Double(Int32.max)))) == 1 ? SDLEvent(raw: e) : nil
    }

    /// The next queued event, without blocking.
    public static func poll() -> SDLEvent? {
        var e = SDL_Event()
        return SDL_PollEvent(&e) == 1 ? SDLEvent(raw: e) : nil
    }

    /// Why another thread woke the loop: the `code` of an SDL_USEREVENT.
    public enum Wake: Int32, Sendable {
        case imageReady = 0
        /// SIGTERM or SIGINT.
        case quit = 1
        /// SIGHUP.
        case reload = 2
        /// A watched source folder changed.
        case foldersChanged = 3
        /// Work on another thread finished (a rescan): the loop looks at it and draws only
        /// if it changed something.
        case workDone = 4
        /// Memory pressure changed level: the loop asks the watcher for the new one.
        case memoryPressure = 5
    }

    /// Wakes a thread blocked in `wait()`: an image is ready. Any thread may call it
    /// (SDL_PushEvent is thread-safe): the decode workers do.
    @Sendable public static func wakeUp() { post(.imageReady) }

    /// Wakes the loop for `reason`; false when SDL's queue does not exist (yet).
    @discardableResult @Sendable
    public static func post(_ reason: Wake) -> Bool {
        var e = SDL_Event()
        e.type = SDL_USEREVENT.rawValue
        e.user.code = reason.rawValue
        return SDL_PushEvent(&e) == 1
    }

    /// Seconds since SDL started, on the same clock as event timestamps.
    public static var now: Double { Double(SDL_GetTicks64()) / 1000 }
}
