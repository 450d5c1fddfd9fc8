/// What every view's engine holds, once: the scroller that moves its content, the gesture
/// tracker, attract mode's schedule, the latest time, and the events and slot changes
/// waiting to be taken. The engine (`ViewEngine`) drives it; the view's own part says what
/// a gesture, a step or an autoplay turn does to it.
public struct EngineCore: Sendable {
    var scroller: Scroller
    var gestures: GestureTracker
    var attract: AttractSchedule
    /// The latest time seen, seconds.
    var time: Double
    /// Which way the content last moved: +1 towards later items, -1 back, 0 not yet.
    var direction = 0
    /// The content moved since it last came to rest.
    var movedSinceRest = false
    var events: [ViewEvent] = []
    var slotChanges: [SlotAssignment] = []

    init(scroller: Scroller, gestures: GestureTracker, attract: AttractSchedule, time: Double) {
        self.scroller = scroller
        self.gestures = gestures
        self.attract = attract
        self.time = time
    }

    /// Slot changes since the last take; a slot changed twice counts once, with its latest item.
    mutating func merge(_ changes: [SlotAssignment]) {
        for c in changes {
            slotChanges.removeAll { $0.slot == c.slot }
            slotChanges.append(c)
        }
    }
}
