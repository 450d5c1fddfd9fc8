@testable import CarouselApp
import CarouselControl
import CarouselCore
import CarouselSDL
import Foundation
import Testing

/// The run loop built in process: a manual clock, a scripted event source, a screen that
/// counts frames and a view that stands in for a scene. No SDL, no window, no threads: what
/// the loop does at each instant, exactly.
@Suite struct InteractiveLoopTests {
    /// The test's clock: moved only by the scripted events' waits.
    final class ManualTime: @unchecked Sendable {
        private let lock = NSLock()
        private var value = 0.0
        var now: Double {
            get { lock.withLock { value } }
            set { lock.withLock { value = newValue } }
        }
        var clock: LoopClock { LoopClock { [self] in now } }
    }

    /// Events at given instants; a wait moves the clock to its deadline or the next event;
    /// at `end` (or a wait with nothing to wait for) Escape quits.
    final class ScriptedEvents: LoopEvents {
        let time: ManualTime
        private var script: [(at: Double, input: WindowInput)]
        let end: Double
        /// The deadlines the loop slept until (nil: no deadline), one per wait.
        private(set) var waits: [Double?] = []

        init(time: ManualTime, end: Double, _ script: [(at: Double, input: WindowInput)] = []) {
            self.time = time
            self.end = end
            self.script = script.sorted { $0.at < $1.at }
        }

        static func key(_ name: KeyPress.Name, at t: Double) -> (at: Double, input: WindowInput) {
            (t, .key(KeyPress(name: name, keycode: 0, time: t)))
        }

        private var quit: [WindowInput] { [.key(KeyPress(name: .escape, keycode: 0, time: time.now))] }

        func wait(until deadline: Double?, geometry: InputGeometry) -> [WindowInput]? {
            waits.append(deadline)
            // A loop that never sleeps would wait here forever in a real program: cut short.
            if waits.count > 100_000 { return quit }
            let next = script.first?.at ?? .infinity
            let target = min(deadline ?? .infinity, next, end)
            time.now = max(time.now, target)
            if next <= target { return [script.removeFirst().input] }
            if target >= end { return quit }
            return nil
        }

        func poll(geometry: InputGeometry) -> [WindowInput]? {
            guard let first = script.first, first.at <= time.now else { return nil }
            return [script.removeFirst().input]
        }
    }

    /// A screen that counts: frames presented (and when), black frames, the panel switched.
    final class CountingScreen: LoopScreen {
        let time: ManualTime
        private(set) var presented: [Double] = []
        private(set) var blackFrames: [Double] = []
        private(set) var panel: [Bool] = []
        var clockText = ""
        init(time: ManualTime) { self.time = time }

        var outputSize: Size { Size(width: 640, height: 360) }
        var viewport: Size { outputSize }
        var inputGeometry: InputGeometry { InputGeometry(window: outputSize, drawable: outputSize) }
        func draw(_ scene: any DrivenView) throws(SDLError) {}
        func present() { presented.append(time.now) }
        func showBlack() { blackFrames.append(time.now) }
        func readFrame(into buffer: inout [UInt8]) -> Bool? { nil }
        func setPanel(on: Bool) -> PanelPower.Outcome {
            panel.append(on)
            return .done("test")
        }
        func toggleFullscreen() {}
        func forgetTextures() {}
    }

    /// A carousel of `count` items standing in for a scene: a step moves it for 0.3 s; with
    /// `autoplay` it steps by itself every that many seconds while at rest.
    final class StandInView: ShownView {
        var state: ViewState
        let sources: [ImageSource]
        let autoplay: Double?
        private var now = 0.0
        private var movingUntil = -1.0
        private var nextStep: Double?
        /// The inputs and changes it was given, in order.
        private(set) var heard: [String] = []

        init(count: Int, autoplay: Double? = nil) {
            state = ViewState(kind: .carousel, viewport: Size(width: 640, height: 360), focus: 0)
            sources = (0..<count).map { ImageSource(path: "/pictures/\($0).jpg") }
            self.autoplay = autoplay
            nextStep = autoplay
        }

        var activity: ViewActivity { ViewActivity(moving: now < movingUntil, held: false, nextStep: now < movingUntil ? nil : nextStep) }

        func handle(_ input: ViewInput) throws(SDLError) {
            heard.append("\(input)")
            guard case .step(let step, let t) = input, let focus = state.focus else { return }
            switch step {
            case .next: go(to: (focus + 1) % sources.count, at: t)
            case .previous: go(to: (focus + sources.count - 1) % sources.count, at: t)
            case .item(let i): go(to: i, at: t)
            default: break
            }
        }

        private func go(to item: Int, at t: Double) {
            state.focus = item
            movingUntil = t + 0.3
            nextStep = autoplay.map { t + 0.3 + $0 }
        }

        func advance(to time: Double) throws(SDLError) {
            now = time
            if let due = nextStep, time >= due { go(to: ((state.focus ?? 0) + 1) % sources.count, at: time) }
        }

