import CSDL2
#if canImport(Glibc)
import Glibc
#endif
import CarouselCore

/// An SDL renderer bound to a window: drawing primitives in whole pixels, textures,
/// and reading the frame back. Every call must come from the main thread.
public final class SDLRenderer {
    let handle: OpaquePointer
    /// The driver SDL picked ("opengl", "software", …).
    public let driverName: String
    /// The window outlives its renderer: on KMS/DRM destroying the last window unloads the
    /// GL driver, and a renderer destroyed after that called into unmapped code (every
    /// `systemctl stop` ended in SIGSEGV; found by kiosk/vm-test). Textures hold their
    /// renderer the same way.
    private let window: SDLWindow

    public init(window: SDLWindow, kind: RendererKind, vsync: Bool) throws(SDLError) {
        if let h = kind.hint { SDL_SetHint(SDL_HINT_RENDER_DRIVER, h) }
        var flags: UInt32 = 0
        if kind == .software { flags |= SDL_RENDERER_SOFTWARE.rawValue }
        if vsync { flags |= SDL_RENDERER_PRESENTVSYNC.rawValue }
        guard let r = SDL_CreateRenderer(window.handle, -1, flags) else {
            throw SDLError("SDL_CreateRenderer(\(kind.rawValue))")
        }
        handle = r
        self.window = window
        var info = SDL_RendererInfo()
        SDL_GetRendererInfo(r, &info)
        driverName = info.name.map { String(cString: $0) } ?? "unknown"
        SDL_SetRenderDrawBlendMode(r, SDL_BLENDMODE_BLEND)
    }

    deinit {
        if let t = solid?.texture { SDL_DestroyTexture(t) }
        SDL_DestroyRenderer(handle)
    }

    /// The drawable size in device pixels.
    public var outputSize: Size {
        var w: Int32 = 0, h: Int32 = 0
        SDL_GetRendererOutputSize(handle, &w, &h)
        return Size(width: Double(w), height: Double(h))
    }

    public func makeTexture(width: Int, height: Int) throws(SDLError) -> SDLTexture {
        try SDLTexture(renderer: self, width: width, height: height)
    }

    public func makeTarget(width: Int, height: Int) throws(SDLError) -> SDLTexture {
        try SDLTexture(renderer: self, width: width, height: height, target: true)
    }

    /// The canvas being drawn on (`drawingCanvas`): the target it lies on and where.
    private var canvas: (target: OpaquePointer?, rect: SDL_Rect)?

    /// Runs `draw` on a canvas of `size` whose point `origin` lies at the current target's
    /// top-left corner (a panel of a spanned wall draws its part of the wall's canvas): SDL's
    /// viewport moved there, what falls outside the target clipped. A drawing into another
    /// target meanwhile (a crossfade's still frame) comes back to the canvas after it.
    public func drawingCanvas(origin: Point, size: Size, _ draw: () -> Void) {
        var rect = SDL_Rect(x: Int32((-origin.x).rounded()), y: Int32((-origin.y).rounded()),
                            w: Int32(size.width.rounded()), h: Int32(size.height.rounded()))
        canvas = (SDL_GetRenderTarget(handle), rect)
        SDL_RenderSetViewport(handle, &rect)
        draw()
        canvas = nil
        SDL_RenderSetViewport(handle, nil)
    }

    /// Draws into `previous` again (and on the canvas again, when it lies there).
    private func restore(_ previous: OpaquePointer?) {
        SDL_SetRenderTarget(handle, previous)
        if let c = canvas, c.target == previous {
            var rect = c.rect
            SDL_RenderSetViewport(handle, &rect)
        }
    }

