/// A drag that ended: what a scroll physics decides from.
public struct ScrollRelease: Sendable {
    /// Where the content is at the release, and where it was when the pointer went down,
    /// in the scroller's units.
    public var position: Double
    public var pressPosition: Double
    /// The finger's signed travel along the axis (px) and its velocity (px/s): a finger
    /// moving up or left pulls the content on, so the position grows.
    public var travel: Double
    public var velocity: Double
    /// Pixels per unit of position.
    public var unit: Double
    /// The positions that exist, nil for content without ends.
    public var bounds: ClosedRange<Double>?
    public var time: Double
}

/// Where a released drag goes and how: the animation, and for paging physics the rule
/// that chose its target (for the event log).
public struct ScrollLanding: Sendable {
    public var decision: ReleaseDecision?
    public var animation: any ScrollAnimation
    /// Nothing to animate: the content already rests where it should and nothing moves.
    public var isStill: Bool

    public init(decision: ReleaseDecision? = nil, animation: any ScrollAnimation, isStill: Bool = false) {
        self.decision = decision
        self.animation = animation
        self.isStill = isStill
    }
}

/// What a scroller does when the finger lifts. The carousel pages (`PageSnapping`), the
/// mosaic glides and slows down (`FrictionScrolling`); both share the scroller's drag,
/// rubber band and animations.
public protocol ScrollPhysics: Sendable {
    func land(_ release: ScrollRelease) -> ScrollLanding
}

/// The carousel's physics: a release is a swipe, a fling or a realign (`ReleasePolicy`)
/// onto a whole item, reached with an ease-out (`SettleAnimation`). One unit is one item.
public struct PageSnapping: ScrollPhysics, Hashable {
    public var policy: ReleasePolicy

    public init(policy: ReleasePolicy = ReleasePolicy()) { self.policy = policy }

    public func land(_ r: ScrollRelease) -> ScrollLanding {
        let (decision, raw) = policy.decide(position: r.position, startPosition: r.pressPosition, travel: r.travel,
                                            velocity: r.velocity, stride: r.unit)
        let target = r.bounds.map { min(max(Double(raw), $0.lowerBound), $0.upperBound) } ?? Double(raw)
        let velocity = -r.velocity / r.unit
        return ScrollLanding(decision: decision,
                             animation: SettleAnimation(from: r.position, to: target, velocity: velocity, time: r.time),
                             isStill: target == r.position && velocity == 0)
    }
}
