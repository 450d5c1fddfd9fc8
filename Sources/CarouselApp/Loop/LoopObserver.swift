import CarouselSDL

/// Something riding along the run loop without the loop knowing what it is: told when the
/// loop is about to sleep, when a frame was drawn and when a pass ended, and waking it when
/// it is due. `carousel bench --soak`'s driver is one (`SoakDriver`).
public protocol LoopObserver: AnyObject {
    /// When the loop must wake next for it; nil: no need.
    var nextDue: Double? { get }
    /// The loop is about to wait for events at `now` (main thread: it may queue input).
    func willSleep(now: Double, window: SDLWindow)
    /// A frame took `seconds` from waking to presented; `animating`: the view was moving.
    func frameDrawn(seconds: Double, animating: Bool)
    /// A pass of the loop ended at `now`.
    func passEnded(now: Double, scene: any Scene)
}
