import Foundation
import CarouselControl
import CarouselCore
import CarouselMedia
import CarouselSDL

/// The interactive run loop. Event-driven: while nothing moves it blocks in SDL's event
/// wait and draws nothing, waking only for input, a decoded image or attract mode's next
/// step; while the strip animates it draws every refresh (vsync paces it). The clock is
/// read once a pass, on waking: that time is the time of everything the pass does (input,
/// the engine's motion, the frame recorded, the control API's answers); a frame drawn
/// reads it once more, to measure how long the frame took.
struct InteractiveLoop {
    let scene: any Scene
    let window: SDLWindow
    let renderer: SDLRenderer
    private var translator: SDLInputTranslator
    private var mapper: InputMapper
    private var needsDraw = true
    /// What the empty view was last told to say.
    private var emptyMessage: String?
    private var running = true
    private let debugInput = ProcessInfo.processInfo.environment["CAROUSEL_DEBUG_INPUT"] == "1"
    /// Frames drawn so far.
    private(set) var framesDrawn = 0
    /// The last frame drawn was one of a motion (not yet at rest).
    private var drewMotion = false

    /// Why `run()` returned.
    enum Outcome { case quit, reload }
    private var outcome = Outcome.quit

    /// Keeps the images in step with the folders; nil: they are read once.
    let catalog: CatalogUpdater?
    /// `--broken skip`: pictures that failed, left out at rest; nil: they show as failed.
    var broken: BrokenPictures?

    /// Turns frames for a panel mounted sideways.
    let compositor: ScreenCompositor
    let touch: TouchTransform
    /// Opening hours (`--schedule`), remote `screen` commands and touches: while the screen
    /// is off it is black and nothing runs.
    var screenPlan = ScreenPlan(hours: nil, wakeDuration: 30)
    /// The control API and MQTT: their requests come in as input, the loop publishes its
    /// state after each pass; nil when neither is on.
    var control: ControlDesk?
    /// Autoplay is set (`--autoplay`): remote `pause` and `play` have something to do.
    var canPlay = false
    /// The wall the carousel goes back to (`--view mosaic|grid`); nil: the carousel only.
    var wall: ViewKind?
    /// The control API's address for people (Home Assistant's link to the screen); nil: none.
    var controlURL: String?
    /// A remote `pause` holds autoplay, also in a view opened later.
    private var paused = false
    /// The screenshots and commands the control part waits for; nil without it.
    private var answers: ControlAnswers?
    private var screenReason = "start"
    private let backlight = Backlight.find()
    /// The backlight's level as last read or set: published without reading sysfs each pass.
    private var brightness: Double?
    /// Tells the level when a `.memoryPressure` wake arrives; nil: not watched.
    var memoryPressure: MemoryPressureWatcher?
    private var screenOn = true
    /// The panel itself is switched off (DPMS on KMS/DRM): on again before the next frame.
    private var panelOff = false
    /// Why the panel cannot be switched off was said (once a run).
    private var saidPanelStaysLit = false
    /// Least seconds between frames where the display does not pace them (vsync off, or a
    /// headless driver): an animation then draws at 60 a second instead of spinning.
    var framePacing: Double?
    private var lastFrame: Double?
    /// `--clock`'s text, read when it changes (the compositor draws it); nil without it.
    var timeOfDay: ClockText?
    /// When, on the loop's clock, the clock's text changes next.
    private var timeOfDayDue: Double?
    /// Rides along (`carousel bench --soak`'s driver); nil normally.
    var observer: (any LoopObserver)?
    /// `--group`: the group's show steps this screen, and what is done here moves the group;
    /// nil alone.
    var group: ScreenGroup?
    /// `--cec`: the TV sleeps and wakes with the screen, and its remote steers the show; nil
    /// without.
    var television: CECAdapter?
    /// `--presence-key`: a motion sensor wired as a key; nil without.
    var presenceSensor: PresenceKeyReader?
    /// The TV is told the screen's state at the first pass (false after a reload: a family
    /// that switched the TV to another input keeps it).
    var tellTelevisionAtStart = false

