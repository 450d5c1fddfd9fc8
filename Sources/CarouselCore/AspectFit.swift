/// Aspect-fitting: the largest rectangle with an image's proportions that fits a box,
/// centred in it. Small images are scaled up too, so every item fills its box the same way.
public enum AspectFit {
    /// The fitted size of `image` in `box`, in whole pixels (at least 1 on each side).
    public static func size(of image: Size, in box: Size) -> Size {
        guard !image.isEmpty, !box.isEmpty else { return Size(width: 0, height: 0) }
        let scale = min(box.width / image.width, box.height / image.height)
        return Size(width: max(1, (image.width * scale).rounded()),
                    height: max(1, (image.height * scale).rounded()))
    }

    /// The middle part of `image` (fractions 0–1 of it) that covers `box` when scaled to
    /// fill it: the crop of a tile, the pager, a backdrop.
    public static func coverPart(of image: Size, in box: Size) -> Rect {
        guard !image.isEmpty, !box.isEmpty else { return Rect(x: 0, y: 0, width: 1, height: 1) }
        let scale = max(box.width / image.width, box.height / image.height)
        let w = min(1, box.width / scale / image.width), h = min(1, box.height / scale / image.height)
        return Rect(x: (1 - w) / 2, y: (1 - h) / 2, width: w, height: h)
    }

    /// The fitted rectangle of `image` centred in `box`.
    public static func rect(of image: Size, in box: Rect) -> Rect {
        let s = size(of: image, in: box.size)
        return Rect(x: box.minX + ((box.size.width - s.width) / 2).rounded(.down),
                    y: box.minY + ((box.size.height - s.height) / 2).rounded(.down),
                    width: s.width, height: s.height)
    }
}
