/// The dots under the strip that say where in the collection the centred item is. With
/// more items than fit, only `limit` dots show, a window that follows the current item,
/// its edge dots smaller to say that more lie beyond (as iOS's page control does).
public enum PageDots {
    public struct Dot: Hashable, Sendable {
        public var index: Int
        /// 1 for a full dot; smaller at the edge of a compacted row.
        public var scale: Double
        public var isCurrent: Bool
    }

    /// The dots for `count` items with `current` centred, at most `limit` of them.
    public static func layout(count: Int, current: Int, limit: Int = 15) -> [Dot] {
        guard count > 1, limit >= 5 else { return [] }
        let current = min(max(current, 0), count - 1)
        let shown = min(count, limit)
        let first = min(max(current - shown / 2, 0), count - shown)
        let last = first + shown - 1
        return (first...last).map { i in
            var scale = 1.0
            // Edge dots shrink only where more items lie beyond them.
            if first > 0 && i == first || last < count - 1 && i == last { scale = 0.4 }
            else if first > 0 && i == first + 1 || last < count - 1 && i == last - 1 { scale = 0.7 }
            return Dot(index: i, scale: scale, isCurrent: i == current)
        }
    }
}