    /// The program's one clock (`LoopClock.system`; a test's own in tests).
    let clock: LoopClock

    init(scene: any Scene, window: SDLWindow, compositor: ScreenCompositor, touch: TouchTransform,
         keys: KeyBindings, catalog: CatalogUpdater? = nil, clock: LoopClock = .system) {
        self.clock = clock
        self.translator = SDLInputTranslator { Log.info($0) }
        self.mapper = InputMapper(keys: keys)
        self.catalog = catalog
        self.scene = scene
        self.window = window
        self.renderer = compositor.renderer
        self.compositor = compositor
        self.touch = touch
        self.brightness = backlight?.level
    }

    mutating func run() throws -> Outcome {
        // The time the last pass ended: how long to sleep is reckoned from it.
        var asleep = clock.now()
        answers = control.map { ControlAnswers(desk: $0, clock: clock) }
        group?.showChanged(scene.sources)
        while running {
            observer?.willSleep(now: asleep, window: window)
            // Idle: sleep until something happens. Moving: take what is queued and draw.
            let event = nextEvent(now: asleep)
            let now = clock.now()
            asleep = now
            if let first = event {
                try handle(first, now: now)
                while running, let e = EventQueue.poll() { try handle(e, now: now) }
            }
            guard running else { break }
            answers?.letGoOfReadback(now: now)
            try followScreenPlan(now: now)
            guard screenOn else {
                publish()
                answerCommandsDone()
                continue
            }
            // Also when resting: attract mode may be due to start moving, and whatever the
            // images bring (a load_failed event) happens now, not at the last motion.
            try scene.advance(to: now)
            // Images the workers finished since: upload only, never wait for them.
            if try scene.pump() { needsDraw = true }
            if let group {
                // The group's step instants and commands, every screen making them now; after
                // the advance, so that a motion ending in it lets the screen follow at once.
                let (steps, pause) = group.pass(now: now, scene: scene, paused: paused)
                for step in steps { try scene.handle(step) }
                try scene.apply(.nextStep(group.upcoming(now: now, count: scene.sources.count)))
                if !steps.isEmpty { needsDraw = true }
                if let pause { paused = pause }
            }
            let resting = scene.activity.resting
            if let catalog {
                // Scanned on a thread, so it may begin at any time; its end wakes the loop.
                if catalog.isDue(at: now) { catalog.begin(now: now) }
                // New, gone or replaced files, applied at rest only: the change jumps.
                if resting, let fresh = catalog.finish(current: scene.sources),
                   case let admitted = broken?.admit(fresh) ?? fresh, admitted != scene.sources {
                    try scene.apply(.catalog(admitted, time: now))
                    group?.showChanged(scene.sources)
                    needsDraw = true
                }
                if scene.sources.isEmpty, case let message = broken?.emptyMessage(otherwise: catalog.emptyMessage) ?? catalog.emptyMessage,
                   message != emptyMessage {
                    emptyMessage = message
                    try scene.apply(.emptyMessage(message))
                    needsDraw = true
                }
            }
            // Pictures that failed since, left out at rest (their placeholders were plain).
            if resting, try broken?.leaveOut(of: scene, time: now, otherwise: emptyMessage ?? SceneChange.noPictures) == true { needsDraw = true }
            // The motion ended in this advance: its resting frame is still to draw. Without
            // it the screen kept the last moving frame, short of where the picture rests
            // (under software emulation by 41 px; found by kiosk/vm-test).
            if drewMotion && !scene.activity.moving { needsDraw = true }
            if let timeOfDay, now >= timeOfDayDue ?? 0 {
                let text = timeOfDay.text()
                if text != compositor.clockText { compositor.clockText = text; needsDraw = true }
                timeOfDayDue = timeOfDay.nextChange(now: now)
            }
            var drawnSeconds: Double? = nil
            if scene.activity.moving || needsDraw {
                try compositor.draw(scene, physical: renderer.outputSize)
                answers?.frameDrawn(at: now, animating: scene.activity.moving, framesDrawn: framesDrawn, renderer: renderer)
                renderer.present()
                framesDrawn += 1
                drewMotion = scene.activity.moving
                needsDraw = false
                lastFrame = now
                asleep = clock.now()
                let seconds = asleep - now
                observer?.frameDrawn(seconds: seconds, animating: scene.activity.moving)
                drawnSeconds = seconds
            }
            observer?.passEnded(now: now, scene: scene)
            publish()
            // Counted once the state is published: a /status that sees a frame drawn sees
            // what it showed (the first status had frames but no view under ThreadSanitizer).
            if let seconds = drawnSeconds { control?.frames.add(seconds: seconds, at: now) }
            if !scene.activity.moving && group?.announcing != true { answerCommandsDone() }
        }
        answers?.ending()
        // A reload or quit while the hours keep the screen off: the next run starts drawing.
        switchPanelOn()
        return outcome
    }

