import ArgumentParser
import CarouselCore
import CarouselMedia
import CarouselSDL
import Foundation
import CarouselClock
import CarouselSources

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

    @Option(help: ArgumentHelp("With --clock: the wall clock's time when the script starts, local time (default: now), so that frames with the clock are the same every run.", valueName: "YYYY-MM-DD HH:MM[:SS]"))
    var clockTime: String?

    @OptionGroup var source: SourceOptions

    @OptionGroup var view: ViewOptions

    @OptionGroup(title: "Attract mode and flings") var behaviour: BehaviourOptions

    public init() {}

    public mutating func validate() throws {
        // A render draws the order asked for, name by default even with --autoplay: a fair
        // round is a kiosk's own, kept between its runs, and a render keeps nothing.
        try source.settleOrder(autoplay: false)
        if let c = clockTime, Self.wallTime(c) == nil { throw ValidationError("--clock-time '\(c)': expected YYYY-MM-DD HH:MM or YYYY-MM-DD HH:MM:SS") }
    }

    /// `text` (YYYY-MM-DD HH:MM[:SS]) as a moment, in the machine's time zone.
    static func wallTime(_ text: String) -> Date? {
        let parts = text.split(whereSeparator: { $0 == " " || $0 == "T" })
        guard parts.count == 2 else { return nil }
        let day = parts[0].split(separator: "-").compactMap { Int($0) }, time = parts[1].split(separator: ":").compactMap { Int($0) }
        guard day.count == 3, time.count == 2 || time.count == 3, (1970...9999).contains(day[0]), (1...12).contains(day[1]),
              (1...31).contains(day[2]), (0...23).contains(time[0]), (0...59).contains(time[1]), time.count == 2 || (0...59).contains(time[2])
        else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .current
        let c = DateComponents(year: day[0], month: day[1], day: day[2], hour: time[0], minute: time[1], second: time.count == 3 ? time[2] : 0)
        guard let date = calendar.date(from: c), calendar.component(.day, from: date) == day[2] else { return nil }
        return date
    }

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
        let loadings = LoadingMaker(source, home: view.home, broken: source.broken ?? .show, readsPlaces: view.captionsSayPlace)  // helpers start while the rest does
        var found = try source.resolveWaitingForWeb()
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
        // Pairs are made for the screen's shape, as the window makes them.
        if let pairs = source.pairs(on: compositor.viewport(physical: size.size)) { found = PortraitPairing.pair(found, screen: pairs) }
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
        // The clock at the script's time: from --clock-time, or now.
        compositor.clock = try view.clockPainter(height: Int(compositor.viewport(physical: size.size).height))
        let clockStart = clockTime.flatMap(Self.wallTime) ?? SystemClock.date
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
                if let face = view.clockFace { compositor.clockText = ClockText(face: face, wallClock: { clockStart.addingTimeInterval(t) }).text() }
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
