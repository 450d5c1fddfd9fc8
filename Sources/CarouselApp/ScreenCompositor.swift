import CarouselCore
import CarouselPainting
import CarouselSDL

/// Draws the scene onto the physical screen (or a target of its size): directly, or for a
/// panel mounted sideways into a texture of the logical screen that is then turned onto
/// the physical one. One extra full-screen copy a frame, only when rotated.
public final class ScreenCompositor {
    public let renderer: SDLRenderer
    public let rotation: ScreenRotation
    /// `--span`: this screen draws its panel's part of a wall's canvas; nil: the whole view.
    public let span: WallSpan?
    private var logical: SDLTexture?
    /// `--clock`: drawn over every view, its text set before each frame (`clockText`).
    public var clock: ClockPainter?
    public var clockText = ""

    init(renderer: SDLRenderer, rotation: ScreenRotation, span: WallSpan? = nil) {
        self.renderer = renderer
        self.rotation = rotation
        self.span = span
    }

    /// Forgets the turned frame's texture, for a lost rendering device; the next frame makes it again.
    public func forgetTextures() {
        logical = nil
        clock?.forgetTextures()
    }

    /// The size the carousel lays out for a physical screen of `physical` pixels: the
    /// logical screen's, or a spanned wall's canvas.
    public func viewport(physical: Size) -> Size {
        let panel = rotation.logicalSize(physical: physical)
        return span?.canvas(panel: panel) ?? panel
    }

    /// Where the logical screen lies on the view's canvas (the origin but on a spanned wall).
    public func canvasOrigin(physical: Size) -> Point {
        span?.origin(panel: rotation.logicalSize(physical: physical)) ?? Point(x: 0, y: 0)
    }

    /// The scene, drawn on the current target: its part of the canvas where spanned.
    private func drawScene(_ scene: any DrivenView, physical: Size) {
        guard span != nil else { return scene.draw(on: renderer) }
        renderer.drawingCanvas(origin: canvasOrigin(physical: physical), size: viewport(physical: physical)) { scene.draw(on: renderer) }
    }

    /// Draws one frame into `target` (nil: the window), `physical` pixels in size.
    public func draw(_ scene: any DrivenView, physical: Size, into target: SDLTexture? = nil) throws(SDLError) {
        guard rotation != .none else {
            renderer.setTarget(target)
            drawScene(scene, physical: physical)
            clock?.draw(clockText, viewport: physical, on: renderer)
            return
        }
        let size = rotation.logicalSize(physical: physical)
        let (w, h) = (Int(size.width), Int(size.height))
        if logical?.width != w || logical?.height != h { logical = try renderer.makeTarget(width: w, height: h) }
        guard let logical else { return }
        renderer.setTarget(logical)
        drawScene(scene, physical: physical)
        clock?.draw(clockText, viewport: size, on: renderer)
        renderer.setTarget(target)
        renderer.clear(.black)
        renderer.drawTurned(logical, rotation: rotation, physical: physical)
    }
}
