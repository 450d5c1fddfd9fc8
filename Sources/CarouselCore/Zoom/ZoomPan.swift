/// The centred picture looked at closer: where its rectangle is on the screen as fingers
/// pinch and pan it, a double tap or the wheel zooms it, and its own physics move it once
/// let go (a pan glides on with the strip's friction, edges pulled past rubber-band back,
/// a scale below fit springs back to fit, one past the largest back to the largest).
///
/// Scale 1 is the picture fitted in its slot (`target.content`); it shows at most its own
/// pixels at 1:1 (`target.maxScale`). Larger than the screen along an axis, the picture
/// may be panned until its edge meets the screen's; smaller, it stays centred on where it
/// sits at fit. No clock: every call that can start a motion takes the time.
public struct ZoomPan: Sendable {
    /// What is zoomed: which item, where its picture sits at fit, how far it may grow.
    public struct Target: Hashable, Sendable {
        /// The item, and its virtual index on the strip.
        public var item: Int
        public var virtualIndex: Int
        /// The picture's rectangle at fit, viewport px, with the strip at rest on the item.
        public var content: Rect
        /// The scale at which the picture's own pixels show 1:1 (at least `minimumMaxScale`).
        public var maxScale: Double

        public init(item: Int, virtualIndex: Int, content: Rect, maxScale: Double) {
            self.item = item
            self.virtualIndex = virtualIndex
            self.content = content
            self.maxScale = maxScale
        }
    }

    private enum Motion: Sendable {
        case resting
        /// Fingers hold the picture: `grab` is the rectangle, before the rubber band, that
        /// their travel is added to.
        case held(grab: Rect)
        case animating(x: any ScrollAnimation, y: any ScrollAnimation, width: any ScrollAnimation)
    }

    public let settings: ZoomSettings
    public private(set) var viewport: Size
    public private(set) var target: Target?
    /// The picture's rectangle on the screen now (the strip at rest).
    public private(set) var frame = Rect(x: 0, y: 0, width: 0, height: 0)
    private var motion = Motion.resting
    /// The picture moved since it last rested: `cameToRest` reports it once.
    private var movedSinceRest = false
    /// Where the last pinch's fingers were: a scale sprung back keeps this point still.
    private var focus: Point?

    public init(viewport: Size, settings: ZoomSettings = ZoomSettings()) {
        self.viewport = viewport
        self.settings = settings
    }

    // MARK: - State

    /// Larger than fit (or moving from it): a drag pans the picture, autoplay waits.
    public var isZoomed: Bool {
        guard let c = target?.content else { return false }
        if case .resting = motion { return abs(frame.size.width - c.size.width) > 0.5 || abs(frame.minX - c.minX) > 0.5 || abs(frame.minY - c.minY) > 0.5 }
        return true
    }

    public var isAnimating: Bool {
        if case .animating = motion { return true }
        return false
    }

    public var isHeld: Bool {
        if case .held = motion { return true }
        return false
    }

    /// The picture's scale against fit.
    public var scale: Double {
        guard let c = target?.content, c.size.width > 0 else { return 1 }
        return frame.size.width / c.size.width
    }

    /// When the motion under way ends.
    public var endTime: Double? {
        guard case .animating(let x, let y, let w) = motion else { return nil }
        return max(x.endTime, y.endTime, w.endTime)
    }

    /// Maps a rectangle given at fit (the item's box, the strip at rest) to where the zoom
    /// has it now.
    public func map(_ r: Rect) -> Rect {
        guard let c = target?.content, c.size.width > 0 else { return r }
        let s = frame.size.width / c.size.width
        return Rect(x: frame.minX + (r.minX - c.minX) * s, y: frame.minY + (r.minY - c.minY) * s,
                    width: r.size.width * s, height: r.size.height * s)
    }

