/// The engine under every view: inputs and times in, position, slots and events out, with
/// no clock and no I/O. Written once here: dispatching input (each, but a resize, pauses
/// autoplay and restarts the idle timers), the advance loop in which a settle ends and an
/// autoplay turn starts at its own time, following the motion and the queues. What differs
/// between views is theirs: the layout, what a gesture, a step or a wheel notch does (the
/// strip snaps to items, the wall glides), what autoplay does and how slots are covered.
public protocol ViewEngine: Sendable {
    var core: EngineCore { get set }
    /// Whether there is anywhere to move: autoplay has something to do.
    var canMoveByItself: Bool { get }
    /// The size laid out, in logical pixels.
    var viewport: Size { get }
    /// A drag let go with this travel and velocity (px, px/s along the view's axis).
    mutating func release(travel: Double, velocity: Double, time: Double)
    /// A tap at a point of the viewport.
    mutating func tap(at point: Point, time: Double)
    /// A press ended without a release (cancelled, or the finger lost).
    mutating func pressEnded(time: Double)
    mutating func step(_ step: Step, time: Double)
    /// The wheel, in notches: forward positive.
    mutating func scroll(notches: Double, time: Double)
    mutating func resize(to size: Size, time: Double)
    /// Attract mode's turn fell due at `time` (the schedule has noted it).
    mutating func perform(_ due: AttractSchedule.Due, time: Double)
    /// Gives slots to what the position now shows (changes go to `core.merge`).
    mutating func updatePool()
    /// A motion ended at `time`.
    mutating func cameToRest(time: Double)
    /// The centred picture's zoom, for a view that owns one (the carousel); nil, and
    /// nothing stored, for one that does not.
    var centredZoom: CentredZoom? { get set }
}

extension ViewEngine {
    /// Where the content is: the strip's fractional item, the wall's pixels from its top.
    public var position: Double { core.scroller.position }
    /// Autoplay is set and not paused by a remote `pause`.
    public var isPlaying: Bool { core.attract.isPlaying }
    /// A remote `pause` (or K) holds the show, and the clip in focus, until `play`.
    public var isPaused: Bool { core.attract.paused }
    /// The latest time seen, seconds.
    public var time: Double { core.time }
    /// Which way the content last moved: +1 towards later items, -1 back, 0 not yet.
    public var direction: Int { core.direction }
    /// Moving by itself; when false and no pointer is down the app may sleep.
    public var isAnimating: Bool { core.scroller.isAnimating || zoomPan?.isAnimating == true }
    /// A pointer is down.
    public var isInteracting: Bool { core.gestures.isActive || fingers.isActive }
    /// The centred picture's zoom (nil for a view that does not zoom).
    public var zoom: ZoomPan? { centredZoom?.pan }

    /// A view that does not zoom stores none.
    public var centredZoom: CentredZoom? {
        get { nil }
        set {}
    }

    /// `centredZoom`'s picture zoom, changed in place.
    var zoomPan: ZoomPan? {
        get { centredZoom?.pan }
        set { if let newValue { centredZoom?.pan = newValue } }
    }

    /// `centredZoom`'s fingers; none on a view that does not zoom.
    var fingers: PinchTracker {
        get { centredZoom?.fingers ?? PinchTracker() }
        set { centredZoom?.fingers = newValue }
    }

    /// When attract mode will next move the view by itself, if it is at rest: the app may
    /// sleep until then. Nil while moving, while a pointer is down, or with nothing planned.
    /// A zoomed picture goes back to fit first (`AttractSchedule.zoomReturn`).
    public var nextScheduledTime: Double? {
        guard case .resting = core.scroller.motion, !isInteracting, zoomPan?.isAnimating != true else { return nil }
        if zoomPan?.isZoomed == true { return core.attract.zoomReturn.map { max($0, core.time) } }
        guard canMoveByItself else { return nil }
        return core.attract.next.map { max($0.time, core.time) }
    }

    /// Events since the last call, oldest first.
    public mutating func takeEvents() -> [ViewEvent] {
        defer { core.events.removeAll() }
        return core.events
    }

    /// Slots given a new item since the last call: the renderer reloads exactly these.
    public mutating func takeSlotChanges() -> [SlotAssignment] {
        defer { core.slotChanges.removeAll() }
        return core.slotChanges
    }

