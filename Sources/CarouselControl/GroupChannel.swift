import CarouselCore
import Foundation
import NIOConcurrencyHelpers
import CarouselClock

/// `--group`'s messages on the MQTT connection of the screen (`MQTTLink`): each screen keeps
/// its last command and its epoch retained on topics of its own,
/// `kiosk-carousel/group/<GROUP>/command/<SCREEN>` and `.../epoch/<SCREEN>`, so that a screen
/// joining (or the broker coming back empty, when each screen publishes its own again) hears
/// every screen's latest at once and reaches the same show by the timeline's rule (the
/// greatest command by time, then screen; the earliest epoch). Messages are checked by
/// `GroupMessage` and kept for the run loop, which takes them at its next pass; a message of
/// another show (another fingerprint) is refused, said once per screen and show.
public final class GroupChannel: @unchecked Sendable {
    public let group: String
    public let screen: String
    private let link: MQTTLink
    private let base: String
    private let log: @Sendable (String) -> Void
    private let wake: @Sendable () -> Void
    private struct State {
        var heard: [GroupMessage] = []
        var show: String
        /// Heard before the screen knew its show (retained messages at connecting): judged
        /// once it does.
        var early: [GroupMessage] = []
        /// What this screen published last, to publish again on reconnecting.
        var ownEpoch: GroupMessage?
        var ownCommand: GroupMessage?
        /// The other screens' clocks minus this one's, and the exchange's round trip: the
        /// last eight answers of each (64 screens at most); the one of the shortest round
        /// trip counts, its error at most half of it (NTP's clock filter).
        var clocks: [String: [(offset: Double, roundTrip: Double)]] = [:]
        /// The clock was said to be out of step with the group.
        var saidOutOfStep = false
        var clockTimerStarted = false
        /// The last pings sent (a burst): an answer must name one of them.
        var pings: [Double] = []
        var pingWanted = false
        /// Screens whose first ping made this one ask the group again.
        var greeted: Set<String> = []
        /// Screens and shows already said to differ, and refusals already said.
        var said: Set<String> = []
        /// Each other screen's latest epoch (64 screens at most): judged again when this
        /// screen's show changes, so that both sides of a difference say it.
        var epochs: [String: GroupMessage] = [:]
        /// Screens whose show differs from this one's now: said again when it is the same.
        var differing: Set<String> = []
        var refused = 0

        /// Whether `line` is to be said: the first time, and of at most 256 different ones
        /// (a flood of made-up topics fills no memory and no journal).
        mutating func firstTime(_ line: String) -> Bool {
            said.count < 256 && said.insert(line).inserted
        }
    }
    private let state: NIOLockedValueBox<State>

    /// Listens on `link` (call before the link starts): `wake` runs on libmosquitto's
    /// thread whenever a message is kept.
    public init(link: MQTTLink, group: String, screen: String, show: String,
                log: @escaping @Sendable (String) -> Void, wake: @escaping @Sendable () -> Void) {
        self.link = link
        self.group = group
        self.screen = screen
        self.base = "kiosk-carousel/group/\(group)"
        self.log = log
        self.wake = wake
        self.state = NIOLockedValueBox(State(show: show))
        link.listen(to: base + "/#", heard: { [weak self] topic, payload in self?.heard(topic: topic, payload: payload) },
                    linkChanged: { [weak self] connected in
                        if connected {
                            self?.republish()
                            self?.pingClocks()
                        }
                        // The loop says in /status whether commands reach the group.
                        self?.wake()
                    })
    }

    /// The fingerprint of the show this screen shows now (it changes when its pictures do).
    public var show: String {
        get { state.withLockedValue { $0.show } }
        set {
            let (early, ping, epochs) = state.withLockedValue { s in
                defer { s.show = newValue; s.early = []; s.pingWanted = false }
                return (s.early, s.pingWanted, s.show.isEmpty ? [] : Array(s.epochs.values))
            }
            for message in early + epochs { admit(message) }
            if ping { sendPing() }
        }
    }

    /// Whether messages reach the group now (the broker holds the connection).
    public var isConnected: Bool { link.isConnected }

