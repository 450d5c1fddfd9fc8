/// Which pointer an event comes from. One pointer owns a gesture at a time.
public enum PointerID: Hashable, Sendable {
    case mouse
    /// A touch finger, by the id the touch driver gives it.
    case finger(Int64)
}

/// A press, a motion, a lift or a cancellation of one pointer, in viewport pixels.
public struct PointerEvent: Hashable, Sendable {
    public enum Phase: Hashable, Sendable { case down, move, up, cancel }

    public var phase: Phase
    public var pointer: PointerID
    public var location: Point
    /// Seconds on the caller's monotonic clock.
    public var time: Double

    public init(_ phase: Phase, _ pointer: PointerID, x: Double, y: Double, time: Double) {
        self.phase = phase
        self.pointer = pointer
        self.location = Point(x: x, y: y)
        self.time = time
    }
}

/// A discrete navigation command from a key or an accumulated wheel.
public enum Step: Hashable, Sendable {
    case next, previous, first, last
    /// A page forward or back (`Carousel.pageSize` items).
    case nextPage, previousPage
    /// Forward (positive) or back (negative) by this many items.
    case by(Int)
    /// To this item, counted from 0 (a remote `goto`); one out of range goes to the nearest end.
    case item(Int)
}

/// Everything a view's engine (the carousel, the wall) reacts to. Each input carries its
/// own time, in seconds.
public enum ViewInput: Hashable, Sendable {
    case pointer(PointerEvent)
    case step(Step, time: Double)
    /// Wheel or trackpad scroll in notches: +1 is one item forward. Fractions accumulate.
    case scroll(Double, time: Double)
    case resize(Size, time: Double)
    /// Autoplay held (false) until let go (true): a remote `pause` and `play`. Not a
    /// person's input, so it restarts no idle timer.
    case autoplay(Bool, time: Double)
    /// The item in focus holds the show (true: a clip started playing under autoplay) or
    /// lets it go (false: the clip ended, or played its longest): autoplay's next step waits
    /// for it, then comes at once. Not a person's input either.
    case holding(Bool, time: Double)
    /// Zoom the centred picture by a factor (the wheel with Ctrl, `+` and `-`) about a point
    /// (nil: the screen's centre).
    case zoom(by: Double, about: Point?, time: Double)

    public var time: Double {
        switch self {
        case .pointer(let e): return e.time
        case .step(_, let t), .scroll(_, let t), .resize(_, let t), .autoplay(_, let t), .zoom(_, _, let t),
             .holding(_, let t): return t
        }
    }
}
