import ArgumentParser
import CarouselCore
import CarouselMedia
import CarouselSDL
import Foundation

/// `carousel render`: draws the carousel headless from a gesture script, writing PNG
/// snapshots and an event log. Needs no display.
public struct RenderCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Render the carousel headless from a gesture script into PNG files and an event log.")

    @Option(help: ArgumentHelp("Viewport size.", valueName: "WxH"))
    var size = PixelSize(width: 1280, height: 720)

    @Option(help: ArgumentHelp("Gesture script to play.", valueName: "FILE"))
    var script: String

    @Option(help: ArgumentHelp("Folder for the PNG snapshots and events.jsonl (created if missing).", valueName: "DIR"))
    var out: String

    @OptionGroup var source: SourceOptions

    @OptionGroup var view: ViewOptions

    @OptionGroup(title: "Attract mode and flings") var behaviour: BehaviourOptions

    public init() {}

    public func run() throws {
        SignalWatcher.useDefaultActions()
        let scriptText: String
        do { scriptText = try String(contentsOfFile: script, encoding: .utf8) } catch {
            throw Failure("\(script): cannot be read")
        }
        let parsed: GestureScript
        do { parsed = try GestureScript(parsing: scriptText) } catch {
            throw Failure("\(script): \(error)")
        }
        let loadings = LoadingMaker(source, home: view.home, broken: source.broken ?? .show)  // helpers start while the rest does
        let found = try source.resolveWaitingForWeb()
        do {
            try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        } catch {
            throw Failure("\(out): cannot create the output folder")
        }
        let log = try EventLog.open(out + "/events.jsonl")

        // --size is the physical screen; a rotated panel's carousel lays out the logical one,
        // and scripts give points on that logical screen.
        let display = try Display(.headless, view: view, size: size)
        let (renderer, compositor) = (display.renderer, display.compositor)
        var viewport = size
        let text = try view.textRenderer(height: Int(compositor.viewport(physical: size.size).height), largest: 32)
        var target = try renderer.makeTarget(width: viewport.width, height: viewport.height)
        // Thumbnails only when asked for: a cache filled by an earlier run would change the
        // frames; and no previews, whose frames would depend on how fast the workers were.
        let thumbnails = source.thumbnails(standardByDefault: false)
        let scene = try view.makeScene(
            sources: found, viewport: compositor.viewport(physical: viewport.size), behaviour: behaviour,
            renderer: renderer, painter: view.painter(text: text, renderer: renderer, viewport: compositor.viewport(physical: viewport.size), decoder: source.decoderSettings),
            loading: loadings.perView(waitsForImages: true, thumbnails: thumbnails, backdrops: view.fill != .none),
            log: log, time: 0, warn: RemoteSources.warnUnlessSaid)
        let emptyMessage = source.paths.contains(where: RemoteURL.isRemote) ? source.emptyMessage : SceneChange.noPictures
        try scene.apply(.emptyMessage(emptyMessage))

        // `--broken skip`: what failed is left out before the frame is taken, as the window
        // leaves it out at rest (and what takes its place may fail too).
        let advance = { (t: Double) throws(SDLError) in
            try scene.advance(to: t)
            while scene.activity.resting, try loadings.broken?.leaveOut(of: scene, time: t, otherwise: emptyMessage) == true {
                try scene.advance(to: t)
            }
        }
        var player = ScriptPlayer()
        try player.play(parsed, hooks: ScriptPlayer.Hooks(
            input: { try scene.handle($0) },
            advance: { try advance($0) },
            resize: { w, h, t in
                viewport = PixelSize(width: w, height: h)
                target = try renderer.makeTarget(width: w, height: h)
                try scene.handle(.resize(compositor.viewport(physical: viewport.size), time: t))
            },
            snapshot: { name, t in
                try advance(t)
                try compositor.draw(scene, physical: viewport.size, into: target)
                let image = try renderer.readPixels(width: viewport.width, height: viewport.height)
                renderer.setTarget(nil)
                try PNGCodec.write(image, to: out + "/" + name + ".png")
            },
            deviceReset: { t in
                // What the window does on SDL_RENDER_DEVICE_RESET: every texture made again.
                target = try renderer.makeTarget(width: viewport.width, height: viewport.height)
                compositor.forgetTextures()
                try scene.apply(.texturesLost(time: t))
            },
            memoryPressure: { level, t in
                // The prefetched images all in, so that what is dropped is the same every run.
                try scene.finishLoading()
                try scene.apply(.memoryPressure(level, time: t))
            },
            apply: { change in try scene.apply(change) },
            scrollsVertically: { scene.scrollsVertically }))
        withExtendedLifetime(display) {}
    }
}