    /// Copies the top-left `width` × `height` pixels of `source` into the whole target
    /// texture `destination` (scaled to it), then draws where it drew before.
    public func copy(_ source: SDLTexture, width: Int, height: Int, into destination: SDLTexture) {
        let previous = SDL_GetRenderTarget(handle)
        SDL_SetRenderTarget(handle, destination.handle)
        var rect = SDL_Rect(x: 0, y: 0, w: Int32(width), h: Int32(height))
        var whole = SDL_Rect(x: 0, y: 0, w: Int32(destination.width), h: Int32(destination.height))
        var mode = SDL_BLENDMODE_NONE
        SDL_GetTextureBlendMode(source.handle, &mode)
        SDL_SetTextureBlendMode(source.handle, SDL_BLENDMODE_NONE)
        SDL_SetTextureAlphaMod(source.handle, 255)
        SDL_SetTextureColorMod(source.handle, 255, 255, 255)
        SDL_RenderCopy(handle, source.handle, &rect, &whole)
        SDL_SetTextureBlendMode(source.handle, mode)
        restore(previous)
    }

    /// Runs `draw` into the target texture `target`, then draws where it drew before.
    public func drawing(into target: SDLTexture, _ draw: () -> Void) {
        let previous = SDL_GetRenderTarget(handle)
        SDL_SetRenderTarget(handle, target.handle)
        draw()
        restore(previous)
    }

    /// Draws into `texture` from now on; nil draws into the window again.
    public func setTarget(_ texture: SDLTexture?) {
        SDL_SetRenderTarget(handle, texture?.handle)
    }

    func texture(from surface: UnsafeMutablePointer<SDL_Surface>) -> SDLTexture? {
        SDL_CreateTextureFromSurface(handle, surface).map { SDLTexture(adopting: $0, renderer: self) }
    }

    public func clear(_ c: Color) {
        setColor(c)
        SDL_RenderClear(handle)
    }

    /// Fills `rect`, blending when the colour is translucent (a caption's scrim).
    public func fill(_ rect: Rect, _ c: Color) {
        if c.a == 255, driverName == "software", let pixel = solidPixel(c) {
            var r = Self.pixelRect(rect)
            SDL_RenderCopy(handle, pixel, nil, &r)
            return
        }
        setColor(c)
        SDL_SetRenderDrawBlendMode(handle, c.a < 255 ? SDL_BLENDMODE_BLEND : SDL_BLENDMODE_NONE)
        var r = Self.pixelRect(rect)
        SDL_RenderFillRect(handle, &r)
    }

    /// Fills the ring between `outer` and `inner` (a border around a picture that covers
    /// `inner` opaquely): four bands, not `outer` whole under the picture.
    public func fillRing(_ outer: Rect, inner: Rect, _ c: Color) {
        let o = Self.pixelRect(outer), i = Self.pixelRect(inner)
        let left = Double(o.x), top = Double(o.y), right = Double(o.x + o.w), bottom = Double(o.y + o.h)
        let il = Double(max(i.x, o.x)), it = Double(max(i.y, o.y))
        let ir = Double(min(i.x + i.w, o.x + o.w)), ib = Double(min(i.y + i.h, o.y + o.h))
        guard ir > il, ib > it else { return fill(outer, c) }
        for band in [Rect(x: left, y: top, width: right - left, height: it - top),
                     Rect(x: left, y: ib, width: right - left, height: bottom - ib),
                     Rect(x: left, y: it, width: il - left, height: ib - it),
                     Rect(x: ir, y: it, width: right - ir, height: ib - it)] where band.size.width > 0 && band.size.height > 0 {
            fill(band, c)
        }
    }

    /// The software renderer's opaque fills: a one-pixel texture of the colour, stretched.
    /// SDL's own fill writes with non-temporal stores, which on rows that do not start and
    /// end on cache lines cost several times a plain copy: a wall of 25 bordered tiles spent
    /// 2.3 ms a frame filling borders (0.45 ms this way, in a C test of the same calls).
    private var solid: (texture: OpaquePointer, color: Color)?

