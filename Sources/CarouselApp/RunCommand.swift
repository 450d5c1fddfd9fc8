import ArgumentParser
import CarouselCore
import CarouselMedia
import CarouselSDL
import Foundation

/// `carousel [run]`: the carousel in a window, full screen, or on KMS/DRM without a desktop.
public struct RunCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Show the carousel in a window or full screen (the default command).")

    @Option(help: ArgumentHelp("Window size.", valueName: "WxH"))
    var size = PixelSize(width: 1280, height: 720)

    @Flag(help: "Full screen at the desktop's resolution (F11 or f toggles).")
    var fullscreen = false

    @Option(help: "Display to open on, counted from 0.")
    var display = 0

    @Flag(inversion: .prefixedNo, help: "Wait for the display's refresh before showing a frame.")
    var vsync = true

    @Option(help: ArgumentHelp("Write the event log (JSON lines) to FILE, or to standard output with -.", valueName: "FILE|-"))
    var events: String?

    @OptionGroup var source: SourceOptions

    @OptionGroup var view: ViewOptions

    @OptionGroup(title: "Attract mode and flings") var behaviour: BehaviourOptions

    public init() {}

    public func validate() throws {
        if display < 0 { throw ValidationError("--display must be 0 or more, not \(display)") }
    }

    public func run() throws {
        let found = try source.resolve()
        let log = try events.map(EventLog.open)

        let session: SDLSession
        do { session = try SDLSession() } catch { throw Failure(DisplayAdvice.message(for: error)) }
        // Without X11 or Wayland (a text console, a systemd unit) there is only the whole screen.
        let kms = session.videoDriver.lowercased() == "kmsdrm"
        var options = SDLWindow.Options()
        options.width = size.width
        options.height = size.height
        options.fullscreen = fullscreen || kms
        options.display = display
        let window: SDLWindow
        do { window = try SDLWindow(options) } catch { throw Failure(DisplayAdvice.message(for: error)) }
        let renderer = try SDLRenderer(window: window, kind: view.renderer, vsync: vsync)
        let drawable = renderer.outputSize
        let text = try? TextRenderer(pointSize: max(14, min(36, Int(drawable.height) / 30)))
        let scene = try CarouselScene(
            sources: found, viewport: drawable, settings: view.carouselSettings(behaviour),
            startIndex: view.startIndex, renderer: renderer,
            painter: FramePainter(style: view.style, text: text),
            loading: source.loading(wake: EventQueue.wakeUp), log: log, time: EventQueue.now,
            warn: { Log.warn($0) })
        scene.emptyMessage = "No images found in " + (source.paths.isEmpty ? "the bundled Assets/ folder" : source.paths.joined(separator: ", "))

        var loop = InteractiveLoop(scene: scene, window: window, renderer: renderer)
        try loop.run()
        withExtendedLifetime(session) {}
    }
}
