/// A part of a zoomed picture to decode again at the resolution the zoom shows it at: the
/// sharp detail over the fitted picture scaled up. What `ZoomPan.wantedRegion` asks for,
/// and what a decoded detail holds.
public struct ZoomRegion: Hashable, Sendable {
    public var item: Int
    /// The part, in fractions 0–1 of the upright picture.
    public var part: Rect
    /// Pixels to decode it to (fitted: the aspect is the part's).
    public var size: Size

    public init(item: Int, part: Rect, size: Size) {
        self.item = item
        self.part = part
        self.size = size
    }

    /// Pixels across the whole picture's width at this resolution.
    public var density: Double { part.size.width > 0 ? size.width / part.size.width : 0 }

    /// The area a region may have against the screen's: the part on screen and a margin
    /// around it, so that a short pan stays sharp, in at most twice the screen's pixels.
    public static let areaAgainstScreen = 2.0

    /// Whether this region, decoded, serves `wanted`: the same picture, the whole part on
    /// screen inside it, at nine tenths of the wanted sharpness or better.
    public func serves(_ wanted: ZoomRegion, visible: Rect) -> Bool {
        let e = 1e-6
        return item == wanted.item && density >= 0.9 * wanted.density
            && part.minX <= visible.minX + e && part.minY <= visible.minY + e
            && part.maxX >= visible.maxX - e && part.maxY >= visible.maxY - e
    }
}

extension ZoomPan {
    /// The part of the picture on the screen now, in fractions of it; nil when nothing is zoomed.
    public var visiblePart: Rect? {
        guard target != nil, frame.size.width > 0, frame.size.height > 0 else { return nil }
        let x0 = max(frame.minX, 0), y0 = max(frame.minY, 0)
        let x1 = min(frame.maxX, viewport.width), y1 = min(frame.maxY, viewport.height)
        guard x1 > x0, y1 > y0 else { return nil }
        return Rect(x: (x0 - frame.minX) / frame.size.width, y: (y0 - frame.minY) / frame.size.height,
                    width: (x1 - x0) / frame.size.width, height: (y1 - y0) / frame.size.height)
    }

    /// The sharp detail the picture needs now: the part on screen grown about its centre to
    /// `ZoomRegion.areaAgainstScreen` times its area (within the picture), at the screen's
    /// resolution but never past the picture's own pixels. Nil below 1.05× or while fingers
    /// hold it or it moves: a detail is decoded for where the picture rests.
    public var wantedRegion: ZoomRegion? {
        guard let t = target, !isHeld, !isAnimating, scale > 1.05, let visible = visiblePart else { return nil }
        let grow = ZoomRegion.areaAgainstScreen.squareRoot()
        let w = min(1, visible.size.width * grow), h = min(1, visible.size.height * grow)
        let x = min(max(visible.midX - w / 2, 0), 1 - w), y = min(max(visible.midY - h / 2, 0), 1 - h)
        let part = Rect(x: x, y: y, width: w, height: h)
        // Screen pixels the part covers, and the picture's own pixels in it.
        let onScreen = Size(width: w * frame.size.width, height: h * frame.size.height)
        let own = Size(width: w * t.content.size.width * t.maxScale, height: h * t.content.size.height * t.maxScale)
        let size = Size(width: min(onScreen.width, own.width).rounded(), height: min(onScreen.height, own.height).rounded())
        return ZoomRegion(item: t.item, part: part, size: size)
    }
}
