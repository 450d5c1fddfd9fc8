/// Where the two pictures of a pair (`PortraitPairs`) go in the one picture made of them:
/// portraits side by side at one height, landscapes one above the other at one width, a gap
/// of 2 % of that height (or width) between them, the whole fitted into the box. Its
/// proportions never depend on the box, so a zoom's part of it (fractions, as every part,
/// of the picture fitted into the slot) is the same part of the two pictures in a detail
/// decoded into another box.
public struct PairGeometry: Sendable, Equatable {
    /// The picture made of the two, in pixels.
    public let size: Size
    /// Each picture's place in it, in pixels (whole).
    public let places: [Rect]
    /// One above the other (two landscape pictures), else side by side.
    public let stacked: Bool
    /// The same at one height (side by side) or one width (stacked): exact, for parts.
    private let unit: (size: Size, places: [Rect])

    /// The gap between the two pictures, as a share of their common height (or width).
    public static let gap = 0.02

    /// `aspects`: the two pictures' height / width, upright.
    public init?(box: Size, aspects: [Double]) {
        guard aspects.count == 2, aspects.allSatisfy({ $0.isFinite && $0 > 0 }), !box.isEmpty else { return nil }
        stacked = aspects.allSatisfy { $0 < 1 }
        let g = Self.gap
        if stacked {
            unit = (Size(width: 1, height: aspects[0] + g + aspects[1]),
                    [Rect(x: 0, y: 0, width: 1, height: aspects[0]), Rect(x: 0, y: aspects[0] + g, width: 1, height: aspects[1])])
        } else {
            let (w0, w1) = (1 / aspects[0], 1 / aspects[1])
            unit = (Size(width: w0 + g + w1, height: 1),
                    [Rect(x: 0, y: 0, width: w0, height: 1), Rect(x: w0 + g, y: 0, width: w1, height: 1)])
        }
        let scale = min(box.width / unit.size.width, box.height / unit.size.height)
        size = Size(width: max(1, (unit.size.width * scale).rounded()), height: max(1, (unit.size.height * scale).rounded()))
        places = unit.places.map { r in
            let x0 = (r.minX * scale).rounded(), y0 = (r.minY * scale).rounded()
            return Rect(x: x0, y: y0, width: max(1, (r.maxX * scale).rounded() - x0), height: max(1, (r.maxY * scale).rounded() - y0))
        }
    }

    /// Its exact proportions: width and height at one height (or width) of the pictures.
    public var proportions: Size { unit.size }

    public static func == (a: PairGeometry, b: PairGeometry) -> Bool {
        a.size == b.size && a.places == b.places && a.stacked == b.stacked
    }

    /// What of each picture `part` (fractions of the picture made) shows: for each picture
    /// it reaches, its own part (fractions of it) and where that goes in the part (fractions
    /// of the part).
    public func pieces(of part: Rect) -> [(picture: Int, own: Rect, at: Rect)] {
        let whole = Rect(x: part.minX * unit.size.width, y: part.minY * unit.size.height,
                         width: part.size.width * unit.size.width, height: part.size.height * unit.size.height)
        guard whole.size.width > 0, whole.size.height > 0 else { return [] }
        return unit.places.indices.compactMap { i in
            let place = unit.places[i]
            let shared = whole.intersection(place)
            // Less than a thousandth of the part: a sliver of rounding, not a piece.
            guard shared.size.width > whole.size.width / 1000, shared.size.height > whole.size.height / 1000 else { return nil }
            let own = Rect(x: (shared.minX - place.minX) / place.size.width, y: (shared.minY - place.minY) / place.size.height,
                           width: shared.size.width / place.size.width, height: shared.size.height / place.size.height)
            let at = Rect(x: (shared.minX - whole.minX) / whole.size.width, y: (shared.minY - whole.minY) / whole.size.height,
                          width: shared.size.width / whole.size.width, height: shared.size.height / whole.size.height)
            return (i, own, at)
        }
    }
}