    private func solidPixel(_ c: Color) -> OpaquePointer? {
        if let solid, solid.color == c { return solid.texture }
        let texture: OpaquePointer
        if let made = solid?.texture {
            texture = made
        } else {
            guard let made = SDL_CreateTexture(handle, SDL_PIXELFORMAT_ARGB8888.rawValue, Int32(SDL_TEXTUREACCESS_STATIC.rawValue), 1, 1)
            else { return nil }
            SDL_SetTextureBlendMode(made, SDL_BLENDMODE_NONE)
            texture = made
        }
        var word = 0xFF00_0000 | UInt32(c.r) << 16 | UInt32(c.g) << 8 | UInt32(c.b)
        guard SDL_UpdateTexture(texture, nil, &word, 4) == 0 else { return nil }
        solid = (texture, c)
        return texture
    }

    /// A filled circle (a page dot), as a fan of triangles.
    public func fillCircle(centre: Point, radius: Double, _ c: Color) {
        let segments = 24
        let colour = SDL_Color(r: c.r, g: c.g, b: c.b, a: c.a)
        var vertices = [SDL_Vertex(position: SDL_FPoint(x: Float(centre.x), y: Float(centre.y)), color: colour,
                                   tex_coord: SDL_FPoint(x: 0, y: 0))]
        var indices: [Int32] = []
        for i in 0...segments {
            let a = Double(i) / Double(segments) * 2 * Double.pi
            vertices.append(SDL_Vertex(position: SDL_FPoint(x: Float(centre.x + radius * cos(a)), y: Float(centre.y + radius * sin(a))),
                                       color: colour, tex_coord: SDL_FPoint(x: 0, y: 0)))
            if i > 0 { indices += [0, Int32(i), Int32(i + 1)] }
        }
        SDL_RenderGeometry(handle, nil, vertices, Int32(vertices.count), indices, Int32(indices.count))
    }

    /// A filled triangle (a clip's play mark).
    public func fillTriangle(_ a: Point, _ b: Point, _ c: Point, _ colour: Color) {
        let sdl = SDL_Color(r: colour.r, g: colour.g, b: colour.b, a: colour.a)
        let vertices = [a, b, c].map {
            SDL_Vertex(position: SDL_FPoint(x: Float($0.x), y: Float($0.y)), color: sdl, tex_coord: SDL_FPoint(x: 0, y: 0))
        }
        SDL_RenderGeometry(handle, nil, vertices, 3, nil, 0)
    }

    /// Draws the top-left `source` pixels of `texture` into `destination`, optionally
    /// translucent (`alpha`) and darkened (`brightness` 0...1, for dimmed neighbours).
    public func draw(_ texture: SDLTexture, source: (width: Int, height: Int), in destination: Rect,
                     alpha: UInt8 = 255, brightness: Double = 1) {
        var dst = Self.pixelRect(destination)
        let scaled = Int(dst.w) != source.width || Int(dst.h) != source.height
        if scaled && !drawableRect.covers(destination) {
            // Scaled and partly off the screen or the clip: only the part on it (see `drawVisible`).
            return drawVisible(texture, source: source, mapping: destination, within: viewportRect,
                               alpha: alpha, brightness: brightness)
        }
        var src = SDL_Rect(x: 0, y: 0, w: Int32(source.width), h: Int32(source.height))
        let v = UInt8(min(max(brightness, 0), 1) * 255)
        SDL_SetTextureAlphaMod(texture.handle, alpha)
        SDL_SetTextureColorMod(texture.handle, v, v, v)
        Self.blending(texture, if: alpha < 255) { SDL_RenderCopy(handle, texture.handle, &src, &dst) }
    }

    /// What is drawn into now (the window, or a target): its viewport.
    var viewportRect: Rect {
        var r = SDL_Rect()
        SDL_RenderGetViewport(handle, &r)
        return Rect(x: 0, y: 0, width: Double(r.w), height: Double(r.h))
    }

    /// What a drawing can reach now: the viewport, cut to the clip while there is one.
    var drawableRect: Rect {
        guard SDL_RenderIsClipEnabled(handle) == SDL_TRUE else { return viewportRect }
        var c = SDL_Rect()
        SDL_RenderGetClipRect(handle, &c)
        return viewportRect.intersection(Rect(x: Double(c.x), y: Double(c.y), width: Double(c.w), height: Double(c.h)))
    }

