/// Whether the screen is on, and why: opening hours (`--schedule`), a remote `screen`
/// command, and touches. A command holds until the next command or the next change of the
/// hours; a touch wakes a screen that is off (by the hours or a command) for the wake
/// duration after the last input.
struct ScreenPlan {
    /// Nil without `--schedule`: open all the time.
    var hours: OpeningHours?
    /// Seconds a touch keeps a dark screen on (`--idle-resume`).
    let wakeDuration: Double
    private var command: (on: Bool, until: Double?)?
    private var wokenUntil: Double?

    init(hours: OpeningHours?, wakeDuration: Double) {
        self.hours = hours
        self.wakeDuration = wakeDuration
    }

    struct State: Equatable {
        var on: Bool
        /// `hours`, `touch` or `command`; `start` before anything changed it.
        var reason: String
        /// When it may change next by itself (monotonic seconds); nil: not by itself.
        var nextChange: Double?
    }

    func state(now: Double) -> State {
        let h = hours?.state(now: now)
        let woken = wokenUntil.map { now < $0 } ?? false
        let hoursNext = h?.nextChange
        if let command, command.until.map({ now < $0 }) ?? true {
            if command.on { return State(on: true, reason: "command", nextChange: hoursNext) }
            if woken { return State(on: true, reason: "touch", nextChange: min(wokenUntil!, hoursNext ?? .infinity)) }
            return State(on: false, reason: "command", nextChange: hoursNext)
        }
        guard let h else { return State(on: true, reason: "start", nextChange: nil) }
        if !h.on && woken { return State(on: true, reason: "touch", nextChange: min(wokenUntil!, hoursNext ?? .infinity)) }
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
    mutating func touched(at now: Double) { wokenUntil = now + wakeDuration }

    /// A remote `screen` command: it holds until the hours next change.
    mutating func command(on: Bool, now: Double) {
        command = (on, hours?.state(now: now).nextChange)
        wokenUntil = nil
    }
}
