import CarouselSDL

/// Why another thread woke the run loop: the code it posts through `EventQueue`, which the
/// window hands back as `.wake(code)`.
enum WakeReason: Int32, Sendable {
    /// An image is ready (`EventQueue.wakeUp`, the decode workers).
    case imageReady = 0
    /// SIGTERM or SIGINT.
    case quit = 1
    /// SIGHUP.
    case reload = 2
    /// A watched source folder changed.
    case foldersChanged = 3
    /// Work on another thread finished (a rescan): the loop looks at it and draws only if
    /// it changed something.
    case workDone = 4
    /// Memory pressure changed level: the loop asks the watcher for the new one.
    case memoryPressure = 5
    /// The control API or MQTT posted a request.
    case control = 6
    /// The TV's remote or power said something over HDMI-CEC (`--cec`).
    case television = 7
    /// A presence sensor's key was pressed or released (`--presence-key`).
    case presenceKey = 8

    /// Wakes the loop for this reason, from any thread; false when SDL's queue does not
    /// exist (yet).
    @discardableResult
    func post() -> Bool { EventQueue.post(rawValue) }
}