    /// Runs `draw` with all drawing cut to `rect` (whole pixels), then lifts the cut.
    public func clipped(to rect: Rect, _ draw: () -> Void) {
        var clip = Self.pixelRect(rect)
        guard clip.w > 0, clip.h > 0 else { return }
        SDL_RenderSetClipRect(handle, &clip)
        draw()
        SDL_RenderSetClipRect(handle, nil)
    }

    /// Draws the top-left `source` pixels of `texture` as if into `mapping` (float, any
    /// size), but only what falls inside `area`: the texture pixels that cover it (rounded
    /// outwards to whole pixels) into exactly where `mapping` puts them, clipped to `area`.
    /// The software renderer scales a copy that reaches past the screen's edge into a
    /// temporary picture of the whole destination first: a picture zoomed 8× was a 270 MB
    /// allocation and 12 ms on every frame; this keeps it to what shows.
    private func drawVisible(_ texture: SDLTexture, source: (width: Int, height: Int), mapping: Rect, within area: Rect,
                             alpha: UInt8, brightness: Double) {
        let visible = area.intersection(drawableRect).intersection(mapping)
        guard visible.size.width > 0, visible.size.height > 0, mapping.size.width > 0, mapping.size.height > 0 else { return }
        if isSoftware {
            return drawInBands(texture, source: source, mapping: mapping, within: Self.pixelRect(visible), alpha: alpha, brightness: brightness)
        }
        let sx = mapping.size.width / Double(source.width), sy = mapping.size.height / Double(source.height)
        let x0 = max(0, Int(((visible.minX - mapping.minX) / sx).rounded(.down)))
        let y0 = max(0, Int(((visible.minY - mapping.minY) / sy).rounded(.down)))
        // One texture pixel more at the far edges where there is one: a renderer that
        // truncates the destination's place and size could leave its last column or row
        // uncovered; the clip cuts what is beyond.
        let x1 = min(source.width, Int(((visible.maxX - mapping.minX) / sx).rounded(.up)) + 1)
        let y1 = min(source.height, Int(((visible.maxY - mapping.minY) / sy).rounded(.up)) + 1)
        guard x1 > x0, y1 > y0 else { return }
        var src = SDL_Rect(x: Int32(x0), y: Int32(y0), w: Int32(x1 - x0), h: Int32(y1 - y0))
        var dst = SDL_FRect(x: Float(mapping.minX + Double(x0) * sx), y: Float(mapping.minY + Double(y0) * sy),
                            w: Float(Double(x1 - x0) * sx), h: Float(Double(y1 - y0) * sy))
        var clip = Self.pixelRect(visible)
        let v = UInt8(min(max(brightness, 0), 1) * 255)
        SDL_SetTextureAlphaMod(texture.handle, alpha)
        SDL_SetTextureColorMod(texture.handle, v, v, v)
        var previous = SDL_Rect()
        let clipped = SDL_RenderIsClipEnabled(handle) == SDL_TRUE
        SDL_RenderGetClipRect(handle, &previous)
        SDL_RenderSetClipRect(handle, &clip)
        Self.blending(texture, if: alpha < 255) { SDL_RenderCopyF(handle, texture.handle, &src, &dst) }
        if clipped { SDL_RenderSetClipRect(handle, &previous) } else { SDL_RenderSetClipRect(handle, nil) }
    }

