import CarouselCore
import CarouselSDL

/// Draws one frame of the carousel: background, then each visible item's framed image, or
/// its placeholder tile with the file's name while it loads or when it failed.
public struct FramePainter {
    public var style: ViewStyle
    public var text: TextRenderer?
    /// Drawn behind everything, scaled to cover the screen and cropped about its centre.
    public var backdrop: SDLTexture?
    private let captions = TextCache()
    /// A crossfade's still part, in software.
    let still = StillFrame()

    public init(style: ViewStyle, text: TextRenderer?) {
        self.style = style
        self.text = text
    }

    /// Forgets the caption textures, for a lost rendering device: they are made again when drawn.
    public func forgetTextures() {
        captions.removeAll()
        still.forget()
    }

    /// Draws the visible items (neighbours shrunk and dimmed by their distance from the
    /// focus, as their layout measures it), then the overlay.
    /// `detail`: a zoomed picture's sharp part, drawn over it where it goes.
    /// `fadeIn`: an item crossfading in over the others at this opacity (0–1).
    /// `videos`: playing clips' frames, each drawn over its item's poster (the carousel's
    /// centred clip; animations in the wall's tiles).
    public func draw(_ items: [VisibleItem], slots: SlotTextures, viewport: Size,
                     fadeIn: (item: VisibleItem, opacity: Double)? = nil,
                     detail: (picture: BandedPicture, rect: Rect)? = nil, videos: [VideoDrawing] = [],
                     overlay: Overlay? = nil, on renderer: SDLRenderer) {
        let hidden = Set(videos.compactMap(\.replacedPicture))
        // A zoomed picture (drawn last) may cover the screen: what it hides is not drawn,
        // nor the picture itself where its sharp detail covers all of it that shows.
        let screen = Rect(x: 0, y: 0, width: viewport.width, height: viewport.height)
        let top = items.last.flatMap { last in pictureRect(last, slots: slots).map { (last, $0) } }
        let hidesAll = fadeIn == nil && top.map { slots.isOpaque($0.0.slot) && $0.1.covers(screen) } == true
        let detailCovers = detail.map { d in top.map { d.rect.covers($0.1.intersection(screen)) } == true } == true
        if hidesAll, let (last, _) = top {
            if !detailCovers { drawItem(last, slots: slots, around: detail, within: screen, hiding: hidden, on: renderer) }
            for video in videos { draw(video, over: items, slots: slots, on: renderer) }
            if let detail, videos.isEmpty { drawDetail(detail, on: renderer) }
            if let overlay { draw(overlay, viewport: viewport, on: renderer) }
            return
        }
        if let fadeIn, renderer.isSoftware {
            // In software the still part of a crossfade is drawn once, then copied.
            let key = StillFrame.Key(items: items, contents: items.map { slots.content($0.slot) },
                                     versions: items.map { slots.version($0.slot) },
                                     width: Int(viewport.width), height: Int(viewport.height))
            still.draw(key, on: renderer) { drawStill(items, slots: slots, viewport: viewport, detail: detail, on: renderer) }
            drawItem(fadeIn.item, slots: slots, opacity: fadeIn.opacity, on: renderer)
            if let overlay { draw(overlay, viewport: viewport, on: renderer) }
            return
        }
        drawStill(items, slots: slots, viewport: viewport, detail: detail, hiding: hidden, on: renderer)
        for video in videos { draw(video, over: items, slots: slots, on: renderer) }
        if let fadeIn { drawItem(fadeIn.item, slots: slots, opacity: fadeIn.opacity, on: renderer) }
        if let detail, videos.isEmpty { drawDetail(detail, on: renderer) }
        if let overlay { draw(overlay, viewport: viewport, on: renderer) }
    }

    /// The background and the items, the last around a zoom's detail if there is one.
    /// `hiding`: the items whose pictures are not drawn (animations are drawn in their place).
    private func drawStill(_ items: [VisibleItem], slots: SlotTextures, viewport: Size,
                           detail: (picture: BandedPicture, rect: Rect)?, hiding: Set<Int> = [], on renderer: SDLRenderer) {
        let screen = Rect(x: 0, y: 0, width: viewport.width, height: viewport.height)
        clear(viewport, on: renderer)
        if style.shadow && !style.fillsBox {
            // Seed 001: 20 px at half opacity fading down from the top, 10 px at a quarter
            // fading up from the bottom.
            renderer.fillGradient(Rect(x: 0, y: 0, width: viewport.width, height: 20),
                                  top: Color(r: 0, g: 0, b: 0, a: 128), bottom: Color(r: 0, g: 0, b: 0, a: 0))
            renderer.fillGradient(Rect(x: 0, y: viewport.height - 10, width: viewport.width, height: 10),
                                  top: Color(r: 0, g: 0, b: 0, a: 0), bottom: Color(r: 0, g: 0, b: 0, a: 64))
        }
        for item in items.dropLast() { drawItem(item, slots: slots, picture: !hiding.contains(item.item), on: renderer) }
        if let last = items.last { drawItem(last, slots: slots, around: detail, within: screen, hiding: hiding, on: renderer) }
    }

