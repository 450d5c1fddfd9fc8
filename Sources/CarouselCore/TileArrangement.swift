/// How a wall places its tiles: the registry of tile layouts, by the names `--view` gives them.
public enum TileArrangement: String, CaseIterable, Hashable, Sendable {
    /// Seed 003's waterfall: columns of tiles as tall as their pictures (`MosaicLayout`).
    case mosaic
    /// A phone gallery's grid of squares (`GridLayout`).
    case grid

    public func layout(viewport: Size, columns: (portrait: Int, landscape: Int), gap: Double) -> any TileLayout {
        switch self {
        case .mosaic: MosaicLayout(viewport: viewport, columns: columns, gap: gap)
        case .grid: GridLayout(viewport: viewport, columns: columns, gap: gap)
        }
    }
}