    /// `drawVisible` for the software renderer, which must never be given a scaled copy
    /// that reaches past the screen (a temporary picture of the whole destination) or past
    /// the clip (SDL trims the source in whole pixels, and the picture slides by up to a
    /// texture pixel): the texture pixels wholly inside `visible` in one copy, and the
    /// slivers of those cut by its edges, each stretched over what shows of it (under
    /// nearest scaling a texture pixel is one colour, so this is the same picture).
    private func drawInBands(_ texture: SDLTexture, source: (width: Int, height: Int), mapping: Rect, within visible: SDL_Rect,
                             alpha: UInt8, brightness: Double) {
        guard visible.w > 0, visible.h > 0 else { return }
        let columns = Self.bands(count: source.width, start: mapping.minX, step: mapping.size.width / Double(source.width),
                                 from: Int(visible.x), to: Int(visible.x + visible.w))
        let rows = Self.bands(count: source.height, start: mapping.minY, step: mapping.size.height / Double(source.height),
                              from: Int(visible.y), to: Int(visible.y + visible.h))
        let v = UInt8(min(max(brightness, 0), 1) * 255)
        SDL_SetTextureAlphaMod(texture.handle, alpha)
        SDL_SetTextureColorMod(texture.handle, v, v, v)
        Self.blending(texture, if: alpha < 255) {
            for row in rows {
                for column in columns {
                    var src = SDL_Rect(x: Int32(column.texels.lowerBound), y: Int32(row.texels.lowerBound),
                                       w: Int32(column.texels.count), h: Int32(row.texels.count))
                    var dst = SDL_Rect(x: Int32(column.pixels.lowerBound), y: Int32(row.pixels.lowerBound),
                                       w: Int32(column.pixels.count), h: Int32(row.pixels.count))
                    SDL_RenderCopy(handle, texture.handle, &src, &dst)
                }
            }
        }
    }

    /// Along one axis: texture pixels `0..<count` laid from `start`, `step` screen pixels
    /// each; the screen pixels `from..<to` shown as at most three bands of texture pixels
    /// and the screen pixels each covers: the sliver cut at the start, the whole ones, the
    /// sliver cut at the end. A texture pixel `i` begins at the screen pixel
    /// `start + i × step` rounded.
    static func bands(count: Int, start: Double, step: Double, from: Int, to: Int) -> [(texels: Range<Int>, pixels: Range<Int>)] {
        guard count > 0, step > 0, to > from else { return [] }
        func edge(_ i: Int) -> Int { Int((start + Double(i) * step).rounded()) }
        // The first texture pixel beginning at or after `from`, the last boundary at or before `to`.
        var first = min(count, max(0, Int(((Double(from) - start) / step).rounded(.down))))
        while first < count && edge(first) < from { first += 1 }
        while first > 0 && edge(first - 1) >= from { first -= 1 }
        var last = min(count, max(0, Int(((Double(to) - start) / step).rounded(.up))))
        while last > 0 && edge(last) > to { last -= 1 }
        while last < count && edge(last + 1) <= to { last += 1 }
        // No boundary inside: all of it is one texture pixel.
        if first > last { return [(max(0, min(count, first) - 1)..<max(1, min(count, first)), from..<to)] }
        var out: [(texels: Range<Int>, pixels: Range<Int>)] = []
        if edge(first) > from && first > 0 { out.append(((first - 1)..<first, from..<edge(first))) }
        if last > first { out.append((first..<last, edge(first)..<edge(last))) }
        if edge(last) < to && last < count { out.append((last..<(last + 1), edge(last)..<to)) }
        return out
    }

    /// Whether this is SDL's software renderer (drawing on the CPU into a surface).
    public var isSoftware: Bool { driverName == "software" }

    /// Fills `rect` with a vertical gradient from `top` to `bottom` (a shadow band).
    public func fillGradient(_ rect: Rect, top: Color, bottom: Color) {
        SDL_SetRenderDrawBlendMode(handle, SDL_BLENDMODE_BLEND)
        func v(_ x: Double, _ y: Double, _ c: Color) -> SDL_Vertex {
            SDL_Vertex(position: SDL_FPoint(x: Float(x), y: Float(y)), color: SDL_Color(r: c.r, g: c.g, b: c.b, a: c.a),
                       tex_coord: SDL_FPoint(x: 0, y: 0))
        }
        let vertices = [v(rect.minX, rect.minY, top), v(rect.maxX, rect.minY, top),
                        v(rect.maxX, rect.maxY, bottom), v(rect.minX, rect.maxY, bottom)]
        let indices: [Int32] = [0, 1, 2, 0, 2, 3]
        SDL_RenderGeometry(handle, nil, vertices, 4, indices, 6)
    }