    /// A zoomed picture's sharp detail: decoded at the size it shows, so drawn pixel for
    /// pixel (within a pixel and a half it is not scaled: scaling by one row repeats one).
    private func drawDetail(_ detail: (picture: BandedPicture, rect: Rect), on renderer: SDLRenderer) {
        renderer.draw(detail.picture, in: place(of: detail))
    }

    /// Where a detail is drawn: its rectangle, or its own size at whole pixels when that is
    /// within a pixel and a half of it.
    private func place(of detail: (picture: BandedPicture, rect: Rect)) -> Rect {
        let (w, h) = (Double(detail.picture.width), Double(detail.picture.height))
        let rect = detail.rect
        guard abs(rect.size.width - w) < 1.5 && abs(rect.size.height - h) < 1.5 else { return rect }
        return Rect(x: rect.minX.rounded(), y: rect.minY.rounded(), width: w, height: h)
    }

    /// The zoomed item, only where its detail will not cover it (on the screen, around the
    /// detail's place, which is drawn a pixel into so no seam shows): a picture scaled up
    /// is the dearest drawing of a frame in software.
    private func drawItem(_ item: VisibleItem, slots: SlotTextures, around detail: (picture: BandedPicture, rect: Rect)?,
                          within screen: Rect, hiding: Set<Int> = [], on renderer: SDLRenderer) {
        let picture = !hiding.contains(item.item)
        guard let detail else { return drawItem(item, slots: slots, picture: picture, on: renderer) }
        let p = place(of: detail)
        let hole = Rect(x: p.minX + 1, y: p.minY + 1, width: max(0, p.size.width - 2), height: max(0, p.size.height - 2))
        for area in screen.around(hole) {
            renderer.clipped(to: area) { drawItem(item, slots: slots, picture: picture, on: renderer) }
        }
    }

    /// Where an item's picture is drawn, if it has one.
    /// A clip's poster's mark: a white triangle on a dark disc at its centre, a twelfth of
    /// its shorter side (at least 16 px), so a clip reads as one before it plays.
    private func drawPlayMark(in rect: Rect, alpha: UInt8, on renderer: SDLRenderer) {
        let r = max(16, min(rect.size.width, rect.size.height) / 12)
        let c = Point(x: rect.midX, y: rect.midY)
        renderer.fillCircle(centre: c, radius: r, Color(r: 0, g: 0, b: 0, a: UInt8(Double(alpha) * 0.55)))
        let s = r * 0.5
        renderer.fillTriangle(Point(x: c.x - s * 0.7, y: c.y - s), Point(x: c.x - s * 0.7, y: c.y + s), Point(x: c.x + s, y: c.y),
                              Color(r: 255, g: 255, b: 255, a: alpha))
    }

    /// A playing clip's frame where its item's poster is (turned upright, dimmed as the item
    /// is), fitted in it when its shape is not the poster's (a Motion Photo's clip over a
    /// still of another shape is never stretched); where the poster has not come yet, fitted
    /// in the item's box (the clip plays whether or not its poster was decoded first). In a
    /// tile (a style that fills its box) it covers the tile, cut to it, as the tile's picture.
    private func draw(_ video: VideoDrawing, over items: [VisibleItem], slots: SlotTextures, on renderer: SDLRenderer) {
        guard let item = items.last(where: { $0.item == video.item }), video.width > 0, video.height > 0 else { return }
        let upright = video.quarterTurns % 2 == 1 ? Size(width: Double(video.height), height: Double(video.width))
            : Size(width: Double(video.width), height: Double(video.height))
        let box = style.imageBox(for: style.neighbours.frame(item.frame, distance: item.focusDistance))
        if style.fillsBox {
            guard box.size.width > 0, box.size.height > 0 else { return }
            let scale = max(box.size.width / upright.width, box.size.height / upright.height)
            let rect = Rect(x: box.midX - upright.width * scale / 2, y: box.midY - upright.height * scale / 2,
                            width: upright.width * scale, height: upright.height * scale)
            video.matrix.use()
            renderer.clipped(to: box) {
                renderer.draw(video.texture, source: (video.width, video.height), turned: video.quarterTurns, in: rect, brightness: 1)
            }
            return
        }
        var rect = pictureRect(item, slots: slots) ?? AspectFit.rect(of: upright, in: box)
        guard rect.size.width > 0, rect.size.height > 0 else { return }
        if abs(upright.width / upright.height / (rect.size.width / rect.size.height) - 1) > 0.01 { rect = AspectFit.rect(of: upright, in: rect) }
        video.matrix.use()
        renderer.draw(video.texture, source: (video.width, video.height), turned: video.quarterTurns, in: rect,
                      brightness: 1 - style.neighbours.factors(distance: item.focusDistance).dim)
    }