    /// Whether the picture's left (`direction` < 0: a finger moving right shows what is left
    /// of it) or right edge is on the screen: a drag that way turns to the neighbour.
    public func showsEdge(towards direction: Double) -> Bool {
        let r = xRange(width: frame.size.width)
        return direction > 0 ? frame.minX >= r.upperBound - 0.5 : frame.minX <= r.lowerBound + 0.5
    }

    // MARK: - What is zoomed

    /// The picture on `target` is shown (or its size became known): a new picture starts at
    /// fit; the same one keeps its zoom.
    public mutating func show(_ new: Target?) {
        guard new != target else { return }
        let old = target
        target = new
        if let old, let new, old.item == new.item, old.virtualIndex == new.virtualIndex, old.content.size.width > 0 {
            // The same picture, its fitted place moved or rounded a pixel otherwise (a
            // stand-in replaced by the picture): the zoom follows it.
            let k = new.content.size.width / old.content.size.width
            frame = Rect(x: new.content.minX + (frame.minX - old.content.minX) * k,
                         y: new.content.minY + (frame.minY - old.content.minY) * k,
                         width: frame.size.width * k, height: frame.size.height * k)
            if case .animating = motion { motion = .resting }
            return
        }
        reset()
    }

    /// Back to fit at once, no motion.
    public mutating func reset() {
        motion = .resting
        movedSinceRest = false
        focus = nil
        frame = target?.content ?? Rect(x: 0, y: 0, width: 0, height: 0)
    }

    public mutating func resize(to size: Size) {
        viewport = size
        target = nil
        reset()
    }

    // MARK: - Fingers

    /// A finger went down (or the fingers changed): the picture stops under them.
    public mutating func hold() {
        guard target != nil else { return }
        motion = .held(grab: unbanded(frame))
    }

    /// The fingers holding it moved by `travel` since `hold`: the picture follows, with
    /// resistance past its edges.
    public mutating func pan(by travel: Point) {
        guard case .held(let grab) = motion else { return }
        var raw = grab
        raw.origin.x += travel.x
        raw.origin.y += travel.y
        place(raw)
    }

    /// Two fingers that were `startDistance` apart about `start` when held are now
    /// `distance` apart about `midpoint`: the point of the picture under the fingers stays
    /// under them as it grows or shrinks, with resistance below fit and past the largest.
    public mutating func pinch(from start: Point, startDistance: Double, to midpoint: Point, distance: Double) {
        guard case .held(let grab) = motion, let t = target, startDistance > 0, grab.size.width > 0 else { return }
        let rawScale = grab.size.width / t.content.size.width * distance / startDistance
        let shown = bandedScale(rawScale, maxScale: t.maxScale)
        let size = Size(width: t.content.size.width * shown, height: t.content.size.height * shown)
        let u = Point(x: (start.x - grab.minX) / grab.size.width, y: (start.y - grab.minY) / grab.size.height)
        place(Rect(x: midpoint.x - u.x * size.width, y: midpoint.y - u.y * size.height,
                   width: size.width, height: size.height))
        focus = midpoint
    }

    /// The fingers lifted, the last one moving at `velocity` px/s: a scale out of range
    /// springs back about where the fingers were, a pan glides on and stops at the edges.
    public mutating func release(velocity: Point, time: Double) {
        guard case .held = motion, let t = target else { return }
        let s = scale
        if s < 1 - 1e-6 || s > t.maxScale + 1e-6 {
            let limit = min(max(s, 1), t.maxScale)
            animate(to: settled(scale: limit, about: focus ?? Point(x: frame.midX, y: frame.midY)), time: time)
            return
        }
        let x = Self.glide(frame.minX, velocity: velocity.x, range: xRange(width: frame.size.width), time: time)
        let y = Self.glide(frame.minY, velocity: velocity.y, range: yRange(height: frame.size.height), time: time)
        let w = SettleAnimation(from: frame.size.width, to: frame.size.width, velocity: 0, time: time, fixedDuration: 0.001)
        motion = .animating(x: x, y: y, width: w)
        movedSinceRest = true
    }

