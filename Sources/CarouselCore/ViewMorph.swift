/// A picture moving from its place in one view to its place in another: a wall's tile
/// growing into the carousel's centred picture when tapped, and back when the carousel
/// closes. Its rectangle and the part of the picture it shows (a tile shows a cropped
/// cover, the carousel the whole picture) ease together from one to the other.
public struct ViewMorph: Hashable, Sendable {
    /// About a quarter of a second: long enough to see where the picture came from, short
    /// enough not to keep anyone waiting.
    public static let duration = 0.250

    public let from: Rect
    public let to: Rect
    /// The part of the picture shown at each end, in fractions 0–1 of it.
    public let fromCrop: Rect
    public let toCrop: Rect
    public let startTime: Double

    public init(from: Rect, to: Rect, fromCrop: Rect, toCrop: Rect, time: Double) {
        self.from = from
        self.to = to
        self.fromCrop = fromCrop
        self.toCrop = toCrop
        self.startTime = time
    }

    public var endTime: Double { startTime + Self.duration }
    public func isDone(at time: Double) -> Bool { time >= endTime }

    /// How far along, 0 to 1, eased out (quick start, gentle arrival).
    public func progress(at time: Double) -> Double {
        let u = min(max((time - startTime) / Self.duration, 0), 1)
        return 1 - (1 - u) * (1 - u) * (1 - u)
    }

    public func frame(at time: Double) -> Rect { Self.mix(from, to, progress(at: time)) }
    public func crop(at time: Double) -> Rect { Self.mix(fromCrop, toCrop, progress(at: time)) }

    static func mix(_ a: Rect, _ b: Rect, _ p: Double) -> Rect {
        Rect(x: a.minX + (b.minX - a.minX) * p, y: a.minY + (b.minY - a.minY) * p,
             width: a.size.width + (b.size.width - a.size.width) * p, height: a.size.height + (b.size.height - a.size.height) * p)
    }
}
