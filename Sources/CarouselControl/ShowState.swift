import CarouselCore
/// What a screen shows, as the run loop publishes it after each change: read by the control
/// API and MQTT from any thread without ever waiting for the drawing.
public struct ShowState: Hashable, Sendable {
    /// `carousel`, `mosaic` or `grid`.
    public var view = "carousel"
    public var index: Int?
    public var count = 0
    /// The current item's path or URL, title and caption.
    public var source: String?
    public var title: String?
    public var caption: String?
    /// A pair's other picture (`--pair-portraits`): its path or URL; nil for one picture.
    public var paired: String?
    /// Autoplay set and not paused.
    public var playing = false
    public var screenOn = true
    /// Why the screen is as it is: `start`, `hours`, `touch`, `command`, `presence`,
    /// `nobody` (`--presence-timeout` passed without presence or touch) or `tv` (the TV's
    /// own remote, over HDMI-CEC).
    public var screenReason = "start"
    /// The backlight's level, 0 to 1; nil where the panel has none the program may set.
    public var brightness: Double?
    /// `--group`: which group, and how this screen stands in it; nil alone.
    public var group: Group?
    /// What this screen can be asked to do (Home Assistant offers only that).
    public var capabilities = Capabilities()
    /// The screen is off but the panel stays lit, black (no DPMS, no backlight control).
    public var panelStaysLit = false
    /// `--cec`: the TV as the HDMI-CEC bus tells it; nil without.
    public var tv: TV?

    public struct TV: Hashable, Sendable {
        /// The TV answered the question of its power at start (nil: not asked yet).
        public var answers: Bool?
        /// `on`, `standby`, `waking`, `going to standby`; nil before it said.
        public var power: String?
        /// The screen's physical address (1.0.0.0: the TV's first input); nil off the bus.
        public var address: String?
        /// The TV shows this screen's input.
        public var showsThisScreen: Bool
        public init(answers: Bool?, power: String?, address: String?, showsThisScreen: Bool) {
            (self.answers, self.power, self.address, self.showsThisScreen) = (answers, power, address, showsThisScreen)
        }
    }

    public struct Capabilities: Hashable, Sendable {
        /// Autoplay is set (`--autoplay`): pause and play do something.
        public var canPlay = false
        /// The wall this screen goes back to (`mosaic` or `grid`); nil: the carousel only.
        public var wall: String?
        /// Pictures in the show.
        public var count = 0
        /// The control API's address for people (`configuration_url`); nil: none reachable.
        public var controlURL: String?
        /// In a group (`--group`): the clock's health is reported.
        public var inGroup = false

        public init() {}
    }

    public struct Group: Hashable, Sendable {
        public var name: String
        public var screen: String
        /// The epoch held (seconds since 1970).
        public var epoch: Double
        /// Commands reach the group (the broker holds the connection); false: they are this
        /// screen's only until it is back (the timeline goes on meanwhile).
        public var linked: Bool
        /// This host's clock minus the group's (by NTP's exchange with the other screens
        /// over the broker); nil before an answer came.
        public var clockOffset: Double?
        /// How far `clockOffset` may be off (half the exchanges' round trip).
        public var clockError: Double?
        /// The kernel says NTP keeps this host's clock; nil where it cannot say.
        public var clockSynchronised: Bool?

        /// This screen commands the group (`GroupClockTrust.mayCommand`): NTP keeps its clock
        /// or, where the kernel cannot say, it is within a frame of the group's.
        public var commands: Bool {
            GroupClockTrust.mayCommand(synchronised: clockSynchronised, offset: clockOffset, error: clockError)
        }

        /// Its clock is not trusted: the screen follows the group and commands nothing.
        public var clockProblem: Bool { !commands }

        public init(name: String, screen: String, epoch: Double, linked: Bool) {
            self.name = name
            self.screen = screen
            self.epoch = epoch
            self.linked = linked
        }
    }

    public init() {}
}
