/// The columns a tile layout divides the viewport's width into, the same for the mosaic
/// and the grid. With viewport width W, C columns and gap g: column width
/// cw = ⌊(W − (C + 1)·g) / C⌋, the pixels left over split evenly left and right, column c's
/// left edge at ⌊leftover / 2⌋ + g + c·(cw + g).
public struct TileColumns: Hashable, Sendable {
    public let count: Int
    public let gap: Double
    public let width: Double
    /// The left edge of the first column's gap (half the pixels left over).
    public let left: Double

    /// `columns`: for portrait and for landscape viewports, chosen by the viewport's
    /// orientation (a square one counts as landscape).
    public init(viewport: Size, columns: (portrait: Int, landscape: Int), gap: Double) {
        let c = max(1, viewport.height > viewport.width ? columns.portrait : columns.landscape)
        count = c
        self.gap = max(0, gap)
        width = max(1, ((viewport.width - Double(c + 1) * self.gap) / Double(c)).rounded(.down))
        left = max(0, ((viewport.width - Double(c) * width - Double(c + 1) * self.gap) / 2).rounded(.down))
    }

    /// The left edge of column `c`.
    public func minX(of c: Int) -> Double { left + gap + Double(c) * (width + gap) }

    /// The column whose tiles span `x`; nil in a gutter or a margin.
    public func column(at x: Double) -> Int? {
        let offset = x - left - gap
        guard offset >= 0 else { return nil }
        let c = Int((offset / (width + gap)).rounded(.down))
        guard c < count, offset - Double(c) * (width + gap) < width else { return nil }
        return c
    }
}
