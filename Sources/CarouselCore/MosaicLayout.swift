/// Seed 003's waterfall, made stable: tiles in columns of equal width, each item placed in
/// item order into the column whose bottom is highest (the leftmost on a tie), so a tile
/// never moves once placed, whatever arrives later. Positions are pixels scrolled from the
/// top of the wall; the layout grows as items' aspect ratios become known, in item order.
///
/// Columns as `TileColumns` gives them (width cw, gap g); a tile is round(cw · h / w) high, h / w clamped to
/// [1/3, 3] (a panorama is cropped to its tile); each column's first tile starts at y = g,
/// the next g below the one above.
public struct MosaicLayout: ColumnTiles {
    public let viewport: Size
    public let grid: TileColumns
    /// Each placed item's box on the wall (y from the wall's top) and its column.
    public private(set) var frames: [Rect] = []
    public private(set) var columnOf: [Int] = []
    /// The items of each column, top to bottom: sorted by y and never overlapping, so a
    /// binary search finds what a stretch of the wall shows.
    private var itemsInColumn: [[Int]]
    /// Where the next tile of each column starts.
    private var nextTop: [Double]

    public static let minimumAspect = 1.0 / 3
    public static let maximumAspect = 3.0

    /// - Parameters:
    ///   - columns: for portrait and for landscape viewports (seed 003: 3 and 5), chosen by
    ///     the viewport's orientation; a square one counts as landscape.
    public init(viewport: Size, columns: (portrait: Int, landscape: Int) = (3, 5), gap: Double = 10) {
        self.viewport = viewport
        grid = TileColumns(viewport: viewport, columns: columns, gap: gap)
        itemsInColumn = Array(repeating: [], count: grid.count)
        nextTop = Array(repeating: grid.gap, count: grid.count)
    }

    public var tileBounds: Rect {
        Rect(x: 0, y: 0, width: viewport.width, height: nextTop.max() ?? gap)
    }

    /// How far down every column reaches: the wall is whole above this line.
    public var wholeDownTo: Double { nextTop.min() ?? gap }

    /// The tile height for an item of `aspect` = height / width (nil: unknown, a square).
    public func tileHeight(aspect: Double?) -> Double {
        let a = aspect.flatMap { $0.isFinite && $0 > 0 ? $0 : nil } ?? 1
        return (columnWidth * min(max(a, Self.minimumAspect), Self.maximumAspect)).rounded()
    }

    /// Pictures are fitted into the column's width and one and a half times its height: a
    /// 2:3 portrait fills its tile, a taller picture is shown narrower inside it.
    public var pictureBox: Size { Size(width: columnWidth, height: (columnWidth * 1.5).rounded()) }

    /// Places the next item (index `count`): aspect = its height / width, nil when its
    /// header could not be read (a square tile that shows the failure placeholder).
    public mutating func append(aspect: Double?) {
        var column = 0
        for c in 1..<columns where nextTop[c] < nextTop[column] { column = c }
        let height = tileHeight(aspect: aspect)
        let frame = Rect(x: grid.minX(of: column), y: nextTop[column],
                         width: columnWidth, height: height)
        itemsInColumn[column].append(frames.count)
        frames.append(frame)
        columnOf.append(column)
        nextTop[column] = frame.maxY + gap
    }

    /// Items whose tiles overlap `rect` (its height; the columns span the width), in item
    /// order: a binary search per column.
    public func items(in rect: Rect) -> [Int] {
        let top = rect.minY, bottom = rect.maxY
        var found: [Int] = []
        for list in itemsInColumn {
            // The first tile whose bottom is below `top`.
            var lo = 0, hi = list.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if frames[list[mid]].maxY <= top { lo = mid + 1 } else { hi = mid }
            }
            var i = lo
            while i < list.count, frames[list[i]].minY < bottom {
                found.append(list[i])
                i += 1
            }
        }
        return found.sorted()
    }

    /// The item whose tile contains the wall point; nil in a gutter or below the wall.
    public func item(at point: Point) -> Int? {
        let y = point.y
        guard let c = grid.column(at: point.x) else { return nil }
        let list = itemsInColumn[c]
        var lo = 0, hi = list.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if frames[list[mid]].maxY <= y { lo = mid + 1 } else { hi = mid }
        }
        guard lo < list.count, frames[list[lo]].minY <= y else { return nil }
        return list[lo]
    }
}
