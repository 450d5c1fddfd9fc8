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

    /// The fitted rectangle of `image` centred in `box`.
    public static func rect(of image: Size, in box: Rect) -> Rect {
        let s = size(of: image, in: box.size)
        return Rect(x: box.minX + ((box.size.width - s.width) / 2).rounded(.down),
                    y: box.minY + ((box.size.height - s.height) / 2).rounded(.down),
                    width: s.width, height: s.height)
    }
}
