import CarouselCore
import CarouselPainting
import CarouselSDL

/// Draws the scene onto the physical screen (or a target of its size): directly, or for a
/// panel mounted sideways into a texture of the logical screen that is then turned onto
/// the physical one. One extra full-screen copy a frame, only when rotated.
public final class ScreenCompositor {
    public let renderer: SDLRenderer
    public let rotation: ScreenRotation
    private var logical: SDLTexture?
    /// `--clock`: drawn over every view, its text set before each frame (`clockText`).
    public var clock: ClockPainter?
    public var clockText = ""

    init(renderer: SDLRenderer, rotation: ScreenRotation) {
        self.renderer = renderer
        self.rotation = rotation
    }

    /// Forgets the turned frame's texture, for a lost rendering device; the next frame makes it again.
    public func forgetTextures() {
        logical = nil
        clock?.forgetTextures()
    }

    /// The size the carousel lays out for a physical screen of `physical` pixels.
    public func viewport(physical: Size) -> Size { rotation.logicalSize(physical: physical) }

    /// Draws one frame into `target` (nil: the window), `physical` pixels in size.
    public func draw(_ scene: any Scene, physical: Size, into target: SDLTexture? = nil) throws(SDLError) {
        guard rotation != .none else {
            renderer.setTarget(target)
            scene.draw(on: renderer)
            clock?.draw(clockText, viewport: physical, on: renderer)
            return
        }
        let size = viewport(physical: physical)
        let (w, h) = (Int(size.width), Int(size.height))
        if logical?.width != w || logical?.height != h { logical = try renderer.makeTarget(width: w, height: h) }
        guard let logical else { return }
        renderer.setTarget(logical)
        scene.draw(on: renderer)
        clock?.draw(clockText, viewport: size, on: renderer)
        renderer.setTarget(target)
        renderer.clear(.black)
        renderer.drawTurned(logical, rotation: rotation, physical: physical)
    }
}