    // MARK: - Zooming by itself

    /// A double tap at `point`: from fit to `doubleTapScale` about it, from any zoom back to fit.
    public mutating func doubleTap(at point: Point, time: Double) {
        guard let t = target else { return }
        if isZoomed && scale > 1.01 {
            animate(to: t.content, time: time)
        } else {
            animate(to: settled(scale: min(settings.doubleTapScale, t.maxScale), about: point), time: time)
        }
    }

    /// The wheel or a key: `factor` times the scale (that of the zoom under way, so quick
    /// notches add up), about `point` (nil: the screen's centre), kept between fit and the largest.
    public mutating func zoom(by factor: Double, about point: Point?, time: Double) {
        guard let t = target, factor > 0, factor.isFinite else { return }
        let base = motionTarget ?? frame
        let scale = min(max(base.size.width / t.content.size.width * factor, 1), t.maxScale)
        let p = point ?? Point(x: viewport.width / 2, y: viewport.height / 2)
        animate(to: settled(scale: scale, about: p, from: base), time: time)
    }

    /// Back to fit, animated (autoplay is about to move on).
    public mutating func fit(time: Double) {
        guard let t = target, isZoomed else { return }
        animate(to: t.content, time: time)
    }

    // MARK: - Time

    /// Where the motion under way has the picture at `time`.
    public mutating func follow(to time: Double) {
        guard case .animating(let x, let y, let w) = motion, let t = target else { return }
        let width = w.position(at: time)
        frame = Rect(x: x.position(at: time), y: y.position(at: time), width: width,
                     height: width * t.content.size.height / max(t.content.size.width, 1e-9))
    }

    /// Ends a motion done by `time`. True when the picture came to rest after moving (once
    /// per rest: its scale is then worth reporting).
    public mutating func finishIfDone(at time: Double) -> Bool {
        guard let end = endTime, end <= time else { return false }
        follow(to: end)
        motion = .resting
        if let t = target, abs(frame.size.width - t.content.size.width) < 0.5 { frame = t.content }
        defer { movedSinceRest = false }
        return movedSinceRest
    }

    /// The fingers left a picture that did not move (a tap): it rests; nothing to report.
    public mutating func letGo() {
        if case .held = motion { motion = .resting }
    }

    // MARK: - Geometry

    /// Where the motion under way ends.
    private var motionTarget: Rect? {
        guard case .animating(let x, let y, let w) = motion, let t = target else { return nil }
        return Rect(x: x.target, y: y.target, width: w.target,
                    height: w.target * t.content.size.height / max(t.content.size.width, 1e-9))
    }

    /// The positions the picture's left edge may take at `width`: between the screen's right
    /// edge less the width and 0 when wider than the screen; centred on its fit otherwise.
    private func xRange(width: Double) -> ClosedRange<Double> {
        guard let c = target?.content else { return 0...0 }
        if width <= viewport.width { let x = c.midX - width / 2; return x...x }
        return (viewport.width - width)...0
    }

    private func yRange(height: Double) -> ClosedRange<Double> {
        guard let c = target?.content else { return 0...0 }
        if height <= viewport.height { let y = c.midY - height / 2; return y...y }
        return (viewport.height - height)...0
    }

    /// The picture at `scale` with the point of it under `point` (on `base`) kept there,
    /// moved inside its ranges.
    private func settled(scale: Double, about point: Point, from base: Rect? = nil) -> Rect {
        guard let t = target else { return frame }
        let base = base ?? frame
        let size = Size(width: t.content.size.width * scale, height: t.content.size.height * scale)
        let u = Point(x: base.size.width > 0 ? (point.x - base.minX) / base.size.width : 0.5,
                      y: base.size.height > 0 ? (point.y - base.minY) / base.size.height : 0.5)
        let x = clamp(point.x - u.x * size.width, xRange(width: size.width))
        let y = clamp(point.y - u.y * size.height, yRange(height: size.height))
        return Rect(x: x, y: y, width: size.width, height: size.height)
    }