    /// Turns the screen off (one black frame, then sleep: no drawing, no decoding, no
    /// autoplay) or back on as the hours, commands and touches say.
    private mutating func followScreenPlan(now: Double) throws {
        let state = screenPlan.state(now: now)
        if tellTelevisionAtStart, let television {
            tellTelevisionAtStart = false
            if state.on { television.wake(takeOver: true) }
        }
        guard state.on != screenOn else { return }
        screenOn = state.on
        screenReason = state.reason
        if screenOn {
            switchPanelOn()
            // A presence or a touch does not take the TV from another input; the hours, a
            // command and the TV itself do.
            television?.wake(takeOver: !["presence", "touch"].contains(state.reason))
            try scene.apply(.screenOn(time: now, reason: state.reason))
            needsDraw = true
        } else {
            try scene.apply(.screenOff(time: now))
            renderer.setTarget(nil)
            renderer.clear(.black)
            renderer.present()
            television?.standby()
            // Then the panel itself, where the display layer allows; else it stays black.
            switch PanelPower.set(on: false, window: window) {
            case .done(let how):
                panelOff = true
                Log.info("screen: panel off (\(how))")
            case .unavailable(let why):
                if !saidPanelStaysLit { Log.info("screen: black, the panel stays lit: \(why)") }
                saidPanelStaysLit = true
            }
        }
    }

    /// Switches a panel turned off by `followScreenPlan` on again.
    private mutating func switchPanelOn() {
        guard panelOff else { return }
        panelOff = false
        if case .unavailable(let why) = PanelPower.set(on: true, window: window) { Log.info("screen: panel on failed: \(why)") }
        else { Log.info("screen: panel on") }
    }

    private func nextEvent(now: Double) -> SDLEvent? {
        if !screenOn {
            let due = [screenPlan.wake(now: now, screenOn: screenOn), answers?.nextDue].compactMap { $0 }.min()
            return due.map { EventQueue.wait(until: $0, on: clock) } ?? EventQueue.wait()
        }
        if scene.activity.moving || needsDraw {
            if let pace = framePacing, let lastFrame, now < lastFrame + pace {
                return EventQueue.wait(until: lastFrame + pace, on: clock)
            }
            return EventQueue.poll()
        }
        // The group's item fell due while the view moved, and the motion ended after the
        // group's part of the pass (in the draw): one more pass now, not at the next step.
        if group?.waitingForRest == true && !scene.activity.held { return EventQueue.poll() }
        // A check that fell due has begun by now, and while it runs or its result waits for
        // the finger to lift there is no deadline: a passed one would spin the loop.
        let deadlines = [scene.activity.nextStep, catalog?.nextCheck, screenPlan.wake(now: now, screenOn: screenOn),
                         observer?.nextDue, answers?.nextDue, timeOfDayDue, group?.nextDue(now: now)].compactMap { $0 }
        if let due = deadlines.min() { return EventQueue.wait(until: due, on: clock) }
        return EventQueue.wait()
    }

