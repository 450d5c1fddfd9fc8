import CarouselCore
import CarouselSDL

/// What is drawn over the strip: the centred item's caption and the page dots.
public struct Overlay: Sendable {
    /// Lines of the caption, title first; empty for none.
    public var lines: [String]
    /// 0...1: fades while the strip moves (`CaptionFade`).
    public var opacity: Double
    public var dots: [PageDots.Dot]

    public init(lines: [String], opacity: Double, dots: [PageDots.Dot]) {
        self.lines = lines
        self.opacity = opacity
        self.dots = dots
    }
}