    /// Runs animations up to the input's time, then applies it. Every input but a resize
    /// comes from a person, so it pauses autoplay and restarts the idle timers.
    public mutating func handle(_ input: ViewInput) {
        advance(to: input.time)
        let t = core.time
        switch input {
        case .pointer(let e):
            core.attract.noteInput(at: t)
            if zoomPan != nil {
                zoomingPointer(e)
            } else if let g = core.gestures.handle(e) {
                apply(g)
            }
        case .step(let s, let at):
            core.attract.noteInput(at: t)
            guard !fingers.isActive else { return }
            zoomPan?.reset()  // a step leaves the zoom at once
            // A step from the strip at rest, for an instant just passed (a group's step, heard
            // by a loop that woke late), moves as if begun then: it ends when every other
            // screen's does instead of as late as this one woke.
            let late = core.scroller.isResting && at < t && t - at <= Self.stepCatchUp
            step(s, time: late ? at : t)
        case .scroll(let notches, _):
            core.attract.noteInput(at: t)
            guard !fingers.isActive else { return }
            zoomPan?.reset()
            scroll(notches: notches, time: t)
        case .zoom(let factor, let point, _):
            core.attract.noteInput(at: t)
            guard core.scroller.isResting, !isInteracting else { return }
            zoomPan?.zoom(by: factor, about: point, time: t)
        case .resize(let size, _):
            zoomPan?.resize(to: size)
            resize(to: size, time: t)
        case .autoplay(let playing, _):
            if playing { core.attract.play(at: t) } else { core.attract.pause() }
        case .holding(let holds, _):
            if holds { core.attract.hold(at: t) } else { core.attract.letGo(at: t) }
        }
    }

    /// Moves animations forward to `newTime` (earlier times are ignored). Whatever falls due
    /// on the way (a settle ending, an autoplay turn) happens at its own time, not at
    /// `newTime`, so the result does not depend on how often this is called.
    /// How far back a step from rest may begin (`handle`): a loop a frame or a few late
    /// catches up; one that slept longer moves from now.
    public static var stepCatchUp: Double { 0.5 }

    public mutating func advance(to newTime: Double) {
        guard newTime > core.time else { return }
        while true {
            if let end = zoomPan?.endTime, end <= newTime, end <= core.scroller.animation?.endTime ?? end {
                core.time = max(core.time, end)
                if zoomPan?.finishIfDone(at: end) == true, let z = zoomPan, let target = z.target {
                    core.events.append(ViewEvent(time: core.time, kind: .zoom(index: target.item, scale: (z.scale * 1000).rounded() / 1000)))
                }
            } else if let a = core.scroller.animation {
                guard a.isDone(at: newTime) else { break }
                core.time = max(core.time, a.endTime)
                moving { _ = $0.finishIfDone(at: newTime) }
                cameToRest(time: a.endTime)
            } else if let due = nextScheduledTime, due <= newTime {
                core.time = due
                if zoomPan?.isZoomed == true {
                    zoomPan?.fit(time: due)  // attract mode waits for the picture at fit
                } else if let planned = core.attract.next {
                    core.attract.performed(planned.due, at: due)
                    perform(planned.due, time: due)
                } else {
                    break
                }
            } else {
                break
            }
        }
        core.time = newTime
        zoomPan?.follow(to: newTime)
        if core.scroller.isAnimating { moving { $0.follow(to: newTime) } }
    }

    /// A gesture the tracker recognised: a press holds the content, a drag moves it, the
    /// rest is the view's.
    mutating func apply(_ g: GestureTracker.Gesture) {
        switch g {
        case .pressed: core.scroller.press()
        case .dragged(let travel, _): moving { $0.drag(travel: travel) }
        case .released(let travel, let velocity, let t): release(travel: travel, velocity: velocity, time: t)
        case .tapped(let point, let t): tap(at: point, time: t)
        case .ended(let t): pressEnded(time: t)
        }
    }

    /// Lets the scroller move the content, then notes which way it went and refills the slots.
    mutating func moving(_ change: (inout Scroller) -> Void) {
        let before = core.scroller.position
        change(&core.scroller)
        let p = core.scroller.position
        if p != before {
            core.movedSinceRest = true
            core.direction = p > before ? 1 : -1
        }
        updatePool()
    }
}