        func pump() throws(SDLError) -> Bool { false }
        func draw(on renderer: SDLRenderer) {}
        func apply(_ change: SceneChange) throws(SDLError) { heard.append("\(change)") }
    }

    /// A part made for a test: at given instants it does what a remote would (an input).
    final class RemoteAtInstants: LoopPart {
        private var script: [(at: Double, input: AppInput)]
        init(_ script: [(at: Double, input: AppInput)]) { self.script = script }
        func nextDue(now: Double, loop: InteractiveLoop) -> Double? { script.first?.at }
        func beforeAdvance(now: Double, loop: InteractiveLoop) throws {
            while let first = script.first, first.at <= now {
                script.removeFirst()
                try loop.perform(first.input, now: now, byPerson: false)
            }
        }
    }

    static func loop(_ view: StandInView, _ events: ScriptedEvents, _ screen: CountingScreen) -> InteractiveLoop {
        let loop = InteractiveLoop(scene: view, screen: screen, events: events, keys: KeyBindings(), clock: events.time.clock)
        loop.framePacing = 1.0 / 60
        return loop
    }

    /// Idle means idle: at rest the loop sleeps until the view's next step and draws
    /// nothing; moving, it draws a frame each 1/60 s and one more at rest.
    @Test func atRestTheLoopSleepsUntilTheNextStepAndDrawsNothing() throws {
        let time = ManualTime()
        let view = StandInView(count: 3, autoplay: 5)
        let events = ScriptedEvents(time: time, end: 12)
        let screen = CountingScreen(time: time)
        let loop = Self.loop(view, events, screen)
        #expect(try loop.run() == .quit)
        // Steps at 5 and 10.3 (5 s after the first motion ended), each a motion of 0.3 s.
        #expect(view.heard.isEmpty, "autoplay is the view's own: \(view.heard)")
        #expect(view.state.focus == 2)
        func inMotion(_ t: Double) -> Bool { (t >= 5 && t <= 5.4) || (t >= 10.3 && t <= 10.7) }
        #expect(screen.presented.filter { !inMotion($0) } == [0], "frames drawn at rest: \(screen.presented)")
        // Asleep at rest until exactly the next step's instant (the first wait, the one
        // after each motion): no other wake-ups.
        let resting = events.waits.compactMap { $0 }.filter { !inMotion($0) || $0 == 5 || $0 == 10.3 }
        #expect(resting.count == 3 && zip(resting, [5, 10.3, 15.6]).allSatisfy { abs($0 - $1) < 1e-9 }, "\(events.waits)")
        #expect(!events.waits.contains(nil), "a view with a next step never sleeps without a deadline")
        // Moving: a frame each 1/60 s (18 for 0.3 s) and the resting frame.
        let moving = screen.presented.filter { $0 > 5 && $0 <= 5.4 }
        #expect((18...20).contains(moving.count), "\(moving.count) frames for a motion of 0.3 s at 60 a second")
    }