    /// Fills `rect` with its corners rounded by `radius`, anti-aliased.
    public func fillRounded(_ rect: Rect, radius: Double, _ c: Color) {
        guard radius > 0 else { return fill(rect, c) }
        SDL_SetRenderDrawBlendMode(handle, SDL_BLENDMODE_BLEND)
        RoundedRect(rect, radius: radius).draw(on: handle, texture: nil, part: nil, textureSize: (0, 0), color: c)
    }

    /// Draws the part `source` of `texture` into `destination` with its corners rounded by
    /// `radius`, anti-aliased, darkened by `brightness`.
    public func draw(_ texture: SDLTexture, part source: Rect, in destination: Rect, radius: Double, brightness: Double = 1,
                     alpha: UInt8 = 255) {
        guard radius > 0 else { return draw(texture, part: source, in: destination, brightness: brightness, alpha: alpha) }
        let v = UInt8(min(max(brightness, 0), 1) * 255)
        SDL_SetTextureAlphaMod(texture.handle, alpha)
        SDL_SetTextureColorMod(texture.handle, 255, 255, 255)
        var blend = SDL_BLENDMODE_NONE
        SDL_GetTextureBlendMode(texture.handle, &blend)
        SDL_SetTextureBlendMode(texture.handle, SDL_BLENDMODE_BLEND)
        RoundedRect(destination, radius: radius).draw(on: handle, texture: texture.handle, part: source,
                                                      textureSize: (texture.width, texture.height), color: Color(r: v, g: v, b: v, a: alpha))
        SDL_SetTextureBlendMode(texture.handle, blend)
    }

    /// Draws the part `source` (texture pixels) of `texture` into `destination`: a crop.
    public func draw(_ texture: SDLTexture, part source: Rect, in destination: Rect, brightness: Double = 1, alpha: UInt8 = 255) {
        var src = Self.pixelRect(source)
        var dst = Self.pixelRect(destination)
        let v = UInt8(min(max(brightness, 0), 1) * 255)
        SDL_SetTextureAlphaMod(texture.handle, alpha)
        SDL_SetTextureColorMod(texture.handle, v, v, v)
        Self.blending(texture, if: alpha < 255) { SDL_RenderCopy(handle, texture.handle, &src, &dst) }
    }

    /// Draws the part `crop` (fractions 0–1) of the top-left `source` pixels of `texture`
    /// so that it fills `destination`: the whole picture drawn larger, at sub-pixel places
    /// (a slow pan does not step a texture pixel at a time), clipped to `destination`.
    public func draw(_ texture: SDLTexture, source: (width: Int, height: Int), cropping crop: Rect, in destination: Rect,
                     alpha: UInt8 = 255, brightness: Double = 1) {
        guard crop.size.width > 0, crop.size.height > 0 else { return }
        let w = destination.size.width / crop.size.width, h = destination.size.height / crop.size.height
        drawVisible(texture, source: source, mapping: Rect(x: destination.minX - crop.minX * w, y: destination.minY - crop.minY * h,
                                                           width: w, height: h),
                    within: destination, alpha: alpha, brightness: brightness)
    }

    /// Runs `draw` with `texture` blended when `translucent` (an opaque picture is drawn
    /// unblended, which ignores its alpha), then puts its mode back.
    private static func blending(_ texture: SDLTexture, if translucent: Bool, _ draw: () -> Void) {
        guard translucent else { return draw() }
        var mode = SDL_BLENDMODE_NONE
        SDL_GetTextureBlendMode(texture.handle, &mode)
        SDL_SetTextureBlendMode(texture.handle, SDL_BLENDMODE_BLEND)
        draw()
        SDL_SetTextureBlendMode(texture.handle, mode)
    }

    /// Draws a frame rendered for the logical screen onto the physical one (`physical`
    /// pixels), turned clockwise by `rotation` about the centre.
    public func drawTurned(_ frame: SDLTexture, rotation: ScreenRotation, physical: Size) {
        let w = Double(frame.width), h = Double(frame.height)
        var dst = SDL_Rect(x: Int32(((physical.width - w) / 2).rounded()), y: Int32(((physical.height - h) / 2).rounded()),
                           w: Int32(frame.width), h: Int32(frame.height))
        SDL_SetTextureAlphaMod(frame.handle, 255)
        SDL_SetTextureColorMod(frame.handle, 255, 255, 255)
        SDL_RenderCopyEx(handle, frame.handle, nil, &dst, Double(rotation.rawValue), nil, SDL_FLIP_NONE)
    }

