/// `--clock`: the time in a corner of every view, in a format of strftime's. What it needs
/// to know without a clock of its own: when its text next changes (each minute, or each
/// second when the format shows seconds), and where it goes on the screen.
public struct ClockFace: Sendable, Equatable {
    public enum Corner: String, CaseIterable, Sendable {
        case topLeft = "top-left", topRight = "top-right", bottomLeft = "bottom-left", bottomRight = "bottom-right"
    }

    /// strftime's format: `%H:%M`, `%a %e %b  %H:%M`, `%I:%M %p`.
    public var format: String
    public var corner: Corner
    /// The text's height in pixels; nil: a twelfth of the screen's height.
    public var size: Int?

    public init(format: String, corner: Corner = .bottomRight, size: Int? = nil) {
        self.format = format
        self.corner = corner
        self.size = size
    }

    /// strftime's conversions that show seconds (`%c` and `%X` in most locales).
    static let secondConversions: Set<Character> = ["S", "T", "X", "r", "s", "c", "+"]

    /// Whether the text changes each second (else each minute).
    public var showsSeconds: Bool {
        var percent = false
        for c in format {
            if percent {
                // A conversion's flags and width (`%-S`, `%02S`, `%ES`) come before its letter.
                if c == "-" || c == "_" || c == "0" || c == "^" || c == "#" || c == "E" || c == "O" || c.isNumber { continue }
                if Self.secondConversions.contains(c) { return true }
                percent = false
            } else if c == "%" {
                percent = true
            }
        }
        return false
    }

    /// Seconds between changes of the text.
    public var period: Double { showsSeconds ? 1 : 60 }

    /// When, on the loop's clock, the text next changes: `now` is that clock's time and
    /// `wall` the wall clock's at the same moment (seconds since 1970). A little after the
    /// turn, so the text read then is the new one.
    public func nextChange(now: Double, wall: Double) -> Double {
        let into = wall - (wall / period).rounded(.down) * period
        return now + (period - into) + 0.02
    }

    /// The text's height for a screen `height` pixels tall.
    public func textHeight(screenHeight height: Double) -> Int {
        size ?? max(16, min(160, Int(height / 12)))
    }

    /// Where text of `text`'s size goes on a `viewport`: `margin` in from its corner.
    public func rect(for text: Size, in viewport: Size, margin: Double) -> Rect {
        let x = corner == .topLeft || corner == .bottomLeft ? margin : viewport.width - margin - text.width
        let y = corner == .topLeft || corner == .topRight ? margin : viewport.height - margin - text.height
        return Rect(x: x.rounded(.down), y: y.rounded(.down), width: text.width, height: text.height)
    }
}
