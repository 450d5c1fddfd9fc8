/// Whether the screen is on, and why: opening hours (`--schedule`), a remote `screen`
/// command, touches and presence. A command holds until the next command or the next change
/// of the hours; a touch wakes a screen that is off (by the hours or a command) for the wake
/// duration after the last input. With `--presence-timeout`, within the hours (or all the
/// time without them) the screen is on only while someone is there: a presence sensor says
/// so (a motion sensor's pulse, or an occupancy sensor's on), or a touch; it goes dark that
/// many seconds after the last of them. Outside the hours presence wakes nothing (a closed
/// shop's cleaner does not light the window); a touch still does.
struct ScreenPlan {
    /// Nil without `--schedule`: open all the time.
    var hours: OpeningHours?
    /// Seconds a touch keeps a dark screen on (`--idle-resume`).
    let wakeDuration: Double
    /// `--presence-timeout`: seconds the screen stays on after the last presence or touch;
    /// nil: presence plays no part.
    var presenceTimeout: Double?
    private var command: (on: Bool, until: Double?, reason: String)?
    private var wokenUntil: Double?
    /// An occupancy sensor says someone is there now.
    private var occupied = false
    /// The last presence or touch (the program's start counts as one).
    private var lastSeen = 0.0

    init(hours: OpeningHours?, wakeDuration: Double) {
        self.hours = hours
        self.wakeDuration = wakeDuration
    }

    struct State: Equatable {
        var on: Bool
        /// `hours`, `touch`, `command`, `presence`, `nobody` or `tv`; `start` before anything
        /// changed it.
        var reason: String
        /// When it may change next by itself (monotonic seconds); nil: not by itself.
        var nextChange: Double?
    }

    func state(now: Double) -> State {
        let h = hours?.state(now: now)
        let woken = wokenUntil.map { now < $0 } ?? false
        let hoursNext = h?.nextChange
        if let command, command.until.map({ now < $0 }) ?? true {
            if command.on { return State(on: true, reason: command.reason, nextChange: hoursNext) }
            if woken { return State(on: true, reason: "touch", nextChange: min(wokenUntil!, hoursNext ?? .infinity)) }
            return State(on: false, reason: command.reason, nextChange: hoursNext)
        }
        if let h, !h.on {
            if woken { return State(on: true, reason: "touch", nextChange: min(wokenUntil!, hoursNext ?? .infinity)) }
            return State(on: false, reason: "hours", nextChange: hoursNext)
        }
        if let timeout = presenceTimeout {
            if occupied { return State(on: true, reason: "presence", nextChange: hoursNext) }
            let until = lastSeen + timeout
            if now < until { return State(on: true, reason: "presence", nextChange: min(until, hoursNext ?? .infinity)) }
            return State(on: false, reason: "nobody", nextChange: hoursNext)
        }
        guard let h else { return State(on: true, reason: "start", nextChange: nil) }
        return State(on: h.on, reason: "hours", nextChange: hoursNext)
    }

    /// When the run loop must next look at the plan, the screen being `screenOn`: at `now`
    /// if the plan already says otherwise, else at its next change. The wall clock moves on
    /// while a pass runs: a pass that found the screen rightly off at 15:31:59.99 and then
    /// asked for the next change at 15:32:00.01 was told tomorrow's closing, and the screen
    /// stayed dark all day (kiosk/vm-test, once in three runs).
    func wake(now: Double, screenOn: Bool) -> Double? {
        let s = state(now: now)
        return s.on != screenOn ? now : s.nextChange
    }

    /// Someone touched the screen (or pressed a key) at `now`.
    mutating func touched(at now: Double) {
        wokenUntil = now + wakeDuration
        lastSeen = max(lastSeen, now)
    }

    /// A presence sensor at `now`: someone there (a motion sensor's pulse, an occupancy
    /// sensor's on) or nobody any more (an occupancy sensor's off: the timeout runs from now).
    mutating func presence(_ present: Bool, at now: Double) {
        occupied = present
        lastSeen = max(lastSeen, now)
    }

    /// A remote `screen` command (`reason` "command"), or the TV switched off or to this
    /// screen by its own remote ("tv"): it holds until the hours next change.
    mutating func command(on: Bool, now: Double, reason: String = "command") {
        command = (on, hours?.state(now: now).nextChange, reason)
        wokenUntil = nil
    }
}