    public func present() { SDL_RenderPresent(handle) }

    /// The render driver SDL chose: software, opengl, opengles2…
    public var name: String {
        var info = SDL_RendererInfo()
        guard SDL_GetRendererInfo(handle, &info) == 0, let n = info.name else { return "unknown" }
        return String(cString: n)
    }

    /// Waits until the drawing so far is really done: a GPU (or llvmpipe) renderer returns
    /// long before, so a frame is timed only after this (reading back one pixel forces it).
    public func finish() {
        var pixel: UInt32 = 0
        var r = SDL_Rect(x: 0, y: 0, w: 1, h: 1)
        SDL_RenderReadPixels(handle, &r, SDL_PIXELFORMAT_RGBA32.rawValue, &pixel, 4)
    }

    /// The frame just drawn, for a screenshot, in the byte order cheapest to read: the
    /// software renderer's own (BGRA: its window surface is XRGB8888) or RGBA where the GPU
    /// gives that (OpenGL's glReadPixels). The caller swaps bytes off this thread.
    /// `buffer` is reused when nobody else holds it (its pages are mapped already: a new
    /// 8 MB array cost 5 ms of zeroing and page faults at 1920x1080, the read itself 1 ms).
    public func readFrame(width: Int, height: Int, into buffer: inout [UInt8]) throws(SDLError) -> Bool {
        // The window surface's own format (XRGB8888 or ARGB8888, both B, G, R, X in memory)
        // is copied without converting a pixel: 7.3 ms less at 1920x1080 than RGBA.
        let windowFormat = SDL_RenderGetWindow(handle).map(SDL_GetWindowPixelFormat) ?? 0
        let bgra = driverName == "software"
            && (windowFormat == SDL_PIXELFORMAT_RGB888.rawValue || windowFormat == SDL_PIXELFORMAT_ARGB8888.rawValue)
        if buffer.count != width * height * 4 { buffer = [UInt8](repeating: 0, count: width * height * 4) }
        let format = bgra ? windowFormat : SDL_PIXELFORMAT_RGBA32.rawValue
        let rc = buffer.withUnsafeMutableBytes { buf in
            SDL_RenderReadPixels(handle, nil, format, buf.baseAddress, Int32(width * 4))
        }
        if rc != 0 { throw SDLError("SDL_RenderReadPixels") }
        return bgra
    }

    /// The current target's pixels, for PNG snapshots and tests.
    public func readPixels(width: Int, height: Int) throws(SDLError) -> PixelImage {
        var out = [UInt8](repeating: 0, count: width * height * 4)
        let rc = out.withUnsafeMutableBytes { buf in
            SDL_RenderReadPixels(handle, nil, SDL_PIXELFORMAT_RGBA32.rawValue, buf.baseAddress, Int32(width * 4))
        }
        if rc != 0 { throw SDLError("SDL_RenderReadPixels") }
        return PixelImage(width: width, height: height, pixels: out)
    }

    private func setColor(_ c: Color) {
        SDL_SetRenderDrawColor(handle, c.r, c.g, c.b, c.a)
    }

    /// Whole-pixel rectangle whose edges are the rounded edges of `r`, so neighbouring
    /// rectangles never overlap or leave a seam.
    static func pixelRect(_ r: Rect) -> SDL_Rect {
        let x0 = r.minX.rounded(.down), y0 = r.minY.rounded(.down)
        let x1 = r.maxX.rounded(.down), y1 = r.maxY.rounded(.down)
        return SDL_Rect(x: Int32(clamping: Int(x0)), y: Int32(clamping: Int(y0)),
                        w: Int32(clamping: Int(x1 - x0)), h: Int32(clamping: Int(y1 - y0)))
    }
}