    private var geometry: InputGeometry {
        var g = InputGeometry(window: window.size, drawable: renderer.outputSize, origin: window.origin,
                              rotation: compositor.rotation, touch: touch)
        g.canvasOrigin = compositor.canvasOrigin(physical: renderer.outputSize)
        return g
    }

    private mutating func handle(_ e: SDLEvent, now: Double) throws {
        for input in translator.translate(e, geometry: geometry).flatMap({ mapped($0) }) {
            try perform(input, now: now, byPerson: true)
        }
    }

    /// What a window's input (or a TV remote's key) means in the view shown now.
    private mutating func mapped(_ input: WindowInput) -> [AppInput] {
        mapper.canGoBack = scene.state.canGoBack
        mapper.verticalSteps = scene.scrollsVertically
        return mapper.map(input)
    }

    /// Does what an input asks: a person's (keys, touches, the window) or a remote
    /// command's, which the control part turned into the same inputs.
    private mutating func perform(_ input: AppInput, now: Double, byPerson: Bool) throws {
        switch input {
        case .view(let c):
            if debugInput { Log.info("input \(c)") }
            if byPerson {
                // A dark screen wakes at a touch (which does nothing else); each input keeps
                // it awake a while longer.
                if case .resize = c {} else { screenPlan.touched(at: now) }
                if !screenOn { return }
            }
            // A person's or a remote's move here is the group's (autoplay's own are not): a
            // step to an item moves every screen at one instant, this one too; the outcome
            // of anything else is announced once the view rests.
            if let group {
                switch c {
                case .resize, .autoplay, .holding: break
                case .step(let step, _): if group.step(step, now: now, scene: scene) { return }
                default: group.acted()
                }
            }
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
        case .foldersChanged:
            catalog?.noteChange()
        case .memoryPressureChanged:
            if let level = memoryPressure?.level { try scene.apply(.memoryPressure(level, time: now)) }
        case .togglePause:
            paused.toggle()
            try scene.handle(.autoplay(!paused, time: now))
            needsDraw = true
        case .seekClip(let seek):
            try scene.apply(.seek(seek, time: now))
            needsDraw = true
        case .toggleFullscreen:
            window.setFullscreen(!window.isFullscreen)
        case .resized:
            let size = compositor.viewport(physical: renderer.outputSize)
            if size != scene.state.viewport {
                try scene.handle(.resize(size, time: now))
            }
            needsDraw = true
        case .renderReset:
            compositor.forgetTextures()
            try scene.apply(.texturesLost(time: now))
            needsDraw = true
        case .redraw:
            needsDraw = true
        case .control:
            try serveControl(now: now)
        case .screen(let on):
            screenPlan.command(on: on, now: now)
            try followScreenPlan(now: now)
        case .showView(let mode):
            try scene.apply(mode == .carousel ? .open(time: now) : .back(time: now))
            if paused { try scene.handle(.autoplay(false, time: now)) }
            needsDraw = true
        case .brightness(let value):
            if backlight?.set(value) == nil { brightness = backlight?.level }
        case .presence(let present):
            screenPlan.presence(present, at: now)
            try followScreenPlan(now: now)
        case .television:
            try heardTelevision(now: now)
        case .presenceKey:
            for present in presenceSensor?.take() ?? [] { try perform(.presence(present), now: now, byPerson: false) }
        }
    }

