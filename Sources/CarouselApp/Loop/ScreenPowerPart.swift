import CarouselControl
import CarouselDevices
import CarouselSDL

/// The screen's power as one policy: the opening hours (`--schedule`), remote `screen`
/// commands, touches, a presence sensor (`--presence-key`, MQTT presence) and the TV
/// (`--cec`). While the screen is dark it shows one black frame, then the panel itself is
/// switched off where the display allows, the TV goes to standby, and the loop neither
/// moves nor draws. The TV's remote steers the show through the key bindings.
final class ScreenPowerPart: LoopPart {
    private(set) var plan: ScreenPlan
    /// `--cec`: the TV sleeps and wakes with the screen; nil without.
    let television: CECAdapter?
    /// `--presence-key`: a motion sensor wired as a key; nil without.
    let presenceSensor: PresenceKeyReader?
    /// The TV is told the screen's state at the first pass (false after a reload: a family
    /// that switched the TV to another input keeps it).
    private var tellTelevisionAtStart: Bool
    private var reason = "start"
    private var lit = true
    /// The panel itself is switched off (DPMS on KMS/DRM): on again before the next frame.
    private var panelOff = false
    /// Why the panel cannot be switched off was said (once a run).
    private var saidPanelStaysLit = false

    init(plan: ScreenPlan, television: CECAdapter?, presenceSensor: PresenceKeyReader?, tellTelevisionAtStart: Bool) {
        self.plan = plan
        self.television = television
        self.presenceSensor = presenceSensor
        self.tellTelevisionAtStart = tellTelevisionAtStart
    }

    func nextDue(now: Double, loop: InteractiveLoop) -> Double? { plan.wake(now: now, screenOn: lit) }

    func perform(_ input: AppInput, now: Double, byPerson: Bool, loop: InteractiveLoop) throws -> PartHandling {
        switch input {
        case .view(let c) where byPerson:
            // A dark screen wakes at a touch (which does nothing else); each input keeps it
            // awake a while longer.
            if case .resize = c {} else { plan.touched(at: now) }
            return lit ? .notMine : .done
        case .screen(let on):
            plan.command(on: on, now: now)
        case .presence(let present):
            plan.presence(present, at: now)
        case .television:
            try heardTelevision(now: now, loop: loop)
            return .done
        case .presenceKey:
            for present in presenceSensor?.take() ?? [] { try loop.perform(.presence(present), now: now, byPerson: false) }
            return .done
        default:
            return .notMine
        }
        try follow(now: now, loop: loop)
        return .done
    }

    func beforeAdvance(now: Double, loop: InteractiveLoop) throws { try follow(now: now, loop: loop) }

    func publish(into s: inout ShowState) {
        s.screenOn = lit
        s.screenReason = reason
        s.panelStaysLit = !lit && !panelOff
        s.tv = television.map { tv in
            let t = tv.state
            return ShowState.TV(answers: t.tvAnswers, power: t.tvPower?.name, address: t.physical == 0xFFFF ? nil : CECMessage.dotted(t.physical),
                                showsThisScreen: t.activeSource)
        }
    }

    /// A reload or quit while the hours keep the screen off: the next run starts drawing.
    func ended(loop: InteractiveLoop) { switchPanelOn(loop) }

    /// Turns the screen off (one black frame, then sleep: no drawing, no decoding, no
    /// autoplay) or back on as the hours, commands and touches say.
    private func follow(now: Double, loop: InteractiveLoop) throws {
        let state = plan.state(now: now)
        if tellTelevisionAtStart, let television {
            tellTelevisionAtStart = false
            if state.on { television.wake(takeOver: true) }
        }
        guard state.on != lit else { return }
        lit = state.on
        loop.screenOn = lit
        reason = state.reason
        if lit {
            switchPanelOn(loop)
            // A presence or a touch does not take the TV from another input; the hours, a
            // command and the TV itself do.
            television?.wake(takeOver: !["presence", "touch"].contains(state.reason))
            try loop.scene.apply(.screenOn(time: now, reason: state.reason))
            loop.needsDraw = true
        } else {
            try loop.scene.apply(.screenOff(time: now))
            loop.screen.showBlack()
            television?.standby()
            // Then the panel itself, where the display layer allows; else it stays black.
            switch loop.screen.setPanel(on: false) {
            case .done(let how):
                panelOff = true
                Log.info("screen: panel off (\(how))")
            case .unavailable(let why):
                if !saidPanelStaysLit { Log.info("screen: black, the panel stays lit: \(why)") }
                saidPanelStaysLit = true
            }
        }
    }

    /// Switches a panel turned off by `follow` on again.
    private func switchPanelOn(_ loop: InteractiveLoop) {
        guard panelOff else { return }
        panelOff = false
        if case .unavailable(let why) = loop.screen.setPanel(on: true) { Log.info("screen: panel on failed: \(why)") }
        else { Log.info("screen: panel on") }
    }

    /// What the TV said over HDMI-CEC: its remote's keys are keys (through the key
    /// bindings), Play and Pause set the state they name, and the TV switched off by its own
    /// remote darkens the screen until it comes back to this input, a touch, a command or
    /// the hours' next change.
    private func heardTelevision(now: Double, loop: InteractiveLoop) throws {
        guard let television else { return }
        for heard in television.take() {
            switch heard {
            case .key(let key):
                if loop.debugInput { Log.info("input tv \(key)") }
                if let name = key.key {
                    for input in loop.mapped(.key(KeyPress(name: name, keycode: 0, time: now))) {
                        try loop.perform(input, now: now, byPerson: true)
                    }
                } else {
                    plan.touched(at: now)
                    let play = key == .play || key == .playFunction
                    if lit && loop.paused == play { try loop.perform(.togglePause, now: now, byPerson: true) }
                }
            case .tvStandby:
                Log.info("screen: the TV went to standby (its remote); dark until it shows this screen again")
                plan.command(on: false, now: now, reason: "tv")
                try follow(now: now, loop: loop)
            case .selected:
                plan.command(on: true, now: now, reason: "tv")
                try follow(now: now, loop: loop)
            case .tvPower:
                break
            }
        }
    }
}