    private func pictureRect(_ item: VisibleItem, slots: SlotTextures) -> Rect? {
        guard let picture = slots.picture(item.slot) else { return nil }
        let box = style.imageBox(for: style.neighbours.frame(item.frame, distance: item.focusDistance))
        return style.fillsBox ? box : AspectFit.rect(of: Size(width: Double(picture.width), height: Double(picture.height)), in: box)
    }

    /// One item: its card, border and picture (or placeholder), neighbours shrunk and
    /// dimmed by their distance from the focus; `opacity` below 1 for one fading in;
    /// `picture` false: all but the picture (an animation is drawn in its place).
    private func drawItem(_ item: VisibleItem, slots: SlotTextures, opacity: Double = 1, picture: Bool = true, on renderer: SDLRenderer) {
        let radius = style.cornerRadius
        let alpha = UInt8((min(max(opacity, 0), 1) * 255).rounded())
        let distance = item.focusDistance
        let dim = style.neighbours.factors(distance: distance).dim
        let frame = style.neighbours.frame(item.frame, distance: distance)
        let box = style.imageBox(for: frame)
        let border = style.borderWidth(for: frame.size)
        if style.shadow && style.fillsBox {
            // Under each tile: a short band fading down from a quarter's darkness.
            renderer.fillGradient(Rect(x: frame.minX + radius / 2, y: frame.maxY, width: frame.size.width - radius, height: 8),
                                  top: Color(r: 0, g: 0, b: 0, a: 96), bottom: Color(r: 0, g: 0, b: 0, a: 0))
        }
        if let card = style.card { renderer.fillRounded(frame, radius: radius, card.darkened(dim).withOpacity(opacity)) }
        switch slots.content(item.slot) {
        case .loaded(let source, let w, let h) where style.fillsBox:
            defer { if source.isClip { drawPlayMark(in: box, alpha: alpha, on: renderer) } }
            // An animation drawn in the picture's place may be transparent anywhere.
            let opaque = picture && slots.isOpaque(item.slot)
            if border > 0 { drawBorder(frame, around: box, radius: radius, opaque: opaque, style.borderColor.darkened(dim).withOpacity(opacity), on: renderer) }
            guard picture else { return }
            let scale = max(box.size.width / Double(w), box.size.height / Double(h))
            let part = Size(width: min(Double(w), box.size.width / scale), height: min(Double(h), box.size.height / scale))
            if let crop = item.crop {
                // The cover's crop, then the part of it shown.
                let cover = AspectFit.coverPart(of: Size(width: Double(w), height: Double(h)), in: box.size)
                renderer.draw(slots.texture(item.slot), source: (w, h),
                              cropping: Rect(x: cover.minX + crop.minX * cover.size.width, y: cover.minY + crop.minY * cover.size.height,
                                             width: crop.size.width * cover.size.width, height: crop.size.height * cover.size.height),
                              in: box, alpha: alpha, brightness: 1 - dim)
                return
            }
            renderer.draw(slots.texture(item.slot),
                          part: Rect(x: ((Double(w) - part.width) / 2).rounded(.down), y: ((Double(h) - part.height) / 2).rounded(.down),
                                     width: part.width.rounded(), height: part.height.rounded()),
                          in: box, radius: max(0, radius - border), brightness: 1 - dim, alpha: alpha)
        case .loaded(let source, let w, let h):
            let r = AspectFit.rect(of: Size(width: Double(w), height: Double(h)), in: box)
            defer { if source.isClip { drawPlayMark(in: r, alpha: alpha, on: renderer) } }
            if style.fill != .none, let b = slots.backdrop(item.slot) {
                drawBackdrop(b, in: box, around: slots.isOpaque(item.slot) ? r : nil, dim: dim, alpha: alpha, on: renderer)
            }
            if border > 0 {
                drawBorder(Rect(x: r.minX - border, y: r.minY - border, width: r.size.width + 2 * border, height: r.size.height + 2 * border),
                           around: r, radius: radius, opaque: picture && slots.isOpaque(item.slot), style.borderColor.darkened(dim).withOpacity(opacity), on: renderer)
            }
            if !picture {
                // Drawn in its place.
            } else if let crop = item.crop {
                renderer.draw(slots.texture(item.slot), source: (w, h), cropping: crop, in: r, alpha: alpha, brightness: 1 - dim)
            } else if radius > 0 {
                renderer.draw(slots.texture(item.slot), part: Rect(x: 0, y: 0, width: Double(w), height: Double(h)), in: r,
                              radius: max(0, radius - border), brightness: 1 - dim, alpha: alpha)
            } else {
                // Fading in, an opaque picture is drawn from its copy without an alpha channel,
                // made at the size it is drawn.
                let size = (width: Int(r.size.width.rounded()), height: Int(r.size.height.rounded()))
                if alpha < 255, let copy = slots.opaqueCopy(item.slot, size: size) {
                    // At the fade's first frame the copy is made and nothing of it shows.
                    if alpha > 0 { renderer.draw(copy, source: size, in: r, alpha: alpha, brightness: 1 - dim) }
                } else {
                    renderer.draw(slots.texture(item.slot), source: (w, h), in: r, alpha: alpha, brightness: 1 - dim)
                }
            }
        case .loading, .failed, .empty:
            let failed: Bool
            if case .failed = slots.content(item.slot) { failed = true } else { failed = false }
            renderer.fillRounded(box, radius: radius, (failed ? style.failedPlaceholder : style.placeholder).darkened(dim).withOpacity(opacity))
            let margin = max(4, box.size.width / 16)
            if let label = slots.label(item.slot, text: text, color: style.label,
                                       maxWidth: Int(box.size.width - 2 * margin)) {
                let r = Rect(x: (box.midX - Double(label.width) / 2).rounded(.down),
                             y: (box.midY - Double(label.height) / 2).rounded(.down),
                             width: Double(label.width), height: Double(label.height))
                renderer.draw(label, source: (label.width, label.height), in: r, alpha: alpha, brightness: 1 - dim)
            }
        }
    }

