import CSDL2
import CarouselCore

/// A GPU (or software) texture, filled from RGBA pixels; destroyed with this object.
///
/// It is stored as ARGB8888 (B, G, R, A in memory), the order of the software renderer's
/// screen and of desktop OpenGL: drawn without blending it is a straight copy of rows. An
/// RGBA texture on that screen swapped red and blue pixel by pixel at every frame (a third
/// of the wall's frame time in a fling, in `perf`); the swap now happens once, at upload.
public final class SDLTexture {
    let handle: OpaquePointer
    public let width: Int
    public let height: Int
    /// Destroyed before its renderer, never after (SDL frees a renderer's textures with it).
    private let renderer: SDLRenderer

    /// A texture the program fills with `update` (slot textures, frame targets).
    /// `withoutAlpha`: XRGB8888, whose pixels are all opaque (a crossfade's copy).
    public init(renderer: SDLRenderer, width: Int, height: Int, target: Bool = false, withoutAlpha: Bool = false) throws(SDLError) {
        self.renderer = renderer
        let access = target ? SDL_TEXTUREACCESS_TARGET : SDL_TEXTUREACCESS_STATIC
        let format = withoutAlpha ? SDL_PIXELFORMAT_RGB888 : SDL_PIXELFORMAT_ARGB8888
        guard let t = SDL_CreateTexture(renderer.handle, format.rawValue, Int32(access.rawValue),
                                        Int32(max(1, width)), Int32(max(1, height))) else {
            throw SDLError("SDL_CreateTexture")
        }
        handle = t
        self.width = width
        self.height = height
        SDL_SetTextureBlendMode(t, SDL_BLENDMODE_BLEND)
    }

    /// Wraps a texture SDL created (e.g. from a surface).
    init(adopting handle: OpaquePointer, renderer: SDLRenderer) {
        self.handle = handle
        self.renderer = renderer
        var w: Int32 = 0, h: Int32 = 0
        SDL_QueryTexture(handle, nil, nil, &w, &h)
        width = Int(w)
        height = Int(h)
    }

    /// Copies `image` into the texture's top-left corner; it must fit.
    /// Blend only what has transparent pixels: an opaque picture is copied straight.
    public func setBlending(_ on: Bool) {
        SDL_SetTextureBlendMode(handle, on ? SDL_BLENDMODE_BLEND : SDL_BLENDMODE_NONE)
    }

    public func update(with image: PixelImage) throws(SDLError) {
        try update(with: image, rows: 0..<image.height)
    }

    /// Copies the rows `rows` of `image` into the texture's rows from `top` (the same rows
    /// by default): a large picture uploaded a band at a time.
    public func update(with image: PixelImage, rows: Range<Int>, at top: Int? = nil) throws(SDLError) {
        let top = top ?? rows.lowerBound
        precondition(image.width <= width && top >= 0 && top + rows.count <= height, "image larger than its texture")
        precondition(rows.lowerBound >= 0 && rows.upperBound <= image.height, "rows outside the image")
        guard !rows.isEmpty else { return }
        var rect = SDL_Rect(x: 0, y: Int32(top), w: Int32(image.width), h: Int32(rows.count))
        let rc: Int32
        if image.isBGRA {
            rc = image.pixels.withUnsafeBytes {
                SDL_UpdateTexture(handle, &rect, $0.baseAddress! + rows.lowerBound * image.width * 4, Int32(image.width * 4))
            }
        } else if rows != 0..<image.height {
            let part = Array(image.pixels[(rows.lowerBound * image.width * 4)..<(rows.upperBound * image.width * 4)])
            let argb = PixelOrder.argb(fromRGBA: part)
            rc = argb.withUnsafeBytes { SDL_UpdateTexture(handle, &rect, $0.baseAddress, Int32(image.width * 4)) }
        } else {
            let argb = PixelOrder.argb(fromRGBA: image.pixels)
            rc = argb.withUnsafeBytes { SDL_UpdateTexture(handle, &rect, $0.baseAddress, Int32(image.width * 4)) }
        }
        if rc != 0 { throw SDLError("SDL_UpdateTexture") }
    }

    /// Scaled smoothly (bilinear) rather than to the nearest pixel: a small blurred
    /// backdrop drawn large stays a blur.
    public func setSmoothScaling() {
        SDL_SetTextureScaleMode(handle, SDL_ScaleModeLinear)
    }

    deinit { SDL_DestroyTexture(handle) }
}
