/// How the carousel moves to another item by itself or on a step (autoplay, keys, a remote
/// `goto`): sliding the strip (the default), crossfading the pictures in place, or cutting.
/// Drags and flings always slide: a finger moves the strip.
public enum Transition: Hashable, Sendable {
    case slide
    /// The incoming picture fades in over the outgoing one, which stays fully drawn under
    /// it, for this many seconds.
    case fade(Double)
    /// The new picture at once.
    case none

    /// 600 ms: slow enough to read as a dissolve, quick enough that a key press feels answered.
    public static let defaultFadeSeconds = 0.600
}

/// A crossfade from the strip's item to its neighbour: the strip stays on the outgoing item
/// until the end, when it is on the incoming one. What `Carousel.fade` reads its progress from.
public struct FadeAnimation: ScrollAnimation, Hashable {
    public let start: Double
    public let target: Double
    public let startTime: Double
    public let endTime: Double

    public init(from start: Double, to target: Double, time: Double, duration: Double) {
        self.start = start
        self.target = target
        self.startTime = time
        self.endTime = time + max(duration, 0.001)
    }

    public func position(at time: Double) -> Double { time >= endTime ? target : start }
    public func velocity(at time: Double) -> Double { 0 }

    /// How far the incoming picture has faded in at `time`, 0 to 1.
    public func progress(at time: Double) -> Double {
        min(max((time - startTime) / (endTime - startTime), 0), 1)
    }
}
