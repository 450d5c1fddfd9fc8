/// How the picture is turned on a panel mounted sideways or upside down: the carousel lays
/// out a logical screen and the frame is drawn turned clockwise by this many degrees onto
/// the physical one; pointer positions are turned back.
public enum ScreenRotation: Int, CaseIterable, Hashable, Sendable {
    case none = 0, quarter = 90, half = 180, threeQuarters = 270

    /// The logical screen for a physical one: sides swap at 90 and 270 degrees.
    public func logicalSize(physical: Size) -> Size {
        swapsSides ? Size(width: physical.height, height: physical.width) : physical
    }

    public var swapsSides: Bool { self == .quarter || self == .threeQuarters }

    /// A point on the physical screen (`physical` its size) on the logical screen.
    public func toLogical(_ p: Point, physical: Size) -> Point {
        switch self {
        case .none: return p
        case .quarter: return Point(x: p.y, y: physical.width - p.x)
        case .half: return Point(x: physical.width - p.x, y: physical.height - p.y)
        case .threeQuarters: return Point(x: physical.height - p.y, y: p.x)
        }
    }

    /// A logical point on the physical screen: the inverse of `toLogical`.
    public func toPhysical(_ p: Point, physical: Size) -> Point {
        switch self {
        case .none: return p
        case .quarter: return Point(x: physical.width - p.y, y: p.x)
        case .half: return Point(x: physical.width - p.x, y: physical.height - p.y)
        case .threeQuarters: return Point(x: p.y, y: physical.height - p.x)
        }
    }
}

/// Corrections for a touch panel whose axes disagree with the display it is glued to (a
/// common fault of cheap panels and of panels mounted sideways): applied to the touch
/// position, 0–1 on each axis, before anything else.
public struct TouchTransform: OptionSet, Hashable, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    public static let swapXY = TouchTransform(rawValue: 1)
    public static let invertX = TouchTransform(rawValue: 2)
    public static let invertY = TouchTransform(rawValue: 4)

    /// Parses `swap-xy,invert-x,invert-y` (any of them, any order) or `none`.
    public init?(parsing text: String) {
        self = []
        for part in text.lowercased().split(separator: ",").map({ String($0.filter { $0 != " " }) }) {
            switch part {
            case "swap-xy": insert(.swapXY)
            case "invert-x": insert(.invertX)
            case "invert-y": insert(.invertY)
            case "none": continue
            default: return nil
            }
        }
    }

    /// The corrected normalised position: axes swapped first, then inverted.
    public func apply(x: Double, y: Double) -> (x: Double, y: Double) {
        var (a, b) = contains(.swapXY) ? (y, x) : (x, y)
        if contains(.invertX) { a = 1 - a }
        if contains(.invertY) { b = 1 - b }
        return (a, b)
    }

    public var description: String {
        let names = [(TouchTransform.swapXY, "swap-xy"), (.invertX, "invert-x"), (.invertY, "invert-y")]
            .filter { contains($0.0) }.map(\.1)
        return names.isEmpty ? "none" : names.joined(separator: ",")
    }
}
