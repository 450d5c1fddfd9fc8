/// Which fingers hold a zoomable view and what they are doing: nothing, driving the strip
/// (one finger on a picture at fit), pinching (two), panning a zoomed picture (one), or
/// waiting for the last to lift after a pinch sprang back. Fingers beyond two are ignored.
/// It also remembers the last tap, so that a second one close by in time and place is a
/// double tap. The decisions are `ViewEngine.zoomingPointer`'s; this holds the state.
public struct PinchTracker: Sendable {
    enum Mode: Sendable {
        case idle
        /// One pointer drives the strip through the gesture tracker.
        case strip
        /// Two fingers were `distance` apart about `start` when they took hold.
        case pinch(start: Point, distance: Double)
        /// One pointer holds a zoomed picture: went down at `start`; `moved` once past the slop.
        case pan(owner: PointerID, start: Point, startTime: Double, moved: Bool)
        /// The picture went back to fit after a pinch: nothing until every finger lifts.
        case waiting
    }

    var mode = Mode.idle
    /// The pointers down, at most two, and where each is.
    private(set) var down: [PointerID: Point] = [:]
    private(set) var order: [PointerID] = []
    var velocityX = VelocityTracker()
    var velocityY = VelocityTracker()
    /// The last tap, for a double tap.
    var lastTap: (time: Double, point: Point)?

    public init() {}

    /// Something holds the view (a pinch, a pan, fingers waiting to lift).
    public var isActive: Bool {
        if case .idle = mode { return false }
        return true
    }

    /// Notes a pointer down; false for a third finger, which is ignored.
    mutating func add(_ id: PointerID, at p: Point) -> Bool {
        if down[id] == nil {
            guard down.count < 2 else { return false }
            order.append(id)
        }
        down[id] = p
        return true
    }

    /// Moves a pointer held; false for one not held.
    mutating func move(_ id: PointerID, to p: Point) -> Bool {
        guard down[id] != nil else { return false }
        down[id] = p
        return true
    }

    /// Lets a pointer go; false for one not held.
    mutating func remove(_ id: PointerID) -> Bool {
        guard down.removeValue(forKey: id) != nil else { return false }
        order.removeAll { $0 == id }
        if down.isEmpty { mode = .idle }
        return true
    }

    /// The two fingers' midpoint and distance.
    var span: (midpoint: Point, distance: Double)? {
        guard order.count == 2, let a = down[order[0]], let b = down[order[1]] else { return nil }
        return (Point(x: (a.x + b.x) / 2, y: (a.y + b.y) / 2), ((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y)).squareRoot())
    }

    /// The one pointer left, and where.
    var remaining: (id: PointerID, at: Point)? {
        guard order.count == 1, let p = down[order[0]] else { return nil }
        return (order[0], p)
    }

    /// A tap at `point`: whether it completes a double tap (then forgotten), else remembered.
    mutating func isDoubleTap(at point: Point, time: Double, settings: ZoomSettings) -> Bool {
        if let last = lastTap, time - last.time <= settings.doubleTapInterval,
           ((point.x - last.point.x) * (point.x - last.point.x) + (point.y - last.point.y) * (point.y - last.point.y)).squareRoot()
               <= settings.doubleTapDistance {
            lastTap = nil
            return true
        }
        lastTap = (time, point)
        return false
    }
}
