/// One screen's part in a group (`--group`): what it does at each pass of its loop to show
/// the group's show (`GroupTimeline`), and what it tells the group when a person or a remote
/// moved it. Pure: the shared time comes in as a value, the commands it hears and sends are
/// values, so every behaviour is a deterministic test.
///
/// The rules:
/// - A command takes effect at its own instant on every screen, this one included: until
///   then it waits (`pending`), and the loop wakes for it (`nextDue`).
/// - While a finger is on the screen or the view moves, the screen is the person's: it
///   neither follows the group nor announces anything. At rest after a local input (a
///   swipe's outcome, a key, a remote command), it announces where it rests: the group
///   shows that item from `lead` seconds on, and autoplay steps again `idle` seconds later.
/// - Until its own command takes effect the screen keeps what it shows (it is there
///   already); otherwise, at rest, it steps to the group's item whenever they differ, which
///   happens at the group's step instants, at another screen's command and at joining.
public struct GroupMember: Sendable {
    public typealias Command = GroupTimeline.Command

    /// What the screen does now.
    public enum Action: Hashable, Sendable {
        /// Move the view to `item`; `forward`: it is the one after the shown one (a step of
        /// autoplay, which goes round as autoplay does rather than sliding back).
        case show(item: Int, forward: Bool)
        /// Send this command to the group (it is heard here already).
        case announce(Command)
        /// Another screen paused (true) or let go (false) the show: the screen says so.
        case paused(Bool)
    }

    /// This screen's id in the group.
    public let screen: String
    /// The group's show, with the commands whose instant has come.
    public private(set) var timeline: GroupTimeline
    /// Commands heard whose instant has not come, earliest first.
    public private(set) var pending: [Command] = []
    /// Seconds between a local input's outcome and the instant the group shows it.
    public let lead: Double
    /// Seconds autoplay waits after a command before stepping again (`--idle-resume`).
    public let idle: Double
    /// A person or remote on this screen acted since its last announcement.
    private var hasActed = false

    /// This screen's commands go to the group (`GroupClockTrust.mayCommand`). False: its
    /// clock is not trusted, so it follows the group and commands nothing; what a person
    /// does here is this screen's until it rests, and then it goes back to the group's item.
    public var commands = true

    /// Until this shared instant the screen waits to hear the group before it steps (its
    /// epoch agreed over the broker: `joined`); nil: it has heard it, or has nothing to hear.
    public private(set) var joinBy: Double?

    /// `joinBy`: a screen that agrees its epoch over the broker waits until then to hear the
    /// group's epoch before it steps; without it, it would slide to the item of its own epoch
    /// and then, once the group's came, to the group's (seen under load: two moves at start).
    public init(screen: String, epoch: Double, interval: Double?, lead: Double, idle: Double, joinBy: Double? = nil) {
        self.joinBy = joinBy
        self.screen = screen
        self.timeline = GroupTimeline(epoch: GroupTimeline.microseconds(epoch), interval: interval)
        self.lead = max(0, lead)
        self.idle = max(0, idle)
    }

    /// What became of a command heard.
    public enum Hearing: Hashable, Sendable {
        /// Kept until its instant.
        case kept
        /// Superseded already, or heard before.
        case stale
        /// Stamped further ahead of this screen's clock than a trusted clock's command can
        /// be (`GroupClockTrust.horizon`): a wrong clock's, refused.
        case tooFarAhead
    }

    /// A command heard from the group (another screen's, or this one's own come back) at
    /// shared time `t`: kept until its instant, unless it is stale or too far ahead.
    @discardableResult
    public mutating func hear(_ command: Command, at t: Double) -> Hearing {
        guard command.time.isFinite else { return .stale }
        if command.time > GroupTimeline.microseconds(t + GroupClockTrust.horizon(lead: lead)) { return .tooFarAhead }
        return keep(command) ? .kept : .stale
    }

    /// Keeps this screen's own command, or one heard, until its instant; false when it is
    /// superseded already or heard before.
    @discardableResult
    private mutating func keep(_ command: Command) -> Bool {
        guard command.time.isFinite else { return false }
        if let last = timeline.last, command <= last { return false }
        guard !pending.contains(command) else { return false }
        pending.append(command)
        pending.sort()
        return true
    }

    /// The group agreed on another epoch (an earlier screen's).
    public mutating func adopt(epoch: Double) {
        guard epoch.isFinite else { return }
        timeline.epoch = GroupTimeline.microseconds(epoch)
    }

    /// The group is heard: every message the broker kept for it came (this screen's own
    /// epoch came back after them), and the epoch is the group's.
    public mutating func joined() { joinBy = nil }

    /// A person or a remote on this screen moved, touched or steered the view: at the next
    /// rest the screen announces where it is.
    public mutating func acted() { hasActed = true }

    /// A key or a remote command on this screen (`step`, from `shown` of `count` items) made
    /// a command for the whole group: every screen, this one too, shows its item from `lead`
    /// seconds after `t`. Nil for a step that is not to an item (a page: the view's own
    /// measure), which the screen makes itself and announces at rest like a swipe.
    public mutating func command(_ step: Step, at t: Double, shown: Int?, count: Int) -> Command? {
        guard commands, count > 0, let shown else { return nil }
        let item: Int
        switch step {
        case .next: item = shown + 1
        case .previous: item = shown - 1
        case .first: item = 0
        case .last: item = count - 1
        case .by(let n): item = shown + n
        case .item(let i): item = i
        case .nextPage, .previousPage: return nil
        }
        let command = Command(time: GroupTimeline.microseconds(t + lead), screen: screen, action: .show(item: min(max(item, 0), count - 1), idle: idle))
        keep(command)
        return command
    }

