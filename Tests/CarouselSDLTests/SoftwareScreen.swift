@testable import CarouselSDL
import Testing

/// A hidden window of `width` × `height` with SDL's software renderer on the dummy video
/// driver: what the SDL layer's tests draw on. Keep the whole value alive while drawing.
///
/// On the main actor, like every suite that draws (so they run one at a time, on the main
/// thread), and SDL set up once per test process, as the program does: each suite used to
/// start and stop SDL itself beside the others, which crashed the test process one run in
/// three (issue 40).
@MainActor struct SoftwareScreen {
    let session: SDLSession
    let window: SDLWindow
    let renderer: SDLRenderer

    /// The test process's one SDL session, made by the first screen and kept to the end.
    private static var shared: SDLSession?

    init(width: Int, height: Int) throws {
        let s = try Self.shared ?? SDLSession(videoDriver: "dummy")
        Self.shared = s
        session = s
        var options = SDLWindow.Options()
        options.hidden = true
        options.width = width
        options.height = height
        window = try SDLWindow(options, session: session)
        renderer = try SDLRenderer(window: window, kind: .software, vsync: false)
    }
}
