/// Turns one pointer's down/move/up/cancel into carousel gestures: a press, a horizontal
/// drag with a release velocity, a tap, or nothing (a vertical drag, a long press).
///
/// One pointer owns a gesture; events of any other pointer are ignored until it ends.
public struct GestureTracker: Sendable {
    /// What a pointer event meant.
    public enum Gesture: Hashable, Sendable {
        /// A pointer went down: the strip stops under it.
        case pressed(Point, time: Double)
        /// The owning pointer moved horizontally `travel` pixels from where it went down.
        case dragged(travel: Double, time: Double)
        /// A horizontal drag ended, with the finger's total travel and velocity (px/s).
        case released(travel: Double, velocity: Double, time: Double)
        /// A short press that did not move: a tap at this point.
        case tapped(Point, time: Double)
        /// A press ended without a drag or a tap (vertical drag, long press, cancel).
        case ended(time: Double)
    }

    private enum State: Sendable {
        case idle
        /// Down, not yet beyond the slop on either axis.
        case pending(PointerID, start: Point, startTime: Double)
        case horizontal(PointerID, start: Point)
        /// Went vertical first: ignored until the pointer lifts (directional lock, seed 002).
        case vertical(PointerID)
    }

    public var settings: GestureSettings
    private var state: State = .idle
    private var velocity = VelocityTracker()

    public init(settings: GestureSettings = GestureSettings()) {
        self.settings = settings
    }

    /// True while a pointer owns a gesture.
    public var isActive: Bool {
        if case .idle = state { return false }
        return true
    }

    /// True while a horizontal drag moves the strip.
    public var isDragging: Bool {
        if case .horizontal = state { return true }
        return false
    }

    public mutating func handle(_ e: PointerEvent) -> Gesture? {
        switch (state, e.phase) {
        case (.idle, .down):
            state = .pending(e.pointer, start: e.location, startTime: e.time)
            velocity.reset()
            velocity.add(time: e.time, position: e.location.x)
            return .pressed(e.location, time: e.time)
        case (.idle, _):
            return nil

        case (.pending(let owner, let start, let startTime), _) where owner == e.pointer:
            velocity.add(time: e.time, position: e.location.x)
            let dx = e.location.x - start.x, dy = e.location.y - start.y
            switch e.phase {
            case .down:
                return nil
            case .move:
                if abs(dx) > settings.slop || abs(dy) > settings.slop {
                    if abs(dx) >= abs(dy) {
                        state = .horizontal(owner, start: start)
                        return .dragged(travel: dx, time: e.time)
                    }
                    state = .vertical(owner)
                }
                return nil
            case .up:
                state = .idle
                let still = abs(dx) <= settings.slop && abs(dy) <= settings.slop
                if still && e.time - startTime < settings.tapMaxDuration {
                    return .tapped(start, time: e.time)
                }
                return .ended(time: e.time)
            case .cancel:
                state = .idle
                return .ended(time: e.time)
            }

        case (.horizontal(let owner, let start), _) where owner == e.pointer:
            let dx = e.location.x - start.x
            switch e.phase {
            case .down:
                return nil
            case .move:
                velocity.add(time: e.time, position: e.location.x)
                return .dragged(travel: dx, time: e.time)
            case .up:
                state = .idle
                return .released(travel: dx, velocity: velocity.velocity(at: e.time), time: e.time)
            case .cancel:
                state = .idle
                return .released(travel: dx, velocity: 0, time: e.time)
            }

        case (.vertical(let owner), .up), (.vertical(let owner), .cancel):
            guard owner == e.pointer else { return nil }
            state = .idle
            return .ended(time: e.time)

        default:
            return nil  // another pointer, or a vertical drag still under way
        }
    }
}
