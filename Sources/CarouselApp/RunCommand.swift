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

    @Flag(help: "Kiosk mode: full screen, no pointer, no screen blanking; only --quit-keys or a signal quits.")
    var kiosk = false

    @Option(help: ArgumentHelp("Key combination that quits, also in kiosk mode, or none.", valueName: "COMBO|none"))
    var quitKeys = QuitKeys(combo: KeyCombo(parsing: "ctrl+alt+q"))

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
        // First, before any thread exists: SIGTERM, SIGINT and SIGHUP become events.
        SignalWatcher.start()
        var found = try source.resolve()
        let log = try events.map(EventLog.open)

        let session: SDLSession
        do { session = try SDLSession() } catch { throw Failure(DisplayAdvice.message(for: error)) }
        // Without X11 or Wayland (a text console, a systemd unit) there is only the whole screen.
        let kms = session.videoDriver.lowercased() == "kmsdrm"
        var options = SDLWindow.Options()
        options.width = size.width
        options.height = size.height
        options.fullscreen = fullscreen || kiosk || kms
        options.display = display
        let window: SDLWindow
        do { window = try SDLWindow(options) } catch { throw Failure(DisplayAdvice.message(for: error)) }
        if kiosk {
            session.showCursor(false)
            session.disableScreenSaver()
        }
        let renderer = try SDLRenderer(window: window, kind: view.renderer, vsync: vsync)
        let text = try? TextRenderer(pointSize: max(14, min(36, Int(renderer.outputSize.height) / 30)))
        let keys = KeyBindings(kiosk: kiosk, quit: quitKeys.combo)
        let clockOrigin = EventQueue.now
        var startIndex = view.startIndex

        while true {
            let scene = try CarouselScene(
                sources: found, viewport: renderer.outputSize, settings: view.carouselSettings(behaviour),
                startIndex: startIndex, renderer: renderer,
                painter: FramePainter(style: view.style, text: text),
                loading: source.loading(wake: EventQueue.wakeUp), log: log, time: EventQueue.now,
                timeOrigin: clockOrigin, warn: { Log.warn($0) })
            scene.emptyMessage = "No images found in " + (source.paths.isEmpty ? "the bundled Assets/ folder" : source.paths.joined(separator: ", "))
            var loop = InteractiveLoop(scene: scene, window: window, renderer: renderer, keys: keys)
            guard try loop.run() == .reload else { break }

            // SIGHUP: the sources again; the centred picture stays centred if it is still there.
            let centred = scene.carousel.currentIndex.map { scene.sources[$0].path }
            do {
                let fresh = try source.resolve()
                scene.recordCatalogChange(from: found, to: fresh)
                found = fresh
            } catch {
                Log.warn("reload: \(error); keeping the images shown")
            }
            startIndex = centred.flatMap { p in found.firstIndex { $0.path == p } } ?? scene.carousel.currentIndex ?? 0
        }
        withExtendedLifetime(session) {}
    }
}

/// `--quit-keys`: a key combination, or `none`.
struct QuitKeys: ExpressibleByArgument, Sendable {
    var combo: KeyCombo?

    init(combo: KeyCombo?) { self.combo = combo }

    init?(argument: String) {
        if argument.lowercased() == "none" { combo = nil; return }
        guard let c = KeyCombo(parsing: argument) else { return nil }
        combo = c
    }

    var defaultValueDescription: String { combo?.description ?? "none" }
}
