import CarouselCore
import CarouselSDL

/// Dates the lift of a still finger (or button) that waited in the queue while the loop drew.
///
/// SDL 2 dates an event when it reads it from the display server (it passes on no time of
/// the compositor's or the device's), and the loop reads only between frames: a tap's lift
/// that came while a frame was drawn is dated when the drawing ended. Under emulation a
/// Wayland frame took 650 ms, and a 40 ms tap whose press was read before such a frame and
/// its lift after it was a 650 ms press, not a tap (kiosk/vm-test under Wayland lost 20
/// taps in a row so in CI). A lift found already queued came after the last read of events
/// ended (else that read had taken it) and after its pointer's last event: it is dated the
/// soonest it can have come. Only the lift of a pointer still within the slop of its press
/// (a tap, or a press that ends nothing): a drag's lift keeps the time it was read, which
/// its velocity is reckoned at (dated sooner, a drag held still before its lift would
/// fling). Events with the device's own times (the KMS/DRM reader's) are not dated here.
/// Pure: the reads' times come in as values.
struct LiftDating {
    /// The slop within which a press is still a tap (`GestureSettings.slop`).
    var slop = GestureSettings().slop
    /// When the last read of events ended (nothing more was queued), on the loop's clock.
    private var lastReadEnd: Double?
    /// Each pointer down: where it went down, whether it left the slop, its last event's time.
    private var pressed: [PointerID: (start: Point, left: Bool, last: Double)] = [:]

    /// The loop's read found nothing more queued at `time`: later events came after it.
    mutating func readEnded(at time: Double) { lastReadEnd = time }

    /// `inputs` as read; `queued`: the read found them already queued (it did not wait for them).
    mutating func dated(_ inputs: [WindowInput], queued: Bool) -> [WindowInput] {
        inputs.map { input in
            guard case .pointer(var e) = input else { return input }
            switch e.phase {
            case .down:
                pressed[e.pointer] = (e.location, false, e.time)
            case .move:
                if var p = pressed[e.pointer] {
                    p.left = p.left || abs(e.location.x - p.start.x) > slop || abs(e.location.y - p.start.y) > slop
                    p.last = e.time
                    pressed[e.pointer] = p
                }
            case .up, .cancel:
                if let p = pressed.removeValue(forKey: e.pointer), e.phase == .up, queued, !p.left, let since = lastReadEnd {
                    e.time = min(e.time, max(since, p.last))
                }
            }
            return .pointer(e)
        }
    }
}