    /// What the TV said over HDMI-CEC: its remote's keys are keys (through the key
    /// bindings), Play and Pause set the state they name, and the TV switched off by its own
    /// remote darkens the screen until it comes back to this input, a touch, a command or
    /// the hours' next change.
    private mutating func heardTelevision(now: Double) throws {
        guard let television else { return }
        for heard in television.take() {
            switch heard {
            case .key(let key):
                if debugInput { Log.info("input tv \(key)") }
                if let name = key.key {
                    for input in mapped(.key(KeyPress(name: name, keycode: 0, time: now))) {
                        try perform(input, now: now, byPerson: true)
                    }
                } else {
                    screenPlan.touched(at: now)
                    let play = key == .play || key == .playFunction
                    if screenOn && paused == play { try perform(.togglePause, now: now, byPerson: true) }
                }
            case .tvStandby:
                Log.info("screen: the TV went to standby (its remote); dark until it shows this screen again")
                screenPlan.command(on: false, now: now, reason: "tv")
                try followScreenPlan(now: now)
            case .selected:
                screenPlan.command(on: true, now: now, reason: "tv")
                try followScreenPlan(now: now)
            case .tvPower:
                break
            }
        }
    }

    /// Carries out what the control part asked since the last pass, in order, and answers
    /// each once its state is published; screenshots wait for the next frame.
    private mutating func serveControl(now: Double) throws {
        guard let control else { return }
        for pending in control.inbox.take() {
            switch pending.request {
            case .screenshot:
                if answers?.screenshot(pending, now: now, framesDrawn: framesDrawn, screenOn: screenOn, size: renderer.outputSize) == true {
                    needsDraw = true
                }
            case .command(let command):
                if case .brightness = command, backlight == nil {
                    pending.answer(.refused(.conflict("this panel has no backlight the program can set (/sys/class/backlight has none)")))
                    continue
                }
                switch command.inputs(scene: scene, screenOn: screenOn, canPlay: canPlay, now: now) {
                case .failure(let refusal):
                    pending.answer(.refused(refusal))
                case .success(let inputs):
                    if case .brightness(let v) = command, let backlight, let problem = backlight.set(v) {
                        pending.answer(.refused(.conflict(problem)))
                        continue
                    }
                    // The backlight was set above, where its refusal could still be answered.
                    if case .brightness = command { brightness = backlight?.level }
                    for input in inputs {
                        if case .brightness = input { continue }
                        try perform(input, now: now, byPerson: false)
                    }
                    if command == .pause { paused = true } else if command == .play { paused = false }
                    Log.info("control: \(command.name)")
                    answers?.done(pending)
                }
            }
        }
    }

    /// Answers the commands done, now that the view is at rest and its state published.
    private mutating func answerCommandsDone() {
        guard answers?.waitForRest == true else { return }
        publish()
        answers?.answerDone()
    }

    /// Tells the control part what the screen shows now (it keeps only changes).
    private func publish() {
        guard let control else { return }
        var s = ShowState()
        let shown = scene.state
        s.view = shown.kind.rawValue
        s.count = scene.sources.count
        if let i = shown.focus, scene.sources.indices.contains(i) {
            let item = scene.sources[i]
            (s.index, s.source, s.title, s.caption) = (i, item.path, item.title, item.caption)
            s.paired = item.partners.first?.path
        }
        s.playing = canPlay && !paused
        s.screenOn = screenOn
        s.screenReason = screenReason
        s.brightness = brightness
        s.group = group?.status
        s.capabilities.canPlay = canPlay
        s.capabilities.wall = wall?.rawValue
        s.capabilities.count = scene.sources.count
        s.capabilities.controlURL = controlURL
        s.capabilities.inGroup = group != nil
        s.panelStaysLit = !screenOn && !panelOff
        s.tv = television.map { tv in
            let t = tv.state
            return ShowState.TV(answers: t.tvAnswers, power: t.tvPower?.name, address: t.physical == 0xFFFF ? nil : CECMessage.dotted(t.physical),
                                showsThisScreen: t.activeSource)
        }
        control.publish(s)
    }
}
