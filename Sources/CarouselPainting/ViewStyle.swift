import CarouselCore
import CarouselSDL

/// How items look: background, the white border of seed 000, placeholder colours.
public struct ViewStyle: Hashable, Sendable {
    public var background = Color(r: 0x14, g: 0x14, b: 0x14)
    /// Border width in pixels; nil means seed 000's box width / 20; 0 draws none.
    public var border: Double? = nil
    public var borderColor = Color.white
    /// The tile shown while an image loads.
    public var placeholder = Color(r: 0x3a, g: 0x3a, b: 0x3a)
    /// The tile shown for an image that cannot be shown.
    public var failedPlaceholder = Color(r: 0x4a, g: 0x30, b: 0x30)
    public var label = Color(r: 0xd8, g: 0xd8, b: 0xd8)
    /// When set, each whole item box is filled with this colour under its image: the page
    /// of the `preview` layout, so the slim previews show whatever the image's shape.
    public var card: Color? = nil
    /// Each picture covers its whole box, cropped about its centre, instead of being fitted
    /// inside it: the mosaic's tiles (a panorama shows its middle), framed by the border.
    public var fillsBox = false
    /// What fills the box around a picture that does not fill it.
    public var fill = FillKind.none
    /// Corners of pictures, borders and placeholders rounded by this many pixels (0: square).
    public var cornerRadius = 0.0
    /// Seed 001's drop shadow: soft dark bands at the top (20 px) and bottom (10 px) of the
    /// screen behind the strip, and under each of the wall's tiles.
    public var shadow = false
    /// Which caption the centred item shows.
    public var captions = CaptionMode.none
    /// `--caption-format`: the caption made from the item's facts (instead of `captions`).
    public var captionTemplate: CaptionTemplate?
    /// Page dots under the strip.
    public var dots = false
    /// Items beside the centre smaller and darker; by default drawn like the centre.
    public var neighbours = NeighbourEmphasis()
    /// Behind caption text, so it reads over any picture.
    public var scrim = Color(r: 0, g: 0, b: 0, a: 150)
    public var captionColor = Color.white
    /// A caption's second line (the manifest's `caption`).
    public var captionDetailColor = Color(r: 0xd0, g: 0xd0, b: 0xd0)
    public var dot = Color(r: 0x80, g: 0x80, b: 0x80)
    public var currentDot = Color.white

    public init() {}

    /// The border width for an item box, whole pixels, never more than a quarter of the box.
    public func borderWidth(for box: Size) -> Double {
        let b = border ?? (box.width / 20).rounded()
        return max(0, min(b.rounded(), (min(box.width, box.height) / 4).rounded(.down)))
    }

    /// The area an image is fitted into: the box less the border on every side, so the
    /// framed picture never leaves its box.
    public func imageBox(for box: Rect) -> Rect {
        let b = borderWidth(for: box.size)
        return Rect(x: box.minX + b, y: box.minY + b,
                    width: max(1, box.size.width - 2 * b), height: max(1, box.size.height - 2 * b))
    }
}

/// What the caption under the centred item says.
public enum CaptionMode: String, CaseIterable, Hashable, Sendable {
    case none
    /// The manifest's title, else the file name without its extension.
    case title
    /// The title and, on a second line, the manifest's caption.
    case full
}

/// What fills the box around a picture (`--fill`).
public enum FillKind: String, CaseIterable, Sendable {
    case none
    /// The picture's average colour, darkened.
    case color
    /// A blurred, darkened copy of the picture scaled to cover the box.
    case blur
}
