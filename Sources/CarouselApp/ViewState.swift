import CarouselCore

/// What a view shows, read by whatever reports on it or steers it (the control API's
/// status, MQTT, the `view` event, the key mapper, a resize): which view, at what size, on
/// which item, and whether Back leads to a view below.
public struct ViewState: Equatable, Sendable {
    /// Which view shows.
    public var kind: ViewKind
    /// The size laid out, in logical pixels.
    public var viewport: Size
    /// The item in focus: the carousel's centred picture, the wall's top item; nil when
    /// there are none.
    public var focus: Int?
    /// Shown over another view (the carousel opened from the wall): Escape, Backspace and
    /// the back button return (`.back`).
    public var canGoBack: Bool

    public init(kind: ViewKind, viewport: Size, focus: Int?, canGoBack: Bool = false) {
        self.kind = kind
        self.viewport = viewport
        self.focus = focus
        self.canGoBack = canGoBack
    }
}
