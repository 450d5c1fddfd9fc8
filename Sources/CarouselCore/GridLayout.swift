/// A phone gallery's grid: square tiles in rows of equal columns, item after item, left to
/// right and top to bottom, whatever the pictures' shapes (each is cropped to its square).
///
/// Columns as `TileColumns` gives them (width s, gap g): item i in row ⌊i / C⌋ and column
/// i mod C, an s × s square at that column's left edge and y = g + r·(s + g).
public struct GridLayout: ColumnTiles {
    public let viewport: Size
    public let grid: TileColumns
    public private(set) var frames: [Rect] = []

    public init(viewport: Size, columns: (portrait: Int, landscape: Int), gap: Double) {
        self.viewport = viewport
        grid = TileColumns(viewport: viewport, columns: columns, gap: gap)
    }

    private var pitch: Double { columnWidth + gap }
    private var rows: Int { (frames.count + columns - 1) / columns }

    public var tileBounds: Rect {
        Rect(x: 0, y: 0, width: viewport.width, height: gap + Double(rows) * pitch)
    }

    /// The last row may be short: only full rows are whole.
    public var wholeDownTo: Double { gap + Double(frames.count / columns) * pitch }

    /// Fitted into one and a half tiles each way: a 3:2 or 2:3 photo covers its square
    /// without being scaled up (wider ones a little, up to 2× for a 3:1 panorama).
    public var pictureBox: Size { Size(width: (columnWidth * 1.5).rounded(), height: (columnWidth * 1.5).rounded()) }

    /// The shape does not matter: every tile is the same square.
    public mutating func append(aspect: Double?) {
        let i = frames.count, row = i / columns, column = i % columns
        frames.append(Rect(x: grid.minX(of: column), y: gap + Double(row) * pitch,
                           width: columnWidth, height: columnWidth))
    }

    /// The rows that `rect` crosses, all their tiles (a row spans the width).
    public func items(in rect: Rect) -> [Int] {
        guard !frames.isEmpty, rect.maxY > gap else { return [] }
        let first = max(0, Int(((rect.minY - gap) / pitch).rounded(.down)))
        let last = Int(((rect.maxY - gap) / pitch).rounded(.up)) - 1
        let from = first * columns, to = min(frames.count, (last + 1) * columns)
        guard from < to else { return [] }
        return (from..<to).filter { frames[$0].maxY > rect.minY }
    }

    public func item(at point: Point) -> Int? {
        let y = point.y - gap
        guard let column = grid.column(at: point.x), y >= 0 else { return nil }
        let row = Int((y / pitch).rounded(.down))
        guard y - Double(row) * pitch < columnWidth else { return nil }
        let i = row * columns + column
        return i < frames.count ? i : nil
    }
}
