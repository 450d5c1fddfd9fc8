/// One axis of scrolling, shared by every view: where the content is, a finger holding it
/// (with the rubber band past the ends), and the motion it makes by itself once let go,
/// as its physics decides. Positions are in units of `unit` pixels: the carousel counts
/// in items (one unit is one stride), the mosaic in pixels (one unit is one pixel).
/// No clock: every call that can start or end a motion takes the time.
public struct Scroller: Sendable {
    public enum Motion: Sendable {
        case resting
        /// A pointer is down. `anchor` maps finger travel to an unclamped position.
        case tracking(anchor: Double, anchorTravel: Double, caught: Bool)
        case animating(any ScrollAnimation)
    }

    public private(set) var position: Double
    public private(set) var motion: Motion = .resting
    /// Pixels per unit of position.
    public private(set) var unit: Double
    /// The positions that exist; nil for content without ends (a wrapping strip).
    public var bounds: ClosedRange<Double>?
    /// The viewport's length along the axis, px: how far the rubber band may stretch.
    public var viewportLength: Double
    /// Where the content was when the current pointer went down.
    public private(set) var pressPosition: Double = 0
    private var lastTravel: Double = 0

    public init(position: Double, unit: Double, bounds: ClosedRange<Double>?, viewportLength: Double) {
        self.position = position
        self.unit = unit
        self.bounds = bounds
        self.viewportLength = viewportLength
    }

    public var isResting: Bool {
        if case .resting = motion { return true }
        return false
    }

    public var isAnimating: Bool {
        if case .animating = motion { return true }
        return false
    }

    /// The motion under way, if the content moves by itself.
    public var animation: (any ScrollAnimation)? {
        if case .animating(let a) = motion { return a }
        return nil
    }

    /// Units per second, while animating; 0 otherwise.
    public func velocity(at time: Double) -> Double { animation?.velocity(at: time) ?? 0 }

    /// A pointer went down: the content stops under it. Whether it caught a motion.
    @discardableResult
    public mutating func press() -> Bool {
        let caught = isAnimating
        pressPosition = position
        lastTravel = 0
        motion = .tracking(anchor: position, anchorTravel: 0, caught: caught)
        return caught
    }

    /// Whether the current press stopped a motion (a tap that stops a fling does not open).
    public var pressCaughtMotion: Bool {
        if case .tracking(_, _, let caught) = motion { return caught }
        return false
    }

    /// The finger is `travel` px from where it went down: the content follows it, with
    /// resistance past the ends.
    public mutating func drag(travel: Double) {
        guard case .tracking(let anchor, let anchorTravel, _) = motion else { return }
        lastTravel = travel
        position = rubberBanded(anchor - (travel - anchorTravel) / unit)
    }

    /// The finger lifted: the physics says where the content goes. Nil when no pointer was down.
    public mutating func release(travel: Double, velocity: Double, time: Double,
                                 physics: some ScrollPhysics) -> ScrollLanding? {
        guard case .tracking = motion else { return nil }
        let landing = physics.land(ScrollRelease(position: position, pressPosition: pressPosition, travel: travel,
                                                 velocity: velocity, unit: unit, bounds: bounds, time: time))
        motion = landing.isStill ? .resting : .animating(landing.animation)
        return landing
    }

    /// Starts a motion of its own (a step, a tap, autoplay, a return).
    public mutating func animate(_ animation: any ScrollAnimation) {
        motion = .animating(animation)
    }

    /// Stops any motion where the content is.
    public mutating func stop() { motion = .resting }

    /// Moves the content to `position` at once, stopping any motion.
    public mutating func jump(to position: Double) {
        self.position = position
        motion = .resting
    }

    /// The motion under way reached its end by `time`: the content rests at its target.
    /// Returns the finished motion, nil when none ended.
    public mutating func finishIfDone(at time: Double) -> (any ScrollAnimation)? {
        guard let a = animation, a.isDone(at: time) else { return nil }
        motion = .resting
        position = a.target
        return a
    }

    /// Where the motion under way has the content at `time`.
    public mutating func follow(to time: Double) {
        if let a = animation { position = a.position(at: time) }
    }

    /// A new length per unit (the carousel's stride after a resize). A finger still down
    /// keeps the content where it is; later travel moves it at the new length.
    public mutating func setUnit(_ unit: Double, viewportLength: Double) {
        self.unit = unit
        self.viewportLength = viewportLength
        if case .tracking(_, _, let caught) = motion {
            motion = .tracking(anchor: position, anchorTravel: lastTravel, caught: caught)
        }
    }

    /// Applies rubber-band resistance past the ends: the further the overscroll, the less
    /// the content follows, never beyond one viewport length (`RubberBand`).
    public func rubberBanded(_ raw: Double) -> Double {
        guard let b = bounds else { return raw }
        if raw < b.lowerBound {
            return b.lowerBound - RubberBand.damped((b.lowerBound - raw) * unit, dimension: viewportLength) / unit
        }
        if raw > b.upperBound {
            return b.upperBound + RubberBand.damped((raw - b.upperBound) * unit, dimension: viewportLength) / unit
        }
        return raw
    }
}
