import Foundation
import CarouselControl
import CarouselCore
import CarouselSDL
import CarouselClock

/// The interactive run loop: wait → now → inputs → advance → parts → draw → publish, and
/// nothing else. Event-driven: while nothing moves it blocks in the event wait and draws
/// nothing, waking only for input, a decoded image or a part's next due time; while the view
/// moves it draws every refresh (vsync paces it, or `framePacing` where nothing does). The
/// clock is read once a pass, on waking: that time is the time of everything the pass does;
/// a frame drawn reads it once more, to measure how long the frame took. Every feature beyond
/// the view itself is a `LoopPart` (Loop/*Part.swift) added by `RunCommand`.
final class InteractiveLoop {
    let scene: any ShownView
    let screen: any LoopScreen
    let clock: LoopClock
    private var events: any LoopEvents
    private var mapper: InputMapper
    /// The features riding the loop, in the order they act.
    private(set) var parts: [any LoopPart] = []
    /// Rides along (`carousel bench --soak`'s driver), with the window it may queue input in
    /// and the scene it reads; nil normally.
    private var observer: (any LoopObserver)?
    private var observed: (window: SDLWindow, scene: any Scene)?

    /// The screen is lit. The screen's power part sets it; while dark nothing moves or draws.
    var screenOn = true
    /// A remote `pause` holds autoplay, also in a view opened later.
    var paused = false
    /// A frame is owed (something changed); parts set it.
    var needsDraw = true
    /// Least seconds between frames where the display does not pace them (vsync off, or a
    /// headless driver): an animation then draws at 60 a second instead of spinning.
    var framePacing: Double?
    /// Frames drawn so far.
    private(set) var framesDrawn = 0
    /// The last frame drawn was one of a motion (not yet at rest).
    private var drewMotion = false
    private var lastFrame: Double?
    private var running = true
    /// `CAROUSEL_DEBUG_INPUT=1`: every input is logged (the TV's keys too, by the power part).
    let debugInput = ProcessInfo.processInfo.environment["CAROUSEL_DEBUG_INPUT"] == "1"

    /// Why `run()` returned.
    enum Outcome { case quit, reload }
    private var outcome = Outcome.quit

    init(scene: any ShownView, screen: any LoopScreen, events: any LoopEvents, keys: KeyBindings, clock: LoopClock = .system) {
        self.scene = scene
        self.screen = screen
        self.events = events
        self.mapper = InputMapper(keys: keys)
        self.clock = clock
    }

    /// Adds a part; it acts after those added before it.
    func add(_ part: (any LoopPart)?) {
        if let part { parts.append(part) }
    }

    /// Lets `observer` ride along, told of `window` and `scene` (the loop's own scene).
    func observe(_ observer: (any LoopObserver)?, window: SDLWindow, scene: any Scene) {
        self.observer = observer
        observed = (window, scene)
    }

    func run() throws -> Outcome {
        // The time the last pass ended: how long to sleep is reckoned from it.
        var asleep = clock.now()
        while running {
            if let observer, let observed { observer.willSleep(now: asleep, window: observed.window) }
            // Idle: sleep until something happens. Moving: take what is queued and draw.
            let first = nextEvent(now: asleep)
            let now = clock.now()
            asleep = now
            if let first {
                try handle(first, now: now)
                while running, let more = events.poll(geometry: screen.inputGeometry) { try handle(more, now: now) }
            }
            guard running else { break }
            for part in parts { try part.beforeAdvance(now: now, loop: self) }
            guard screenOn else {
                for part in parts { part.passEnded(now: now, drawn: nil, loop: self) }
                continue
            }
            // Also when resting: attract mode may be due to start moving, and whatever the
            // images bring (a load_failed event) happens now, not at the last motion.
            try scene.advance(to: now)
            // Images the workers finished since: upload only, never wait for them.
            if try scene.pump() { needsDraw = true }
            for part in parts { try part.pass(now: now, loop: self) }
            // The motion ended in this advance: its resting frame is still to draw. Without
            // it the screen kept the last moving frame, short of where the picture rests
            // (under software emulation by 41 px; found by kiosk/vm-test).
            if drewMotion && !scene.activity.moving { needsDraw = true }
            var drawn: Double?
            if scene.activity.moving || needsDraw {
                try screen.draw(scene)
                for part in parts { part.frameDrawn(now: now, loop: self) }
                screen.present()
                framesDrawn += 1
                drewMotion = scene.activity.moving
                needsDraw = false
                lastFrame = now
                asleep = clock.now()
                drawn = asleep - now
                observer?.frameDrawn(seconds: asleep - now, animating: scene.activity.moving)
            }
            if let observer, let observed { observer.passEnded(now: now, scene: observed.scene) }
            for part in parts { part.passEnded(now: now, drawn: drawn, loop: self) }
        }
        for part in parts { part.ended(loop: self) }
        return outcome
    }

