import CarouselControl
import CarouselCore
import CLinux
import Foundation
import CarouselClock

/// This screen in its group (`--group`), as the run loop sees it: at each pass it hears the
/// group's messages, asks the screen's `GroupMember` what to do at the shared time (the
/// wall clock, kept by NTP on every host), and gives the loop the steps to make, the pause
/// to take and the instant to wake at. The engine's own autoplay is off in a group: the
/// group's timeline steps the show, on every screen at the same instant.
final class ScreenGroup {
    let name: String
    private(set) var member: GroupMember
    /// The broker's side; nil for a group that only shares an epoch (`--group-epoch`
    /// without `--mqtt`).
    let channel: GroupChannel?
    let interval: Double?
    /// How this screen names its items to the group (below the folders it was given).
    let identity: ShowIdentity
    /// The epoch was configured: nothing to agree on.
    private let fixedEpoch: Bool
    /// Wall-clock seconds minus the loop's, read now (a clock set by NTP shows at the next pass).
    private let wallOffset: () -> Double
    private let log: EventLog?
    private let timeOrigin: Double

    init(name: String, screen: String, epoch: Double?, interval: Double?, lead: Double, idle: Double,
         channel: GroupChannel?, now: Double, wallOffset: @escaping () -> Double, log: EventLog?, timeOrigin: Double,
         identity: ShowIdentity = ShowIdentity(given: [])) {
        self.name = name
        self.identity = identity
        self.channel = channel
        self.interval = interval
        self.fixedEpoch = epoch != nil
        self.wallOffset = wallOffset
        self.log = log
        self.timeOrigin = timeOrigin
        // Unconfigured, the epoch is this screen's start until the group says an earlier one.
        // Agreed over the broker, the epoch is heard before the first step, for 3 s at most
        // (a broker down at start: the screen goes on alone, on its own).
        let shared = now + wallOffset()
        member = GroupMember(screen: screen, epoch: epoch ?? shared.rounded(.down), interval: interval, lead: lead, idle: idle,
                             joinBy: epoch == nil && channel != nil ? shared + Self.joinWait : nil)
        epochKept = clockSynchronised
    }

    /// Seconds a screen agreeing its epoch over the broker waits to hear it before stepping.
    static let joinWait = 3.0

    /// The fingerprint of a show: its items' identities and the interval.
    static func fingerprint(_ sources: [ImageSource], interval: Double?, identity: ShowIdentity) -> String {
        GroupAgreement.fingerprint(names: sources.map(identity.of), interval: interval)
    }

    /// The screen's pictures changed (start, rescan, reload): messages of the group are
    /// checked against the new show.
    func showChanged(_ sources: [ImageSource]) {
        guard let channel else { return }
        let show = Self.fingerprint(sources, interval: interval, identity: identity)
        guard show != channel.show else { return }
        channel.show = show
        if !fixedEpoch { channel.send(epoch: member.timeline.epoch, interval: interval, kept: epochKept) }
    }

    /// A person or a remote on this screen moved or touched the view.
    func acted() { member.acted() }

    /// A key or remote step on this screen: a command for the group, this screen moving with
    /// the others at its instant; false when the step is the view's own to make (a page, a
    /// wall's rows), which is then announced at rest like a swipe.
    func step(_ step: Step, now: Double, scene: any ShownView) -> Bool {
        let t = now + sharedOffset()
        guard scene.state.kind.hasCentredItem,
              let c = member.command(step, at: t, shown: scene.state.focus, count: scene.sources.count) else {
            member.acted()
            return false
        }
        channel?.send(c)
        record(now, t, "announce", [("at_ms", .double(c.time * 1000))])
        return true
    }

    /// The loop's clock to the group's shared time: the wall clock's offset, and for a clock
    /// the group does not trust (`GroupMember.commands`), less how far it is from the
    /// group's by the exchange over the broker, so that it follows the group's steps even
    /// while NTP has not set it (a Pi without a real-time clock, booted minutes out).
    private func sharedOffset() -> Double {
        wallOffset() - (member.commands ? 0 : channel?.clock?.offset ?? 0)
    }