    /// What fills the box behind a picture: its average colour, or its blurred copy scaled
    /// to cover the box (smoothly: a 64-pixel blur drawn large stays a blur). Around an
    /// opaque picture only the bars it leaves are drawn: a smooth stretch costs per pixel,
    /// and the whole box took 7 ms of a 1920×1080 frame in software.
    private func drawBackdrop(_ b: (texture: SDLTexture, size: (width: Int, height: Int), average: Color), in box: Rect,
                              around picture: Rect?, dim: Double, alpha: UInt8, on renderer: SDLRenderer) {
        let opacity = Double(alpha) / 255
        let areas = picture.map { box.around($0) } ?? [box]
        guard style.fill == .blur else {
            for area in areas { renderer.fill(area, b.average.darkened(dim).withOpacity(opacity)) }
            return
        }
        let cover = AspectFit.coverPart(of: Size(width: Double(b.size.width), height: Double(b.size.height)), in: box.size)
        for area in areas {
            // The part of the backdrop under this area of the box.
            let crop = Rect(x: cover.minX + (area.minX - box.minX) / box.size.width * cover.size.width,
                            y: cover.minY + (area.minY - box.minY) / box.size.height * cover.size.height,
                            width: area.size.width / box.size.width * cover.size.width,
                            height: area.size.height / box.size.height * cover.size.height)
            renderer.draw(b.texture, source: b.size, cropping: crop, in: area, alpha: alpha, brightness: 1 - dim)
        }
    }

