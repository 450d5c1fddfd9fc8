/// A length given either in pixels or as a percentage of a viewport side,
/// so one configuration serves a 720p preview window and a 4K kiosk panel.
public enum Length: Hashable, Sendable {
    case pixels(Double)
    /// A percentage (50 = half) of the viewport side the length is measured along.
    case percent(Double)

    /// The length in pixels for a viewport side of `reference` pixels.
    public func resolved(against reference: Double) -> Double {
        switch self {
        case .pixels(let px): return px
        case .percent(let pc): return reference * pc / 100
        }
    }
}

extension Length: CustomStringConvertible {
    /// Parses `640`, `640px` or `55%`; nil for anything else, negative values included.
    public init?(parsing text: String) {
        var body = Substring(text)
        let isPercent = body.hasSuffix("%")
        if isPercent { body = body.dropLast() } else if body.hasSuffix("px") { body = body.dropLast(2) }
        guard let value = Double(body), value >= 0, value.isFinite else { return nil }
        self = isPercent ? .percent(value) : .pixels(value)
    }

    public var description: String {
        switch self {
        case .pixels(let px): return "\(Self.trim(px))"
        case .percent(let pc): return "\(Self.trim(pc))%"
        }
    }

    private static func trim(_ v: Double) -> String {
        v == v.rounded() && abs(v) < 1e15 ? String(Int(v)) : String(v)
    }
}
