@testable import CarouselApp
import CarouselCore
import CarouselSDL
import Testing

/// A tap whose lift waited in the queue behind a slow frame is still a tap (kiosk/vm-test
/// under Wayland: a 40 ms tap read as a 650 ms press); a long press the loop waited for, and
/// a drag's lift, keep the times they were read at.
@Suite struct LiftDatingTests {
    static func finger(_ phase: PointerEvent.Phase, x: Double = 640, time: Double) -> WindowInput {
        .pointer(PointerEvent(phase, .finger(0), x: x, y: 400, time: time))
    }

    /// What the gesture tracker makes of the events as dated.
    static func gestures(_ events: [WindowInput]) -> [GestureTracker.Gesture] {
        var tracker = GestureTracker()
        return events.compactMap { input -> GestureTracker.Gesture? in
            guard case .pointer(let e) = input else { return nil }
            return tracker.handle(e)
        }
    }

    static func time(_ input: WindowInput) -> Double? {
        guard case .pointer(let e) = input else { return nil }
        return e.time
    }

    @Test func aTapsLiftQueuedBehindASlowFrameIsDatedToTheLastReadAndIsATap() {
        var dating = LiftDating()
        // The press is read at once (the loop slept in its wait), the read ends, a frame takes
        // 650 ms, and the lift, 40 ms after the press, is found queued and read after it.
        let down = dating.dated([Self.finger(.down, time: 10.000)], queued: false)
        dating.readEnded(at: 10.002)
        let up = dating.dated([Self.finger(.up, time: 10.652)], queued: true)
        #expect(up.first.flatMap(Self.time) == 10.002)
        #expect(Self.gestures(down + up).last == .tapped(Point(x: 640, y: 400), time: 10.002))
        // As read, it was a long press: no tap.
        #expect(Self.gestures([Self.finger(.down, time: 10.000), Self.finger(.up, time: 10.652)]).last == .ended(time: 10.652))
    }

    @Test func aLiftTheLoopWaitedForKeepsItsTime() {
        var dating = LiftDating()
        let down = dating.dated([Self.finger(.down, time: 10.000)], queued: false)
        dating.readEnded(at: 10.002)
        // Held 600 ms while the loop slept: the wait woke for the lift, read when it came.
        let up = dating.dated([Self.finger(.up, time: 10.600)], queued: false)
        #expect(up.first.flatMap(Self.time) == 10.600)
        #expect(Self.gestures(down + up).last == .ended(time: 10.600))
    }

    @Test func aDragsLiftKeepsTheTimeItWasReadAt() {
        var dating = LiftDating()
        var events = dating.dated([Self.finger(.down, x: 900, time: 10.000)], queued: false)
        events += dating.dated([Self.finger(.move, x: 600, time: 10.300)], queued: true)
        dating.readEnded(at: 10.301)
        // Held still, then lifted during a slow frame: its velocity is reckoned when it was
        // read, as before (dated sooner it would fling).
        events += dating.dated([Self.finger(.up, x: 600, time: 11.000)], queued: true)
        #expect(events.last.flatMap(Self.time) == 11.000)
    }

    @Test func aLiftIsNeverDatedBeforeItsPressNorAfterItWasRead() {
        var dating = LiftDating()
        dating.readEnded(at: 9.000)
        // Press and lift both queued behind a frame: both read at the same moment.
        let both = dating.dated([Self.finger(.down, time: 10.650), Self.finger(.up, time: 10.650)], queued: true)
        #expect(both.map(Self.time) == [10.650, 10.650])
        // A wobble within the slop still dates the lift back, never before the wobble.
        var more = dating.dated([Self.finger(.down, time: 20.000)], queued: false)
        more += dating.dated([Self.finger(.move, x: 643, time: 20.010)], queued: true)
        dating.readEnded(at: 20.001)
        more += dating.dated([Self.finger(.up, x: 643, time: 20.700)], queued: true)
        #expect(more.last.flatMap(Self.time) == 20.010)
    }

    @Test func otherInputsPassAsTheyCame() {
        var dating = LiftDating()
        dating.readEnded(at: 1)
        let key = WindowInput.key(KeyPress(name: .right, keycode: 0, modifiers: [], time: 2))
        #expect(dating.dated([key, .scroll(1, time: 3)], queued: true) == [key, .scroll(1, time: 3)])
    }
}