    /// Page dots along the bottom edge, the caption on a scrim just above them.
    private func draw(_ overlay: Overlay, viewport: Size, on renderer: SDLRenderer) {
        let unit = max(2, (viewport.height / 160).rounded())
        var bottom = viewport.height - 3 * unit
        if !overlay.dots.isEmpty {
            let radius = 1.5 * unit, spacing = 5 * unit
            let y = bottom - radius
            let left = viewport.width / 2 - spacing * Double(overlay.dots.count - 1) / 2
            for (i, dot) in overlay.dots.enumerated() {
                renderer.fillCircle(centre: Point(x: left + spacing * Double(i), y: y), radius: radius * dot.scale,
                                    dot.isCurrent ? style.currentDot : style.dot)
            }
            bottom = y - radius - 3 * unit
        }
        guard let font = text, overlay.opacity > 0, !overlay.lines.isEmpty else { return }
        let maxWidth = Int(viewport.width * 0.8)
        let textures = overlay.lines.enumerated().compactMap { i, line in
            captions.texture(line, color: i == 0 ? style.captionColor : style.captionDetailColor,
                             maxWidth: maxWidth, font: font, renderer: renderer)
        }
        guard !textures.isEmpty else { return }
        let pad = 2 * unit
        let height = Double(textures.map(\.height).reduce(0, +))
        let width = Double(textures.map(\.width).max() ?? 0)
        let top = (bottom - height - pad).rounded(.down)
        renderer.fill(Rect(x: (viewport.width / 2 - width / 2 - 2 * pad).rounded(.down), y: top - pad,
                           width: (width + 4 * pad).rounded(), height: (height + 2 * pad).rounded()),
                      style.scrim.withOpacity(overlay.opacity))
        var y = top
        let alpha = UInt8((overlay.opacity * 255).rounded())
        for t in textures {
            renderer.draw(t, source: (t.width, t.height),
                          in: Rect(x: (viewport.width / 2 - Double(t.width) / 2).rounded(.down), y: y,
                                   width: Double(t.width), height: Double(t.height)), alpha: alpha)
            y += Double(t.height)
        }
    }

    /// The "back to the wall" button: a dark square with an arrow in `rect`.
    public func drawBackButton(_ rect: Rect, on renderer: SDLRenderer) {
        renderer.fill(rect, style.scrim)
        guard let font = text,
              let t = captions.texture("←", color: style.captionColor, maxWidth: Int(rect.size.width), font: font, renderer: renderer)
        else { return }
        renderer.draw(t, source: (t.width, t.height),
                      in: Rect(x: (rect.midX - Double(t.width) / 2).rounded(.down), y: (rect.midY - Double(t.height) / 2).rounded(.down),
                               width: Double(t.width), height: Double(t.height)))
    }

    /// The border `outer` drawn before a picture that will cover `inner`: only the ring
    /// when the picture is opaque and square-cornered (the software renderer would fill the
    /// whole `outer` and then copy the picture over most of it), else `outer` filled.
    private func drawBorder(_ outer: Rect, around inner: Rect, radius: Double, opaque: Bool, _ color: Color,
                            on renderer: SDLRenderer) {
        // Around an opaque picture only the ring: a fading one (translucent) drawn over a
        // filled border was washed out by the border's colour under it.
        if radius == 0 && opaque {
            renderer.fillRing(outer, inner: inner, color)
        } else {
            renderer.fillRounded(outer, radius: radius, color)
        }
    }

    /// The background colour, and the backdrop picture over it if there is one.
    private func clear(_ viewport: Size, on renderer: SDLRenderer) {
        renderer.clear(style.background)
        guard let b = backdrop, viewport.width > 0, viewport.height > 0 else { return }
        let w = Double(b.width), h = Double(b.height)
        let scale = max(viewport.width / w, viewport.height / h)
        let part = Size(width: min(w, viewport.width / scale), height: min(h, viewport.height / scale))
        renderer.draw(b, part: Rect(x: ((w - part.width) / 2).rounded(.down), y: ((h - part.height) / 2).rounded(.down),
                                    width: part.width.rounded(), height: part.height.rounded()),
                      in: Rect(x: 0, y: 0, width: viewport.width, height: viewport.height))
    }

    /// A message centred on the background, for the empty state (seed 003).
    public func drawMessage(_ message: String, viewport: Size, on renderer: SDLRenderer) {
        clear(viewport, on: renderer)
        guard let t = text?.texture(message, color: style.label, maxWidth: Int(viewport.width * 0.9),
                                    renderer: renderer) else { return }
        let r = Rect(x: ((viewport.width - Double(t.width)) / 2).rounded(.down),
                     y: ((viewport.height - Double(t.height)) / 2).rounded(.down),
                     width: Double(t.width), height: Double(t.height))
        renderer.draw(t, source: (t.width, t.height), in: r)
    }
}
