/// A phone gallery's grid: square tiles in rows of equal columns, item after item, left to
/// right and top to bottom, whatever the pictures' shapes (each is cropped to its square).
///
/// With viewport width W, C columns and gap g: tile side s = ⌊(W − (C + 1)·g) / C⌋, the
/// pixels left over split evenly left and right (as `MosaicLayout`'s columns), item i in row
/// ⌊i / C⌋ and column i mod C, at x = ⌊leftover / 2⌋ + g + c·(s + g), y = g + r·(s + g).
public struct GridLayout: TileLayout {
    public let viewport: Size
    public let columns: Int
    public let gap: Double
    public let columnWidth: Double
    /// The left edge of column 0.
    public let left: Double
    public private(set) var frames: [Rect] = []

    public init(viewport: Size, columns: (portrait: Int, landscape: Int), gap: Double) {
        self.viewport = viewport
        let c = max(1, viewport.height > viewport.width ? columns.portrait : columns.landscape)
        self.columns = c
        self.gap = max(0, gap)
        let side = max(1, ((viewport.width - Double(c + 1) * self.gap) / Double(c)).rounded(.down))
        self.columnWidth = side
        self.left = max(0, ((viewport.width - Double(c) * side - Double(c + 1) * self.gap) / 2).rounded(.down))
    }

    private var pitch: Double { columnWidth + gap }
    private var rows: Int { (frames.count + columns - 1) / columns }

    public var contentBounds: Rect {
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
        frames.append(Rect(x: left + gap + Double(column) * pitch, y: gap + Double(row) * pitch,
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
        let x = point.x - left - gap, y = point.y - gap
        guard x >= 0, y >= 0 else { return nil }
        let column = Int((x / pitch).rounded(.down)), row = Int((y / pitch).rounded(.down))
        guard column < columns, x - Double(column) * pitch < columnWidth, y - Double(row) * pitch < columnWidth else { return nil }
        let i = row * columns + column
        return i < frames.count ? i : nil
    }
}
