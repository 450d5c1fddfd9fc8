import CarouselCore
import CarouselSDL

/// Where a view is drawn: SDL, a window, its renderer and the compositor that turns frames
/// for a panel mounted sideways. The one set-up `run`, `render` and `bench` share. On
/// screen, a display that cannot be opened is explained (`DisplayAdvice`); headless needs
/// no display at all.
public struct Display {
    public enum Kind {
        /// A window on the real display (X11, Wayland or KMS/DRM).
        case screen(vsync: Bool)
        /// No display: SDL's dummy driver with the software renderer, exact and needing
        /// nothing; or, for an OpenGL renderer, the offscreen driver (EGL).
        case headless
    }

    public let session: SDLSession
    public let window: SDLWindow
    public let renderer: SDLRenderer
    public let compositor: ScreenCompositor

    /// `configure` adjusts the window (size, full screen, display) before it opens.
    public init(_ kind: Kind, view: ViewOptions, size: PixelSize,
         configure: (inout SDLWindow.Options, SDLSession) -> Void = { _, _ in }) throws {
        let onScreen: Bool
        if case .screen = kind { onScreen = true } else { onScreen = false }
        let accelerated = view.renderer == .opengl || view.renderer == .opengles2
        do {
            session = try SDLSession(videoDriver: onScreen ? nil : (accelerated ? "offscreen" : "dummy"), inputLog: { Log.info($0) })
        } catch {
            throw onScreen ? Failure(DisplayAdvice.message(for: error)) : error
        }
        var options = SDLWindow.Options()
        options.width = size.width
        options.height = size.height
        options.hidden = !onScreen
        configure(&options, session)
        do { window = try SDLWindow(options, session: session) } catch {
            throw onScreen ? Failure(DisplayAdvice.message(for: error)) : error
        }
        switch kind {
        case .screen(let vsync):
            // On KMS/DRM SDL's own first choice, desktop OpenGL over EGL/GBM, drew only the
            // clear colour with Mesa's software GL (a virtual machine, found by kiosk/vm-test);
            // OpenGL ES 2 draws right there and is what a Raspberry Pi's GPU does best.
            if view.renderer == .auto && session.drawsOnKMS, let es = try? SDLRenderer(window: window, kind: .opengles2, vsync: vsync) {
                renderer = es
            } else {
                renderer = try SDLRenderer(window: window, kind: view.renderer, vsync: vsync)
            }
        case .headless:
            renderer = try SDLRenderer(window: window, kind: view.renderer == .auto ? .software : view.renderer, vsync: false)
        }
        compositor = ScreenCompositor(renderer: renderer, rotation: view.rotate, span: view.wallSpan)
    }

    /// The size views lay out: the drawable's, turned for a panel mounted sideways.
    var viewport: Size { compositor.viewport(physical: renderer.outputSize) }

    /// Whether frames must be paced by the loop: headless drivers and vsync off do not wait
    /// for a display refresh.
    func pacesItself(vsync: Bool) -> Bool {
        !vsync || ["dummy", "offscreen"].contains(session.videoDriver.lowercased())
    }
}