    private func nextEvent(now: Double) -> [WindowInput]? {
        let geometry = screen.inputGeometry
        let due = parts.compactMap { $0.nextDue(now: now, loop: self) }
        if !screenOn { return events.wait(until: due.min(), geometry: geometry) }
        if scene.activity.moving || needsDraw {
            if let pace = framePacing, let lastFrame, now < lastFrame + pace {
                return events.wait(until: lastFrame + pace, geometry: geometry)
            }
            return events.poll(geometry: geometry)
        }
        return events.wait(until: (due + [scene.activity.nextStep, observer?.nextDue].compactMap { $0 }).min(), geometry: geometry)
    }

    private func handle(_ inputs: [WindowInput], now: Double) throws {
        for input in inputs.flatMap({ mapped($0) }) { try perform(input, now: now, byPerson: true) }
    }

    /// What a window's input (or a TV remote's key) means in the view shown now.
    func mapped(_ input: WindowInput) -> [AppInput] {
        mapper.canGoBack = scene.state.canGoBack
        mapper.verticalSteps = scene.scrollsVertically
        return mapper.map(input)
    }

    /// Does what an input asks: a person's (keys, touches, the window) or a remote
    /// command's, which the control part turned into the same inputs. Each part is asked
    /// first; what none takes is the view's. Why it could not be done, or nil.
    @discardableResult
    func perform(_ input: AppInput, now: Double, byPerson: Bool) throws -> String? {
        if debugInput, case .view(let c) = input { Log.info("input \(c)") }
        for part in parts {
            switch try part.perform(input, now: now, byPerson: byPerson, loop: self) {
            case .notMine: continue
            case .done: return nil
            case .refused(let why): return why
            }
        }
        switch input {
        case .view(let c):
            try scene.handle(c)
            needsDraw = true
        case .quit:
            running = false
        case .back:
            try scene.apply(.back(time: now))
            if paused { try scene.handle(.autoplay(false, time: now)) }
            needsDraw = true
        case .windowClosed:
            // The public must not close a kiosk (Alt+F4); only its quit keys or a signal stop it.
            if !mapper.keys.kiosk { running = false }
        case .displayLost:
            // Left running, it would show nothing to anyone, and a compositor started again by
            // its service would start a second program beside it.
            Log.warn("screen: the display server closed its connection; ending")
            running = false
        case .reload:
            outcome = .reload
            running = false
        case .togglePause:
            paused.toggle()
            try scene.handle(.autoplay(!paused, time: now))
            needsDraw = true
        case .seekClip(let seek):
            try scene.apply(.seek(seek, time: now))
            needsDraw = true
        case .toggleFullscreen:
            screen.toggleFullscreen()
        case .resized:
            let size = screen.viewport
            if size != scene.state.viewport { try scene.handle(.resize(size, time: now)) }
            needsDraw = true
        case .renderReset:
            screen.forgetTextures()
            try scene.apply(.texturesLost(time: now))
            needsDraw = true
        case .redraw:
            needsDraw = true
        case .showView(let mode):
            try scene.apply(mode.opensFromWall ? .open(time: now) : .back(time: now))
            if paused { try scene.handle(.autoplay(false, time: now)) }
            needsDraw = true
        case .foldersChanged, .memoryPressureChanged, .control, .screen, .brightness, .presence, .television, .presenceKey:
            break  // a part's, and that part is not in this run
        }
        return nil
    }
}