    private mutating func animate(to r: Rect, time: Double) {
        let d = settings.duration
        motion = .animating(x: SettleAnimation(from: frame.minX, to: r.minX, velocity: 0, time: time, fixedDuration: d),
                            y: SettleAnimation(from: frame.minY, to: r.minY, velocity: 0, time: time, fixedDuration: d),
                            width: SettleAnimation(from: frame.size.width, to: r.size.width, velocity: 0, time: time, fixedDuration: d))
        movedSinceRest = true
    }

    /// `raw` (where the fingers put it) shown with the rubber band past its ranges.
    private mutating func place(_ raw: Rect) {
        let band = { (v: Double, r: ClosedRange<Double>, d: Double) -> Double in
            if v < r.lowerBound { return r.lowerBound - RubberBand.damped(r.lowerBound - v, dimension: d) }
            if v > r.upperBound { return r.upperBound + RubberBand.damped(v - r.upperBound, dimension: d) }
            return v
        }
        frame = Rect(x: band(raw.minX, xRange(width: raw.size.width), viewport.width),
                     y: band(raw.minY, yRange(height: raw.size.height), viewport.height),
                     width: raw.size.width, height: raw.size.height)
        movedSinceRest = true
    }

    /// Where fingers would have to have put the picture for the rubber band to show `shown`:
    /// holding a picture mid-return does not make it jump.
    private func unbanded(_ shown: Rect) -> Rect {
        let unband = { (v: Double, r: ClosedRange<Double>, d: Double) -> Double in
            if v < r.lowerBound { return r.lowerBound - RubberBand.undamped(r.lowerBound - v, dimension: d) }
            if v > r.upperBound { return r.upperBound + RubberBand.undamped(v - r.upperBound, dimension: d) }
            return v
        }
        return Rect(x: unband(shown.minX, xRange(width: shown.size.width), viewport.width),
                    y: unband(shown.minY, yRange(height: shown.size.height), viewport.height),
                    width: shown.size.width, height: shown.size.height)
    }

    /// The scale shown for fingers asking `raw`: resistance below fit and past `maxScale`.
    private func bandedScale(_ raw: Double, maxScale: Double) -> Double {
        if raw < 1 { return 1 - RubberBand.damped(1 - raw, dimension: 1) }
        if raw > maxScale { return maxScale + RubberBand.damped(raw - maxScale, dimension: maxScale) }
        return raw
    }

    private func clamp(_ v: Double, _ r: ClosedRange<Double>) -> Double { min(max(v, r.lowerBound), r.upperBound) }

    /// One axis let go at `position` moving `velocity` px/s within `range`: the strip's
    /// friction, easing onto the edge it would pass, a return from past an edge.
    private static func glide(_ position: Double, velocity: Double, range: ClosedRange<Double>,
                              time: Double) -> any ScrollAnimation {
        // The scroller's positions grow as the finger moves back: an edge's position is minus its x.
        let landing = FrictionScrolling().land(ScrollRelease(
            position: -position, pressPosition: -position, travel: 0, velocity: velocity, unit: 1,
            bounds: -range.upperBound ... -range.lowerBound, time: time))
        return Negated(landing.animation)
    }
}

/// A scroller's motion read as the picture's x or y, which grow the other way.
private struct Negated: ScrollAnimation {
    let base: any ScrollAnimation
    init(_ base: any ScrollAnimation) { self.base = base }
    var startTime: Double { base.startTime }
    var endTime: Double { base.endTime }
    var target: Double { -base.target }
    func position(at time: Double) -> Double { -base.position(at: time) }
    func velocity(at time: Double) -> Double { -base.velocity(at: time) }
}
