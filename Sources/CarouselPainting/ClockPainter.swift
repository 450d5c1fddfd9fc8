import CarouselCore
import CarouselSDL

/// Draws `--clock`'s text in its corner, on a scrim so it reads over any picture, over
/// whatever view is on the screen. Its text is made once a change (a minute, or a second).
public final class ClockPainter {
    public let face: ClockFace
    private let font: TextRenderer
    private let cache = TextCache()
    private let colour: Color
    private let scrim: Color

    public init(face: ClockFace, font: TextRenderer, colour: Color = .white, scrim: Color = Color(r: 0, g: 0, b: 0, a: 150)) {
        self.face = face
        self.font = font
        self.colour = colour
        self.scrim = scrim
    }

    /// Forgets the text's texture, for a lost rendering device.
    public func forgetTextures() { cache.removeAll() }

    /// `text` in the face's corner of a `viewport` (the logical screen).
    public func draw(_ text: String, viewport: Size, on renderer: SDLRenderer) {
        guard !text.isEmpty,
              let t = cache.texture(text, color: colour, maxWidth: Int(viewport.width * 0.9), font: font, renderer: renderer) else { return }
        let pad = max(4, (Double(t.height) / 5).rounded())
        let margin = max(8, (viewport.height / 40).rounded())
        let box = face.rect(for: Size(width: Double(t.width) + 2 * pad, height: Double(t.height)), in: viewport, margin: margin)
        renderer.fillRounded(box, radius: pad, scrim)
        renderer.draw(t, source: (t.width, t.height),
                      in: Rect(x: box.minX + pad, y: box.minY, width: Double(t.width), height: Double(t.height)))
    }
}
