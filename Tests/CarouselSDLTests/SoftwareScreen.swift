@testable import CarouselSDL

/// A hidden window of `width` × `height` with SDL's software renderer on the dummy video
/// driver: what the SDL layer's tests draw on. Keep the whole value alive while drawing.
struct SoftwareScreen {
    let session: SDLSession
    let window: SDLWindow
    let renderer: SDLRenderer

    init(width: Int, height: Int) throws {
        session = try SDLSession(videoDriver: "dummy")
        var options = SDLWindow.Options()
        options.hidden = true
        options.width = width
        options.height = height
        window = try SDLWindow(options, session: session)
        renderer = try SDLRenderer(window: window, kind: .software, vsync: false)
    }
}
