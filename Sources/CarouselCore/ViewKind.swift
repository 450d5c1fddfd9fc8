/// The views, each by the one name it has everywhere: `--view`, the config file, the control
/// API's `view` command and `/status`, MQTT's topics, Home Assistant's select and the event
/// log. `mosaic` and `grid` are walls of tiles (`Wall`) that open the carousel on a tap.
public enum ViewKind: String, CaseIterable, Hashable, Sendable {
    /// The strip with one picture in the centre.
    case carousel
    /// Seed 003's waterfall: columns of tiles as tall as their pictures (`MosaicLayout`).
    case mosaic
    /// A phone gallery's grid of squares (`GridLayout`).
    case grid

    /// Makes a wall's tile layout for a viewport, columns (portrait, landscape) and gap.
    public typealias TileLayoutMaker = @Sendable (_ viewport: Size, _ columns: (portrait: Int, landscape: Int), _ gap: Double) -> any TileLayout

    /// The walls' layouts: a new wall of tiles is a layout and a line here.
    static let tileLayouts: [ViewKind: TileLayoutMaker] = [
        .mosaic: { MosaicLayout(viewport: $0, columns: $1, gap: $2) },
        .grid: { GridLayout(viewport: $0, columns: $1, gap: $2) },
    ]

    /// A wall of tiles that opens the carousel on a tap.
    public var isTiled: Bool { Self.tileLayouts[self] != nil }

    /// The view a wall opens on a tap (and Enter, and the control API's `view carousel`).
    public var opensFromWall: Bool { self == .carousel }

    /// One item in the centre, in focus: a group steps it, a clip in focus plays and seeks,
    /// and Motion Photos move.
    public var hasCentredItem: Bool { self == .carousel }

    /// This wall's layout; a carousel asked for one gets the grid's (never asked: the
    /// wall's settings hold a tiled kind).
    public func tileLayout(viewport: Size, columns: (portrait: Int, landscape: Int), gap: Double) -> any TileLayout {
        (Self.tileLayouts[self] ?? Self.tileLayouts[.grid]!)(viewport, columns, gap)
    }
}