    /// The messages kept since the last call, oldest first.
    public func take() -> [GroupMessage] {
        state.withLockedValue { s in defer { s.heard.removeAll() }; return s.heard }
    }

    /// Tells the group this screen's command (retained: a screen joining hears it).
    public func send(_ command: GroupTimeline.Command) {
        let message = GroupMessage.command(command, show: show)
        state.withLockedValue { $0.ownCommand = message }
        link.send(base + "/command/" + screen, message.payload, retain: true)
    }

    /// Tells the group the epoch this screen holds (retained), and whether NTP kept the clock
    /// of the screen that proposed it.
    public func send(epoch: Double, interval: Double?, kept: Bool?) {
        let message = GroupMessage.epoch(epoch, interval: interval, screen: screen, show: show, kept: kept)
        let changed = state.withLockedValue { s -> Bool in
            defer { s.ownEpoch = message }
            return s.ownEpoch != message
        }
        if changed { link.send(base + "/epoch/" + screen, message.payload, retain: true) }
    }

    /// Seconds between asking the other screens their clocks (and at every connection): four
    /// pings and each screen's four answers, about 100 bytes each, far below the keepalive's
    /// traffic.
    static let clockInterval = 600.0
    /// More than a frame from the group's clock is out of step.
    public static let clockTolerance = 1.0 / 60
    private let clockQueue = DispatchQueue(label: "group-clock")

    /// This screen's clock minus the group's (the median of the other screens' clocks, by
    /// NTP's exchange over the broker), and how far it may be off (half the round trip of
    /// the exchanges it comes from); nil before an answer came.
    public var clock: (offset: Double, error: Double)? {
        ClockExchange.fromGroup(state.withLockedValue { s in
            s.clocks.values.compactMap { samples in samples.min { $0.roundTrip < $1.roundTrip } }
        })
    }

    private static func wallClock() -> Double { GroupTimeline.microseconds(WallClock.now()) }

    /// Asks four times, a second apart (the shortest round trip of them counts).
    private func pingClocks() {
        sendPing()
        for i in 1...3 { clockQueue.asyncAfter(deadline: .now() + Double(i)) { [weak self] in if self?.link.isConnected == true { self?.sendPing() } } }
        let first = state.withLockedValue { s in
            defer { s.clockTimerStarted = true }
            return !s.clockTimerStarted
        }
        if first { scheduleClockPing() }
    }

    private func scheduleClockPing() {
        clockQueue.asyncAfter(deadline: .now() + Self.clockInterval) { [weak self] in
            guard let self else { return }
            if self.link.isConnected { self.pingClocks() }
            self.scheduleClockPing()
        }
    }

    private func sendPing() {
        let ping = Self.wallClock()
        // Connected before the screen knew its show: asked once it does.
        let now = state.withLockedValue { s -> Bool in
            guard !s.show.isEmpty else { s.pingWanted = true; return false }
            s.pings = Array((s.pings + [ping]).suffix(8))
            return true
        }
        guard now else { return }
        link.send(base + "/clock/" + screen, GroupMessage.clockPing(ping: ping, screen: screen, show: show).payload, retain: false)
    }