    /// The item in focus, `item`, is a clip that lets the show go at shared instant `end`
    /// (its start plus its length): the group holds it until then, as one screen's autoplay
    /// would, when that is past the group's next step. A command for the whole group, made
    /// at the instant the group put the item there (a microsecond after, so that it follows
    /// the command that did): every screen makes the same from the same clip, and the one of
    /// any screen that sorts last holds for all. Nil when there is nothing to hold (no
    /// autoplay, paused, another item due, the clip ends before the step, already held).
    public mutating func hold(_ item: Int, until end: Double, at t: Double, count: Int) -> Command? {
        guard commands, let interval = timeline.interval, !timeline.isPaused, !announcing, end.isFinite, count > 0,
              timeline.item(at: t, count: count) == item, let next = timeline.nextStep(after: t) else { return nil }
        let until = GroupTimeline.microseconds(end)
        guard until > next else { return nil }
        let time = GroupTimeline.microseconds(timeline.since(t) + 1e-6)
        if let last = timeline.last, last.time >= time { return nil }
        let command = Command(time: time, screen: screen, action: .show(item: item, idle: until - time - interval))
        guard keep(command) else { return nil }
        return command
    }

    /// The group's next step after `t`: its instant and the item it shows then; nil while the
    /// show does not step (no autoplay, paused). A clip there can be made ready.
    public func upcoming(after t: Double, count: Int) -> (item: Int, at: Double)? {
        guard let at = timeline.nextStep(after: t), let item = timeline.item(at: at, count: count) else { return nil }
        return (item, at)
    }

    /// This screen's own command is still to take effect.
    public var announcing: Bool { pending.contains { $0.screen == screen } }

    /// The group's item (or this screen's own outcome) is due but the view was moving or
    /// held at the last pass: the screen must pass again as soon as it rests, not at the
    /// next step instant (a slow screen, still busy at an instant, skipped the item).
    public var waitingForRest: Bool { hasActed || lateItem != nil }
    /// The group's item that fell due while the view moved elsewhere (not to it).
    public private(set) var lateItem: Int?
    /// The item this screen was last told to show: the view may still be moving to it.
    private var asked: Int?

    /// The shared time of the last pass. An instant after it is still to do however late the
    /// loop comes back: a pass just before an instant (a decode woke the loop) may draw a
    /// frame that outlasts the instant, and a wait reckoned from after that frame would sleep
    /// to the next one (under emulation a screen skipped the same item every round).
    private var passedAt: Double?

    /// What to do at shared time `t`, the view at rest or not, showing `shown` of `count`
    /// items, its autoplay held or not (`paused`: a remote's pause on this screen).
    public mutating func pass(at t: Double, count: Int, shown: Int?, resting: Bool, paused: Bool) -> [Action] {
        passedAt = t
        if let joinBy {
            guard t >= joinBy else { return [] }
            self.joinBy = nil
        }
        var actions: [Action] = []
        let wasPaused = timeline.isPaused
        while let first = pending.first, first.time <= t {
            pending.removeFirst()
            timeline.apply(first)
        }
        if timeline.isPaused != wasPaused, timeline.last?.screen != screen { actions.append(.paused(timeline.isPaused)) }
        guard resting, count > 0 else {
            let due = shown == nil ? nil : timeline.item(at: t, count: count)
            lateItem = due != shown && due != asked ? due : nil
            return actions
        }
        lateItem = nil
        // At rest with nothing in focus (a wall placing its tiles) there is no outcome to say.
        if hasActed && shown == nil { hasActed = false }
        if hasActed, let shown, commands {
            hasActed = false
            let action: Command.Action = paused ? .pause(item: shown) : .show(item: shown, idle: idle)
            let command = Command(time: GroupTimeline.microseconds(t + lead), screen: screen, action: action)
            keep(command)
            actions.append(.announce(command))
            return actions
        }
        // Not commanding: what the person did stays this screen's; it follows the group again.
        hasActed = false
        // A remote's pause or play on this screen: the group's too (unless the group
        // itself just changed it, which the screen is yet to hear of).
        let groupChanged = actions.contains { if case .paused = $0 { true } else { false } }
        if commands, paused != timeline.isPaused, !groupChanged, !announcing, let shown {
            let command = Command(time: GroupTimeline.microseconds(t + lead), screen: screen, action: paused ? .pause(item: shown) : .play(item: shown))
            keep(command)
            actions.append(.announce(command))
            return actions
        }
        guard !announcing, let item = timeline.item(at: t, count: count), item != shown else { return actions }
        asked = item
        actions.append(.show(item: item, forward: shown.map { (($0 + 1) % count) == item } ?? false))
        return actions
    }

    /// The next shared instant the screen has something to do at: a heard command's, or the
    /// group's next step after its last pass (at or before `t`: due at once, when it fell
    /// since); nil: nothing until something is heard or done.
    public func nextDue(after t: Double) -> Double? {
        let from = passedAt.map { min($0, t) } ?? t
        if let joinBy { return max(joinBy, from) }
        return [pending.first?.time, timeline.nextStep(after: from)].compactMap { $0 }.min()
    }
}
