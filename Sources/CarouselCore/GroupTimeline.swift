/// `--group`: where a group of screens' show is at any instant of the group's shared clock
/// (the hosts' wall clocks, kept together by NTP), so that screens agree without a leader.
/// From the group's epoch the show steps every interval; a group command (a swipe, a key, a
/// remote's command on any screen) fixes the item from its instant on, and the show steps
/// again once the idle time after it has passed. Pure: the same commands give every screen
/// the same show, in whatever order they arrive.
///
/// Commands are kept as a last-writer-wins register: the command with the greatest (time,
/// screen) wins, and one that sorts before the last applied is superseded already, so two
/// screens that saw the same commands agree however they came.
public struct GroupTimeline: Hashable, Sendable {
    /// A command for the whole group, stamped with the shared instant it takes effect at.
    public struct Command: Hashable, Sendable, Comparable {
        public enum Action: Hashable, Sendable {
            /// Show `item` from `time` on; autoplay steps again `idle` seconds later, then
            /// every interval.
            case show(item: Int, idle: Double)
            /// Autoplay holds `item` until a `play`.
            case pause(item: Int)
            /// Autoplay steps on from `item`, the first step one interval after `time`.
            case play(item: Int)
        }

        /// Seconds on the shared clock at which every screen applies it.
        public var time: Double
        /// The screen it came from: what orders two commands of the same instant.
        public var screen: String
        public var action: Action

        public init(time: Double, screen: String, action: Action) {
            self.time = time
            self.screen = screen
            self.action = action
        }

        public static func < (a: Command, b: Command) -> Bool {
            a.time != b.time ? a.time < b.time : a.screen < b.screen
        }
    }

    /// `t` to a whole microsecond: the instants a screen sends are these, so that every
    /// screen holds them to the bit (they travel as whole microseconds).
    public static func microseconds(_ t: Double) -> Double { (t * 1e6).rounded() / 1e6 }

    /// When the show began for the group: item 0 from then, the first step one interval in
    /// (a screen that learns an earlier one from the group moves to it).
    public var epoch: Double
    /// Seconds between steps; nil: no autoplay (the show moves only by commands).
    public let interval: Double?
    /// The command the show counts from now; nil: none yet (it counts from the epoch).
    public private(set) var last: Command?

    public init(epoch: Double, interval: Double?) {
        self.epoch = epoch
        self.interval = interval.flatMap { $0.isFinite && $0 > 0 ? $0 : nil }
    }

    /// Applies `command`; false when a later one (by time, then screen) was applied already,
    /// or when it is not a command at all (a time or item that is not finite, a negative idle).
    @discardableResult
    public mutating func apply(_ command: Command) -> Bool {
        guard command.time.isFinite, Self.isValid(command.action) else { return false }
        if let last, command <= last { return false }
        last = command
        return true
    }

    private static func isValid(_ action: Command.Action) -> Bool {
        switch action {
        case .show(let item, let idle): item >= 0 && idle.isFinite && idle >= 0
        case .pause(let item), .play(let item): item >= 0
        }
    }

    /// Where the show counts from and when its next step falls: (instant, item, first step).
    private var origin: (item: Int, firstStep: Double?) {
        guard let last else { return (0, interval.map { epoch + $0 }) }
        switch last.action {
        case .show(let item, let idle): return (item, interval.map { last.time + idle + $0 })
        case .pause(let item): return (item, nil)
        case .play(let item): return (item, interval.map { last.time + $0 })
        }
    }

    /// The item shown at `t` in a show of `count` items (it goes round); nil for none.
    public func item(at t: Double, count: Int) -> Int? {
        guard count > 0 else { return nil }
        let (item, firstStep) = origin
        let steps = firstStep.flatMap { first in interval.map { t < first ? 0 : Int(((t - first) / $0).rounded(.down)) + 1 } } ?? 0
        return ((item + steps) % count + count) % count
    }

    /// The first step after `t` (every screen starts it at that instant); nil while the show
    /// does not step (no autoplay, or paused).
    public func nextStep(after t: Double) -> Double? {
        guard let first = origin.firstStep, let interval else { return nil }
        guard t >= first else { return first }
        return first + (((t - first) / interval).rounded(.down) + 1) * interval
    }

    /// The instant the item shown at `t` began: the step or command that put it there (the
    /// same on every screen, to the bit).
    public func since(_ t: Double) -> Double {
        let start = last?.time ?? epoch
        guard let first = origin.firstStep, let interval, t >= first else { return start }
        return first + ((t - first) / interval).rounded(.down) * interval
    }

    /// Whether autoplay holds the show (a `pause` was the last command).
    public var isPaused: Bool {
        if case .pause? = last?.action { return true }
        return false
    }
}