    /// How the screen stands in the group, for /status.
    var status: ShowState.Group {
        var s = ShowState.Group(name: name, screen: member.screen, epoch: member.timeline.epoch, linked: channel?.isConnected ?? false)
        let clock = channel?.clock
        (s.clockOffset, s.clockError) = (clock?.offset, clock?.error)
        s.clockSynchronised = clockSynchronised
        return s
    }

    /// Whether the kernel says NTP keeps this host's clock (adjtimex: not unsynchronised);
    /// nil where it cannot say. Read at most every `synchronisedCheck` seconds; a change is said in one line.
    private var clockSynchronised: Bool? {
        let now = SystemClock.wall
        if now - clockChecked.at >= Self.synchronisedCheck || now < clockChecked.at {
            let synced = kc_clock_synchronised()
            let value: Bool? = WallClock.override?.synchronised ?? (synced < 0 ? nil : synced == 1)
            if value != clockChecked.value, let value {
                // Said when it comes back, not at the start (the first reading, nil before it).
                if value { if clockChecked.value == false { Log.info("group \(name): this host's clock is kept by NTP again") } }
                else { Log.warn("group \(name): this host's clock is not synchronised (the kernel says so): screens keep step only as well as their clocks agree; enable NTP (timedatectl set-ntp true, or chrony)") }
            }
            clockChecked = (now, value)
        }
        return clockChecked.value
    }
    private var clockChecked: (at: Double, value: Bool?) = (-.infinity, nil)
    /// Seconds between two questions to the kernel: NTP's first answer after a boot with a
    /// wrong clock lets the screen command again within them.
    static let synchronisedCheck = 5.0
    /// Whether NTP kept the clock of the screen whose epoch this one holds (nil: not said);
    /// at start, this screen's own: its start by its clock as it was then.
    private var epochKept: Bool?
    /// Screens whose too-early command was said (once each, until one is kept again).
    private var refusedFrom: Set<String> = []

    /// Its own command is still to take effect (a remote's answer waits for it).
    var announcing: Bool { member.announcing }

    /// The group's item (or this screen's outcome) is due but the view was moving at the
    /// last pass: the loop passes again as soon as it rests. A `late` event says which.
    var waitingForRest: Bool { member.waitingForRest }

