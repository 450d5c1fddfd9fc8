import CarouselCore
import CarouselSDL

/// What the run loop draws on and reads input geometry from: the window, its renderer and
/// the compositor in the program (`SDLLoopScreen`); a stand-in that counts frames in tests,
/// which build the whole loop in process.
protocol LoopScreen: AnyObject {
    /// The drawable's size, pixels.
    var outputSize: Size { get }
    /// The view's size on it (turned for a panel mounted sideways).
    var viewport: Size { get }
    /// How window and touch coordinates map onto the view.
    var inputGeometry: InputGeometry { get }
    /// `--clock`'s text as drawn over the view.
    var clockText: String { get set }
    /// Draws `scene` into the screen (not presented yet).
    func draw(_ scene: any DrivenView) throws(SDLError)
    /// Shows what was drawn.
    func present()
    /// One black frame: the screen going dark.
    func showBlack()
    /// Reads the frame drawn back, BGRA or RGBA (true: BGRA); nil when it cannot.
    func readFrame(into buffer: inout [UInt8]) -> Bool?
    /// Switches the panel itself off or on where the display allows.
    func setPanel(on: Bool) -> PanelPower.Outcome
    func toggleFullscreen()
    /// The renderer lost its textures (a device reset): the screen's own go too.
    func forgetTextures()
}

/// The program's screen: an SDL window, its renderer and the compositor that turns frames
/// for the panel and draws the clock. Main thread.
final class SDLLoopScreen: LoopScreen {
    let window: SDLWindow
    let compositor: ScreenCompositor
    private let touch: TouchTransform
    private var renderer: SDLRenderer { compositor.renderer }

    init(window: SDLWindow, compositor: ScreenCompositor, touch: TouchTransform) {
        self.window = window
        self.compositor = compositor
        self.touch = touch
    }

    var outputSize: Size { renderer.outputSize }
    var viewport: Size { compositor.viewport(physical: renderer.outputSize) }
    var inputGeometry: InputGeometry {
        var g = InputGeometry(window: window.size, drawable: renderer.outputSize, origin: window.origin,
                              rotation: compositor.rotation, touch: touch)
        g.canvasOrigin = compositor.canvasOrigin(physical: renderer.outputSize)
        return g
    }
    var clockText: String {
        get { compositor.clockText }
        set { compositor.clockText = newValue }
    }

    func draw(_ scene: any DrivenView) throws(SDLError) { try compositor.draw(scene, physical: renderer.outputSize) }
    func present() { renderer.present() }

    func showBlack() {
        renderer.setTarget(nil)
        renderer.clear(.black)
        renderer.present()
    }

    func readFrame(into buffer: inout [UInt8]) -> Bool? {
        let size = renderer.outputSize
        renderer.setTarget(nil)
        return try? renderer.readFrame(width: Int(size.width), height: Int(size.height), into: &buffer)
    }

    func setPanel(on: Bool) -> PanelPower.Outcome { PanelPower.set(on: on, window: window) }
    func toggleFullscreen() { window.setFullscreen(!window.isFullscreen) }
    func forgetTextures() { compositor.forgetTextures() }
}
