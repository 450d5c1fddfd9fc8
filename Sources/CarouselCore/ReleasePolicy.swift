/// What the carousel did when a drag was released.
public enum ReleaseDecision: String, Hashable, Sendable {
    /// A short quick drag: exactly one item in the drag's direction (seed 000's rule).
    case swipe
    /// A long quick drag: momentum carries the strip on, to the item nearest its projection.
    case fling
    /// Otherwise: settle on the item nearest to where the strip is.
    case realign
}

/// The event-log record of one release.
public struct ReleaseRecord: Hashable, Sendable {
    public var decision: ReleaseDecision
    /// The item centred when the pointer went down.
    public var from: Int
    /// The item the strip settles on.
    public var to: Int
    /// The finger's velocity at release, px/s, negative to the left.
    public var velocity: Double
    /// The finger's signed horizontal travel, px, negative to the left.
    public var travel: Double
}

/// The swipe / fling / realign rule, with its tunables.
///
/// Sign convention: a finger moving left (negative travel) pulls the next item in, so
/// the position (a fractional item index) grows.
public struct ReleasePolicy: Hashable, Sendable {
    /// Minimum release speed, px/s, for a swipe or a fling. 300 px/s: a deliberate flick
    /// on a touchscreen is well above 500 px/s, while a finger that stops and lifts
    /// measures under 100; Android uses 400 dp/s, Flutter's floor is 50 px/s.
    public var flickVelocity: Double = 300
    /// How far momentum carries a fling, as seconds of release velocity: the distance
    /// UIScrollView's normal deceleration (0.998 per ms) coasts, v × 0.998 / 0.002 / 1000.
    public var momentumSeconds: Double = 0.499
    /// Most items one fling may travel past the one nearest in its direction
    /// (nil: unlimited; 1: a fling never skips an item).
    public var maxFlingItems: Int? = nil

    public init() {}

    /// The target position for a release.
    /// - Parameters:
    ///   - position: where the strip is at release (fractional item index).
    ///   - startPosition: where it was when the pointer went down.
    ///   - travel: the finger's signed travel, px.
    ///   - velocity: the finger's velocity, px/s.
    ///   - stride: item width + gap, px.
    public func decide(position: Double, startPosition: Double, travel: Double,
                       velocity: Double, stride: Double) -> (ReleaseDecision, target: Int) {
        let quick = abs(velocity) >= flickVelocity
        let sameWay = (velocity < 0) == (travel < 0) && travel != 0
        if quick && abs(travel) < stride / 2 && sameWay {
            let from = Int(startPosition.rounded())
            return (.swipe, from + (travel < 0 ? 1 : -1))
        }
        if quick && abs(travel) >= stride / 2 {
            let forward = velocity < 0
            let projected = position - velocity * momentumSeconds / stride
            var target = Int(projected.rounded())
            // Never short of the nearest item in the direction of motion, never past the cap.
            if forward {
                let nearest = Int(position.rounded(.down)) + 1
                target = max(target, nearest)
                if let cap = maxFlingItems { target = min(target, nearest + max(1, cap) - 1) }
            } else {
                let nearest = Int(position.rounded(.up)) - 1
                target = min(target, nearest)
                if let cap = maxFlingItems { target = max(target, nearest - max(1, cap) + 1) }
            }
            return (.fling, target)
        }
        return (.realign, Int(position.rounded()))
    }
}