    /// What the loop does at `now` for the group: the steps to make (at `now`: every screen
    /// makes them at the same shared instant) and, when another screen paused or let go the
    /// show, the pause to take.
    func pass(now: Double, scene: any ShownView, paused: Bool) -> (steps: [ViewInput], paused: Bool?) {
        let offset = sharedOffset()
        let t = now + offset
        for message in channel?.take() ?? [] {
            switch message {
            case .command(let c, _):
                switch member.hear(c, at: t) {
                case .kept:
                    if c.screen != member.screen { record(now, t, "heard", [("from", .string(c.screen)), ("at_ms", .double(c.time * 1000))]) }
                    refusedFrom.remove(c.screen)
                case .tooFarAhead:
                    // Once per screen until one of its commands is kept again.
                    if refusedFrom.insert(c.screen).inserted {
                        Log.warn("group \(name): a command from screen \(c.screen) is stamped \(Int((c.time - t).rounded())) s ahead of this clock (more than \(GroupClockTrust.horizon(lead: member.lead)) s): refused; that screen's clock is wrong (not yet kept by NTP?)")
                    }
                    record(now, t, "refused", [("from", .string(c.screen)), ("at_ms", .double(c.time * 1000))])
                case .stale:
                    break
                }
            case .epoch(let e, _, let from, _, let kept):
                // Its own, come back: the broker has given every message it kept before it.
                if from == member.screen { member.joined() }
                guard !fixedEpoch, GroupAgreement.takes(e, kept: kept, holding: member.timeline.epoch, kept: epochKept) else { continue }
                member.adopt(epoch: e)
                epochKept = kept
                channel?.send(epoch: e, interval: interval, kept: kept)
                record(now, t, "epoch", [("epoch_ms", .double(e * 1000))] + (kept == false ? [("ntp", .string("no"))] : []))
            case .clockPing, .clockReply:
                break
            }
        }
        // A clock the group cannot trust follows it and commands nothing (said when it changes).
        let clock = channel?.clock
        let trusted = GroupClockTrust.mayCommand(synchronised: clockSynchronised, offset: clock?.offset, error: clock?.error)
        if trusted != member.commands {
            member.commands = trusted
            if trusted { Log.info("group \(name): this screen commands the group again (its clock is trusted)") }
            else { Log.warn("group \(name): this screen follows the group and commands nothing until its clock is trusted (NTP does not keep it, and it is more than a frame from the group's)") }
        }
        var steps: [ViewInput] = [], pause: Bool?
        let count = scene.sources.count
        let late = member.lateItem
        let actions = member.pass(at: t, count: count, shown: scene.state.focus, resting: scene.activity.resting, paused: paused)
        if let item = member.lateItem, item != late { record(now, t, "late", [("to", .int(item))]) }
        for action in actions {
            switch action {
            case .show(let item, let forward):
                // Forward round from the last item as autoplay goes; elsewhere straight there.
                // At the group's instant for it, on this loop's clock: a loop that woke late
                // moves as if it had not (the engine catches up a step at most
                // `stepCatchUp` late), so that its strip, and a clip there, rest when every
                // other screen's do.
                let since = member.timeline.since(t)
                steps.append(.step(forward && item != 0 ? .next : .item(item), time: min(now, since - offset)))
                record(now, t, "step", [("to", .int(item)), ("since_ms", .double(since * 1000))])
            case .announce(let c):
                channel?.send(c)
                record(now, t, "announce", [("at_ms", .double(c.time * 1000))])
            case .paused(let p):
                pause = p
                record(now, t, p ? "paused" : "playing", [])
            }
        }
        // A clip holding the show here holds the group's: every screen playing it makes the
        // same hold, until its end on the shared clock.
        let activity = scene.activity
        if steps.isEmpty, activity.resting, let until = activity.heldUntil, let focus = scene.state.focus,
           let hold = member.hold(focus, until: until + offset, at: t, count: count) {
            channel?.send(hold)
            record(now, t, "hold", [("item", .int(focus)), ("at_ms", .double(hold.time * 1000)),
                                    ("until_ms", .double(GroupTimeline.microseconds(until + offset) * 1000))])
        }
        return (steps, pause)
    }

    /// The group's next step after `now` and its item, on the loop's clock (a clip there is
    /// made ready, as autoplay's next is).
    func upcoming(now: Double, count: Int) -> (item: Int, at: Double)? {
        let offset = sharedOffset()
        return member.upcoming(after: now + offset, count: count).map { ($0.item, $0.at - offset) }
    }

    /// When the loop must wake for the group (a command's instant, the next step), on the
    /// loop's clock.
    func nextDue(now: Double) -> Double? {
        let offset = sharedOffset()
        let due = member.nextDue(after: now + offset).map { $0 - offset }
        // Not trusted, the screen asks again within `synchronisedCheck` whether NTP keeps its
        // clock: once NTP has set it, the offset it was corrected by is wrong and the group's
        // next step may look minutes away (seen: 600 s, the screen asleep on a stale item).
        guard !member.commands else { return due }
        return min(due ?? .infinity, now + Self.synchronisedCheck)
    }

    private func record(_ now: Double, _ shared: Double, _ action: String, _ fields: [(String, EventLog.Value)]) {
        log?.record(timeMs: Int(((now - timeOrigin) * 1000).rounded()), type: "group",
                    [("action", .string(action)), ("shared_ms", .double(shared * 1000))] + fields)
    }
}
