/// `--span COLSxROWS:C,R` and `--bezel PX[,PX]`: this screen is one panel of a wall of
/// COLS × ROWS panels, the one in column C and row R (from 0, left to right and top to
/// bottom), and the views are laid out on one canvas as large as the wall, the panels'
/// bezels included, so that a line crossing from one panel to the next goes on straight:
/// what falls behind a bezel is not shown, as on a window's frame. Each panel draws its part.
public struct WallSpan: Hashable, Sendable {
    public var columns: Int
    public var rows: Int
    public var column: Int
    public var row: Int
    /// Pixels hidden between two panels side by side, and between two above each other
    /// (both bezels, at this panel's pixel size).
    public var bezel: (x: Double, y: Double)

    public init(columns: Int, rows: Int, column: Int, row: Int, bezel: (x: Double, y: Double) = (0, 0)) {
        self.columns = columns
        self.rows = rows
        self.column = column
        self.row = row
        self.bezel = bezel
    }

    public static func == (a: WallSpan, b: WallSpan) -> Bool {
        a.columns == b.columns && a.rows == b.rows && a.column == b.column && a.row == b.row && a.bezel == b.bezel
    }

    public func hash(into h: inout Hasher) {
        h.combine(columns); h.combine(rows); h.combine(column); h.combine(row); h.combine(bezel.x); h.combine(bezel.y)
    }

    /// `COLSxROWS:C,R`, e.g. `2x2:1,0`; nil for anything else (1 to 16 panels a side, the
    /// panel on the wall).
    public init?(parsing text: String) {
        let halves = text.split(separator: ":", omittingEmptySubsequences: false)
        guard halves.count == 2 else { return nil }
        let size = halves[0].lowercased().split(separator: "x", omittingEmptySubsequences: false).map { Int($0) }
        let place = halves[1].split(separator: ",", omittingEmptySubsequences: false).map { Int($0) }
        guard size.count == 2, place.count == 2, let c = size[0], let r = size[1], let x = place[0], let y = place[1],
              (1...16).contains(c), (1...16).contains(r), (0..<c).contains(x), (0..<r).contains(y) else { return nil }
        self.init(columns: c, rows: r, column: x, row: y)
    }

    /// `PX` or `PX,PX` (0 to 1000 each); nil for anything else.
    public static func bezel(parsing text: String) -> (x: Double, y: Double)? {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { Double(String($0.filter { $0 != " " })) }
        guard (1...2).contains(parts.count), parts.allSatisfy({ $0.map { $0 >= 0 && $0 <= 1000 } ?? false }) else { return nil }
        return (parts[0]!, parts.count == 2 ? parts[1]! : parts[0]!)
    }

    /// The canvas of the whole wall for panels of `panel` size.
    public func canvas(panel: Size) -> Size {
        Size(width: Double(columns) * panel.width + Double(columns - 1) * bezel.x,
             height: Double(rows) * panel.height + Double(rows - 1) * bezel.y)
    }

    /// Where this panel's top-left corner lies on the canvas.
    public func origin(panel: Size) -> Point {
        Point(x: Double(column) * (panel.width + bezel.x), y: Double(row) * (panel.height + bezel.y))
    }

    public var description: String { "\(columns)x\(rows):\(column),\(row)" }
}
