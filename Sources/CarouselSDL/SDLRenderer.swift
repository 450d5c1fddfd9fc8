import CSDL2
import CarouselCore
import CarouselMedia

/// An SDL renderer bound to a window: drawing primitives in whole pixels, textures,
/// and reading the frame back. Every call must come from the main thread.
public final class SDLRenderer {
    let handle: OpaquePointer
    /// The driver SDL picked ("opengl", "software", …).
    public let driverName: String

    public init(window: SDLWindow, kind: RendererKind, vsync: Bool) throws(SDLError) {
        if let h = kind.hint { SDL_SetHint(SDL_HINT_RENDER_DRIVER, h) }
        var flags: UInt32 = 0
        if kind == .software { flags |= SDL_RENDERER_SOFTWARE.rawValue }
        if vsync { flags |= SDL_RENDERER_PRESENTVSYNC.rawValue }
        guard let r = SDL_CreateRenderer(window.handle, -1, flags) else {
            throw SDLError("SDL_CreateRenderer(\(kind.rawValue))")
        }
        handle = r
        var info = SDL_RendererInfo()
        SDL_GetRendererInfo(r, &info)
        driverName = info.name.map { String(cString: $0) } ?? "unknown"
        SDL_SetRenderDrawBlendMode(r, SDL_BLENDMODE_BLEND)
    }

    deinit { SDL_DestroyRenderer(handle) }

    /// The drawable size in device pixels.
    public var outputSize: Size {
        var w: Int32 = 0, h: Int32 = 0
        SDL_GetRendererOutputSize(handle, &w, &h)
        return Size(width: Double(w), height: Double(h))
    }

    public func makeTexture(width: Int, height: Int) throws(SDLError) -> SDLTexture {
        try SDLTexture(renderer: handle, width: width, height: height)
    }

    public func makeTarget(width: Int, height: Int) throws(SDLError) -> SDLTexture {
        try SDLTexture(renderer: handle, width: width, height: height, target: true)
    }

    /// Draws into `texture` from now on; nil draws into the window again.
    public func setTarget(_ texture: SDLTexture?) {
        SDL_SetRenderTarget(handle, texture?.handle)
    }

    func texture(from surface: UnsafeMutablePointer<SDL_Surface>) -> SDLTexture? {
        SDL_CreateTextureFromSurface(handle, surface).map { SDLTexture(adopting: $0) }
    }

    public func clear(_ c: Color) {
        setColor(c)
        SDL_RenderClear(handle)
    }

    public func fill(_ rect: Rect, _ c: Color) {
        setColor(c)
        var r = Self.pixelRect(rect)
        SDL_RenderFillRect(handle, &r)
    }

    /// Draws the top-left `source` pixels of `texture` into `destination`.
    public func draw(_ texture: SDLTexture, source: (width: Int, height: Int), in destination: Rect, alpha: UInt8 = 255) {
        var src = SDL_Rect(x: 0, y: 0, w: Int32(source.width), h: Int32(source.height))
        var dst = Self.pixelRect(destination)
        SDL_SetTextureAlphaMod(texture.handle, alpha)
        SDL_RenderCopy(handle, texture.handle, &src, &dst)
    }

    public func present() { SDL_RenderPresent(handle) }

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
