/// Turns one pointer's down/move/up/cancel into scrolling gestures: a press, a drag along
/// the view's axis with a release velocity, a tap, or nothing (a drag along the other axis,
/// a long press). The carousel tracks horizontally, the mosaic vertically.
///
/// One pointer owns a gesture; events of any other pointer are ignored until it ends.
public struct GestureTracker: Sendable {
    /// What a pointer event meant.
    public enum Gesture: Hashable, Sendable {
        /// A pointer went down: the strip stops under it.
        case pressed(Point, time: Double)
        /// The owning pointer moved `travel` pixels along the axis from where it went down.
        case dragged(travel: Double, time: Double)
        /// A drag along the axis ended, with the finger's total travel and velocity (px/s).
        case released(travel: Double, velocity: Double, time: Double)
        /// A short press that did not move: a tap at this point.
        case tapped(Point, time: Double)
        /// A press ended without a drag or a tap (a drag along the other axis, a long press, a cancel).
        case ended(time: Double)
    }

    private enum State: Sendable {
        case idle
        /// Down, not yet beyond the slop on either axis.
        case pending(PointerID, start: Point, startTime: Double)
        /// Went along the axis first: the drag moves the view.
        case tracking(PointerID, start: Point)
        /// Went along the other axis first: ignored until the pointer lifts (directional
        /// lock, seed 002).
        case crossing(PointerID)
    }

    public var settings: GestureSettings
    /// The axis drags move the view along.
    public let axis: Axis
    private var state: State = .idle
    private var velocity = VelocityTracker()

    public init(settings: GestureSettings = GestureSettings(), axis: Axis = .horizontal) {
        self.settings = settings
        self.axis = axis
    }

    /// True while a pointer owns a gesture.
    public var isActive: Bool {
        if case .idle = state { return false }
        return true
    }

    /// True while a drag along the axis moves the view.
    public var isDragging: Bool {
        if case .tracking = state { return true }
        return false
    }

    /// Forgets the pointer that owns the gesture (it became a pinch): its later events are
    /// ignored like any other pointer's.
    public mutating func abandon() { state = .idle }

    public mutating func handle(_ e: PointerEvent) -> Gesture? {
        switch (state, e.phase) {
        case (.idle, .down):
            state = .pending(e.pointer, start: e.location, startTime: e.time)
            velocity.reset()
            velocity.add(time: e.time, position: e.location.along(axis))
            return .pressed(e.location, time: e.time)
        case (.idle, _):
            return nil

        case (.pending(let owner, let start, let startTime), _) where owner == e.pointer:
            velocity.add(time: e.time, position: e.location.along(axis))
            let along = e.location.along(axis) - start.along(axis)
            let across = e.location.along(axis.other) - start.along(axis.other)
            switch e.phase {
            case .down:
                return nil
            case .move:
                if abs(along) > settings.slop || abs(across) > settings.slop {
                    if abs(along) >= abs(across) {
                        state = .tracking(owner, start: start)
                        return .dragged(travel: along, time: e.time)
                    }
                    state = .crossing(owner)
                }
                return nil
            case .up:
                state = .idle
                let still = abs(along) <= settings.slop && abs(across) <= settings.slop
                if still && e.time - startTime < settings.tapMaxDuration {
                    return .tapped(start, time: e.time)
                }
                return .ended(time: e.time)
            case .cancel:
                state = .idle
                return .ended(time: e.time)
            }

        case (.tracking(let owner, let start), _) where owner == e.pointer:
            let travel = e.location.along(axis) - start.along(axis)
            switch e.phase {
            case .down:
                return nil
            case .move:
                velocity.add(time: e.time, position: e.location.along(axis))
                return .dragged(travel: travel, time: e.time)
            case .up:
                state = .idle
                return .released(travel: travel, velocity: velocity.velocity(at: e.time), time: e.time)
            case .cancel:
                state = .idle
                return .released(travel: travel, velocity: 0, time: e.time)
            }

        case (.crossing(let owner), .up), (.crossing(let owner), .cancel):
            guard owner == e.pointer else { return nil }
            state = .idle
            return .ended(time: e.time)

        default:
            return nil  // another pointer, or a drag along the other axis still under way
        }
    }
}
