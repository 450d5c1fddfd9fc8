/// When attract mode acts next. Input pauses autoplay and restarts the idle timers; each
/// action reschedules the next. It only says when; the view's engine does the moving.
public struct AttractSchedule: Hashable, Sendable {
    public enum Due: Hashable, Sendable { case step, home }

    let settings: AttractSettings
    /// When autoplay steps next; nil without autoplay.
    private(set) var nextStep: Double?
    /// When the idle-home slide is due; nil without idle home, or once done until the next input.
    private(set) var homeAt: Double?
    /// A remote `pause` holds autoplay until `play`; input then does not restart it.
    private(set) var paused = false
    /// When a person last gave input (start counts).
    private(set) var lastInput: Double = 0
    /// Since when the item in focus holds the show (a clip playing); nil: it does not.
    private(set) var heldSince: Double?

    /// Start counts as the last input: autoplay's first step is one interval in.
    init(settings: AttractSettings, time: Double) {
        self.settings = settings
        noteInput(at: time, pausing: false)
    }

    /// A person touched, clicked, scrolled or pressed a key at `t`.
    mutating func noteInput(at t: Double) { noteInput(at: t, pausing: true) }

    private mutating func noteInput(at t: Double, pausing: Bool) {
        let resume = pausing ? max(settings.idleResume, 0) : 0
        lastInput = t
        nextStep = paused || heldSince != nil ? nil : settings.autoplayInterval.map { t + resume + $0 }
        homeAt = settings.idleHome.map { t + $0 }
    }

    /// Autoplay is set and not paused.
    var isPlaying: Bool { settings.autoplayInterval != nil && !paused }

    /// Holds autoplay (idle home still comes) until `play`.
    mutating func pause() {
        paused = true
        nextStep = nil
    }

    /// Lets autoplay go again: its next step one interval from `t` (or when the clip
    /// holding the show lets it go).
    mutating func play(at t: Double) {
        guard paused else { return }
        paused = false
        nextStep = heldSince != nil ? nil : settings.autoplayInterval.map { t + $0 }
    }

    /// The item in focus holds the show from `t` (a clip plays): no step until it lets go.
    mutating func hold(at t: Double) {
        guard heldSince == nil else { return }
        heldSince = t
        nextStep = nil
    }

    /// The clip let the show go at `t`: autoplay steps at once, unless a person's input
    /// while it played asks for the usual pause after input first.
    mutating func letGo(at t: Double) {
        guard let since = heldSince else { return }
        heldSince = nil
        guard !paused, let interval = settings.autoplayInterval else { return }
        nextStep = lastInput > since ? max(t, lastInput + max(settings.idleResume, 0) + interval) : t
    }

    /// When the next step comes if the item holding the show lets go at `end` (as `letGo`
    /// would plan it; nil: not known); when nothing holds it, the step planned. Nil while
    /// paused, without autoplay, or when the idle-home slide comes first.
    func step(ifLetGoAt end: Double?) -> Double? {
        guard !paused, let interval = settings.autoplayInterval else { return nil }
        guard let since = heldSince else { return next.flatMap { $0.due == .step ? $0.time : nil } }
        guard let end else { return nil }
        return lastInput > since ? max(end, lastInput + max(settings.idleResume, 0) + interval) : end
    }

    /// When a zoomed picture goes back to fit: `idleResume` after the last input, or sooner
    /// if attract mode acts sooner; nil when attract mode has nothing planned (it then stays).
    var zoomReturn: Double? {
        next.map { min($0.time, lastInput + max(settings.idleResume, 0)) }
    }

    /// The earliest pending action and its time.
    var next: (time: Double, due: Due)? {
        switch (nextStep, homeAt) {
        case let (s?, h?): return h <= s ? (h, .home) : (s, .step)
        case let (s?, nil): return (s, .step)
        case let (nil, h?): return (h, .home)
        case (nil, nil): return nil
        }
    }

    /// Marks `due` as done at `t` (also when there was nothing to do, e.g. already home).
    mutating func performed(_ due: Due, at t: Double) {
        switch due {
        case .home:
            homeAt = nil
            // A paused autoplay stays paused; a running one restarts its interval.
            if let interval = settings.autoplayInterval, let s = nextStep { nextStep = max(s, t + interval) }
        case .step:
            nextStep = paused || heldSince != nil ? nil : settings.autoplayInterval.map { t + $0 }
        }
    }
}