    /// The screen's power as a part: a remote's `screen off` draws one black frame and turns
    /// the panel off; while dark a key only wakes it (no step), the next key steps, and the
    /// screen goes dark again when the touch's time is over.
    @Test func aDarkScreenShowsOneBlackFrameAndAKeyOnlyWakesIt() throws {
        let time = ManualTime()
        let view = StandInView(count: 3)
        let events = ScriptedEvents(time: time, end: 20, [ScriptedEvents.key(.right, at: 2), ScriptedEvents.key(.right, at: 3)])
        let screen = CountingScreen(time: time)
        let loop = Self.loop(view, events, screen)
        loop.add(ScreenPowerPart(plan: ScreenPlan(hours: nil, wakeDuration: 5), television: nil, presenceSensor: nil,
                                 tellTelevisionAtStart: false))
        loop.add(RemoteAtInstants([(1, .screen(on: false))]))
        _ = try loop.run()
        // Each key keeps it awake 5 s more: the last at 3, so dark again at 8.
        #expect(screen.blackFrames == [1, 8], "one black frame at the command, one when the touch's time was over")
        // Off, on at the key, off again, and on as the loop ends (the next run draws).
        #expect(screen.panel == [false, true, false, true])
        let changes = view.heard.filter { $0.hasPrefix("screen") }
        #expect(changes.count == 3 && changes[1].contains("touch"), "\(changes)")
        #expect(view.heard.filter { $0.hasPrefix("step") } == ["step(CarouselCore.Step.next, time: 3.0)"],
                "the first key only woke the screen: \(view.heard)")
        #expect(!screen.presented.contains { ($0 > 1 && $0 < 2) || $0 > 8 }, "frames while dark: \(screen.presented)")
        // Dark, it sleeps with no deadline (a command holds until the hours change, and there
        // are none); lit by a touch, until the touch's time is over.
        #expect(events.waits.filter { $0 == nil }.count == 2 && events.waits.filter { ($0 ?? 0) > 8 }.isEmpty, "\(events.waits)")
    }

    /// The group as a part, in process: alone on a fixed epoch, its timeline steps the view
    /// at each interval's instant (the view's own autoplay is off in a group), and a key here
    /// becomes the group's step.
    @Test func theGroupStepsTheViewAtItsInstants() throws {
        let time = ManualTime()
        let view = StandInView(count: 3)
        let events = ScriptedEvents(time: time, end: 9.5, [ScriptedEvents.key(.left, at: 5)])
        let screen = CountingScreen(time: time)
        let loop = Self.loop(view, events, screen)
        let group = ScreenGroup(name: "hall", screen: "a", epoch: 0, interval: 2, lead: 0.5, idle: 3, channel: nil, now: 0,
                                wallOffset: { 0 }, log: nil, timeOrigin: 0)
        loop.add(GroupPart(group: group, showing: view.sources))
        _ = try loop.run()
        // The timeline's steps at 2 and 4; the key at 5 goes to the group, which moves every
        // screen (this one too) to the item before at one instant, `lead` later; then the
        // group waits `idle` seconds after the person before stepping again.
        #expect(view.heard.filter { $0.hasPrefix("step") } == ["step(CarouselCore.Step.next, time: 2.0)", "step(CarouselCore.Step.next, time: 4.0)",
                                                                 "step(CarouselCore.Step.item(1), time: 5.5)"], "\(view.heard)")
    }

    /// The control part in process: a remote command is carried out as a key's input and
    /// answered once the view rests with its state published; a command a part refuses (no
    /// backlight here) is answered with that part's reason; one the screen's state forbids
    /// (a step while dark) with the rule's.
    @Test func remoteCommandsAreAnsweredAtRestOrRefusedWithTheReason() throws {
        let time = ManualTime()
        let view = StandInView(count: 3)
        let control = WindowInput.wake(WakeReason.control.rawValue)
        let events = ScriptedEvents(time: time, end: 6, [(1, control), (3, control), (4, control)])
        let screen = CountingScreen(time: time)
        let loop = Self.loop(view, events, screen)
        let desk = ControlDesk(version: "test", clock: { [time] in time.now }, wake: {}, figures: { ProcessFigures() },
                               encodePNG: { _, _, _, _ in nil })
        loop.add(ScreenPowerPart(plan: ScreenPlan(hours: nil, wakeDuration: 30), television: nil, presenceSensor: nil,
                                 tellTelevisionAtStart: false))
        loop.add(BacklightPart(backlight: nil))
        loop.add(ControlPart(desk: desk, clock: time.clock, canPlay: false, wall: nil, controlURL: nil))
        final class Answers: @unchecked Sendable {
            let lock = NSLock()
            var said: [(String, Double, LoopAnswer)] = []
            func add(_ name: String, _ t: Double, _ a: LoopAnswer) { lock.withLock { said.append((name, t, a)) } }
        }
        let answers = Answers()
        func post(_ command: ControlCommand) {
            desk.inbox.post(.command(command)) { [time] in answers.add(command.name, time.now, $0) }
        }
        // Taken at 1: the step; at 3: the backlight, then the screen off; at 4: a step while dark.
        post(.next)
        var posted = false
        final class Poster: LoopPart {
            let at: Double, post: () -> Void
            var done = false
            init(at: Double, post: @escaping () -> Void) { self.at = at; self.post = post }
            func nextDue(now: Double, loop: InteractiveLoop) -> Double? { done ? nil : at }
            func beforeAdvance(now: Double, loop: InteractiveLoop) throws { if !done && now >= at { done = true; post() } }
        }
        loop.add(Poster(at: 2) { post(.brightness(0.5)); post(.screen(on: false)) })
        loop.add(Poster(at: 3.5) { post(.next); posted = true })
        _ = try loop.run()
        #expect(posted)
        let said = answers.lock.withLock { answers.said }
        #expect(said.count == 4, "\(said.map { ($0.0, $0.1) })")
        guard said.count == 4 else { return }
        // The step: done once the motion (0.3 s) ended, its state published first.
        #expect(said[0].0 == "next" && said[0].1 >= 1.3 && said[0].1 < 1.4, "answered at \(said[0].1)")
        if case .done = said[0].2 {} else { Issue.record("the step was not done: \(said[0].2)") }
        #expect(desk.state.index == 1 && desk.state.screenOn == false)
        // The backlight's part refuses, with its reason.
        if case .refused(let r) = said[1].2 {
            #expect(said[1].0 == "brightness" && r.status == 409 && r.reason.contains("no backlight"), "\(r)")
        } else { Issue.record("brightness without a backlight: \(said[1].2)") }
        if case .done = said[2].2 {} else { Issue.record("screen off: \(said[2].2)") }
        // Dark: a step is refused by the rule, and the view did not move.
        if case .refused(let r) = said[3].2 { #expect(r.reason.contains("screen is off"), "\(r)") }
        else { Issue.record("a step while dark: \(said[3].2)") }
        #expect(view.state.focus == 1)
    }
}
