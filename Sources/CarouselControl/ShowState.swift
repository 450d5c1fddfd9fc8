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
    /// Why the screen is as it is: `start`, `hours`, `touch` or `command`.
    public var screenReason = "start"
    /// The backlight's level, 0 to 1; nil where the panel has none the program may set.
    public var brightness: Double?

    public init() {}
}
