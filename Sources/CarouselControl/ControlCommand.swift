import CarouselCore

/// What an operator asks a screen to do, over HTTP or MQTT: the same commands for both, each
/// carried into the run loop as an input like a key press.
public enum ControlCommand: Hashable, Sendable {
    case next, previous, first, last
    /// The item at this index, counted from 0.
    case gotoIndex(Int)
    /// The item whose source (path or URL) is this.
    case gotoSource(String)
    case pause, play
    /// The clip in focus moves: to a time from its start, or by seconds from where it is.
    case seek(ClipSeek)
    /// A wall kind (`mosaic` or `grid`) goes back to the screen's wall, whichever it is.
    case view(ViewKind)
    case screen(on: Bool)
    /// The panel's backlight, 0 to 1.
    case brightness(Double)
    /// Read the configuration and the sources again (as SIGHUP).
    case reload
    /// A presence sensor: someone there, or nobody any more (`--presence-timeout`).
    case presence(Bool)


    /// Its name in logs and MQTT topics.
    public var name: String {
        switch self {
        case .next: "next"
        case .previous: "previous"
        case .first: "first"
        case .last: "last"
        case .gotoIndex, .gotoSource: "goto"
        case .pause: "pause"
        case .play: "play"
        case .seek: "seek"
        case .view: "view"
        case .screen: "screen"
        case .brightness: "brightness"
        case .reload: "reload"
        case .presence: "presence"
        }
    }
}

/// Why a request or command was not carried out: an HTTP status and one line.
public struct ControlRefusal: Error, Hashable, Sendable {
    public var status: Int
    public var reason: String

    public init(_ status: Int, _ reason: String) {
        self.status = status
        self.reason = reason
    }

    public static func badRequest(_ reason: String) -> ControlRefusal { ControlRefusal(400, reason) }
    public static func conflict(_ reason: String) -> ControlRefusal { ControlRefusal(409, reason) }
}
