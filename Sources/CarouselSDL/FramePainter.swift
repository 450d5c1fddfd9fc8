import CarouselCore

/// Draws one frame of the carousel: background, then each visible item's framed image, or
/// its placeholder tile with the file's name while it loads or when it failed.
public struct FramePainter {
    public var style: CarouselStyle
    public var text: TextRenderer?

    public init(style: CarouselStyle, text: TextRenderer?) {
        self.style = style
        self.text = text
    }

    public func draw(_ items: [VisibleItem], slots: SlotTextures, on renderer: SDLRenderer) {
        renderer.clear(style.background)
        for item in items {
            let box = style.imageBox(for: item.frame)
            let border = style.borderWidth(for: item.frame.size)
            if let card = style.card { renderer.fill(item.frame, card) }
            switch slots.contents[item.slot] {
            case .loaded(_, let w, let h):
                let r = AspectFit.rect(of: Size(width: Double(w), height: Double(h)), in: box)
                if border > 0 {
                    renderer.fill(Rect(x: r.minX - border, y: r.minY - border,
                                       width: r.size.width + 2 * border, height: r.size.height + 2 * border),
                                  style.borderColor)
                }
                renderer.draw(slots.texture(item.slot), source: (w, h), in: r)
            case .loading, .failed, .empty:
                let failed: Bool
                if case .failed = slots.contents[item.slot] { failed = true } else { failed = false }
                renderer.fill(box, failed ? style.failedPlaceholder : style.placeholder)
                let margin = max(4, box.size.width / 16)
                if let label = slots.label(item.slot, text: text, color: style.label,
                                           maxWidth: Int(box.size.width - 2 * margin)) {
                    let r = Rect(x: (box.midX - Double(label.width) / 2).rounded(.down),
                                 y: (box.midY - Double(label.height) / 2).rounded(.down),
                                 width: Double(label.width), height: Double(label.height))
                    renderer.draw(label, source: (label.width, label.height), in: r)
                }
            }
        }
    }

    /// A message centred on the background, for the empty state (seed 003).
    public func drawMessage(_ message: String, viewport: Size, on renderer: SDLRenderer) {
        renderer.clear(style.background)
        guard let t = text?.texture(message, color: style.label, maxWidth: Int(viewport.width * 0.9),
                                    renderer: renderer) else { return }
        let r = Rect(x: ((viewport.width - Double(t.width)) / 2).rounded(.down),
                     y: ((viewport.height - Double(t.height)) / 2).rounded(.down),
                     width: Double(t.width), height: Double(t.height))
        renderer.draw(t, source: (t.width, t.height), in: r)
    }
}