    /// libmosquitto's thread: a ping answered at once, an answer to this screen's ping kept.
    private func clock(_ message: GroupMessage, received: Double) {
        switch message {
        case .clockPing(let ping, let from, _) where from != screen:
            let reply = GroupMessage.clockReply(ping: ping, got: received, sent: Self.wallClock(), to: from, screen: screen, show: show)
            link.send(base + "/clock/" + screen, reply.payload, retain: false)
            // A screen this one has not measured yet (it joined later): asked once it has
            // settled, a few seconds on.
            let newcomer = state.withLockedValue { s in
                s.clocks[from] == nil && s.greeted.count < 64 && s.greeted.insert(from).inserted
            }
            if newcomer {
                clockQueue.asyncAfter(deadline: .now() + 3) { [weak self] in
                    if self?.link.isConnected == true { self?.pingClocks() }
                }
            }
        case .clockReply(let ping, let got, let sent, let to, let from, _) where to == screen && from != screen:
            // One of this screen's pings (JSON may have rounded it below a microsecond).
            guard let ping = state.withLockedValue({ $0.pings.first { abs($0 - ping) < 1e-5 } }) else { return }
            let (offset, roundTrip) = ClockExchange.offset(ping: ping, got: got, sent: sent, received: received)
            guard roundTrip >= 0, roundTrip < 10 else { return }
            let kept = state.withLockedValue { s -> Bool in
                guard s.clocks[from] != nil || s.clocks.count < 64 else { return false }
                s.clocks[from] = Array(((s.clocks[from] ?? []) + [(offset, roundTrip)]).suffix(8))
                return true
            }
            guard kept else { return }
            guard let (mine, error) = clock else { return }
            // Out of step only when surely so: a slow exchange (a screen busy starting) says
            // little, and the next one, at most ten minutes on, says more.
            let out = abs(mine) - error > Self.clockTolerance
            let changed = state.withLockedValue { s -> Bool in
                defer { s.saidOutOfStep = out }
                return s.saidOutOfStep != out
            }
            if changed {
                log(out ? String(format: "group %@: this screen's clock is %+.1f ms from the group's (more than a frame): check its NTP (timedatectl, chronyc tracking)", group, mine * 1000)
                        : String(format: "group %@: this screen's clock is back in step with the group's (%+.1f ms)", group, mine * 1000))
            }
            wake()
        default:
            break
        }
    }

    private func republish() {
        let (epoch, command) = state.withLockedValue { ($0.ownEpoch, $0.ownCommand) }
        if let epoch { link.send(base + "/epoch/" + screen, epoch.payload, retain: true) }
        if let command { link.send(base + "/command/" + screen, command.payload, retain: true) }
    }

    /// libmosquitto's thread.
    private func heard(topic: String, payload: [UInt8]) {
        let rest = topic.dropFirst(base.count + 1).split(separator: "/", omittingEmptySubsequences: false)
        let received = Self.wallClock()
        guard rest.count == 2, rest[0] == "command" || rest[0] == "epoch" || rest[0] == "clock" else { return }
        // A retained message cleared (an empty payload) says nothing.
        if payload.isEmpty { return }
        switch GroupMessage.parse(payload) {
        case .failure(let problem):
            let first = state.withLockedValue { s -> Bool in s.refused += 1; return s.firstTime("refused " + topic) }
            if first { log("group \(group): \(topic): refused, \(problem.description)") }
        case .success(let message):
            let from: String = switch message {
            case .command(let c, _): c.screen
            case .epoch(_, _, let screen, _, _), .clockPing(_, let screen, _), .clockReply(_, _, _, _, let screen, _): screen
            }
            guard from == String(rest[1]) else {
                let first = state.withLockedValue { $0.firstTime("topic " + topic) }
                if first { log("group \(group): \(topic): refused, it names another screen (\(from))") }
                return
            }
            if rest[0] == "clock" { clock(message, received: received) } else { admit(message) }
        }
    }

    /// Keeps a message of this screen's show for the loop (and wakes it); says once per
    /// screen and show that another show is refused.
    private func admit(_ message: GroupMessage) {
        let (from, show, isCommand): (String, String, Bool) = switch message {
        case .command(let c, let show): (c.screen, show, true)
        case .epoch(_, _, let screen, let show, _), .clockPing(_, let screen, let show), .clockReply(_, _, _, _, let screen, let show):
            (screen, show, false)
        }
        let (kept, again) = state.withLockedValue { s -> (Bool?, Bool) in
            if s.show.isEmpty {
                s.early.append(message)
                return (nil, false)
            }
            if !isCommand, from != screen, s.epochs[from] != nil || s.epochs.count < 64 { s.epochs[from] = message }
            guard show == s.show else {
                if from != screen, s.differing.count < 64 { s.differing.insert(from) }
                return (s.firstTime(from + " " + show) ? false : nil, false)
            }
            s.heard.append(message)
            return (true, s.differing.remove(from) != nil)
        }
        if again { log("group \(group): screen \(from) shows this screen's show again (\(show)): in step with it") }
        switch kept {
        case true?: wake()
        case false?:
            log("group \(group): screen \(from) shows another show (\(show), this one \(self.show)): its \(isCommand ? "commands are" : "epoch is") ignored until the two are the same; give every screen of the group the same sources and options")
        case nil: break
        }
    }
}

