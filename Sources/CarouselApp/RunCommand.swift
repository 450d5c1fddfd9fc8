import ArgumentParser
import CarouselControl
import CarouselCore
import CarouselDevices
import CarouselMedia
import CarouselSDL
import CLinux
import Foundation
import TOMLReader
import CarouselClock
import CarouselSources

/// `carousel [run]`: the carousel in a window, full screen, or on KMS/DRM without a desktop.
public struct RunCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Show the carousel in a window or full screen (the default command).")

    @Option(help: ArgumentHelp("Window size.", valueName: "WxH"))
    var size = PixelSize(width: 1280, height: 720)

    @Option(help: ArgumentHelp("Read options from a TOML file; options on the command line win (see kiosk/carousel.toml).", valueName: "FILE"))
    var config: String?

    @Flag(help: "Print the effective configuration as TOML and exit.")
    var printConfig = false

    @Flag(inversion: .prefixedNo, help: "Full screen at the desktop's resolution (F11 or f toggles).")
    var fullscreen = false

    @Option(help: "Display to open on, counted from 0.")
    var display = 0

    @Flag(inversion: .prefixedNo, help: "Wait for the display's refresh before showing a frame.")
    var vsync = true

    @Flag(inversion: .prefixedNo, help: "Kiosk mode: full screen, no pointer, no screen blanking; only --quit-keys or a signal quits.")
    var kiosk = false

    @Option(help: ArgumentHelp("Correct a touch panel whose axes disagree with the display: any of swap-xy, invert-x, invert-y, comma-separated, or none.", valueName: "LIST"))
    var touchTransform = TouchTransform()

    @Option(help: ArgumentHelp("Opening hours, e.g. \"Mon-Fri 08:00-18:00, Sat 10:00-16:00\": outside them the screen is black and the program sleeps; a touch wakes it for --idle-resume seconds.", valueName: "HOURS"))
    var schedule: String?

    @Option(help: ArgumentHelp("Within the opening hours, the screen goes dark SECONDS after the last presence (--presence-key, --presence-topic, the control API's /presence) or touch, and a presence wakes it.", valueName: "SECONDS"))
    var presenceTimeout: Double?

    @Option(help: ArgumentHelp("An MQTT topic saying whether someone is there (a Home Assistant occupancy or motion sensor's state: ON/OFF, or Zigbee2MQTT's {\"occupancy\": true}); needs --mqtt.", valueName: "TOPIC"))
    var presenceTopic: String?

    @Option(help: ArgumentHelp("An input key that says someone is there while it is held (a PIR motion sensor through the gpio-key overlay; the kernel's key code, e.g. 143 for KEY_WAKEUP); needs --presence-timeout.", valueName: "CODE"))
    var presenceKey: Int?

    @Option(help: ArgumentHelp("Switch the TV over HDMI-CEC (/dev/cecN, or auto: the first adapter): it goes to standby and wakes with the screen, and its remote's arrows, OK and Back steer the show.", valueName: "DEVICE|auto"))
    var cec: String?

    @Option(help: ArgumentHelp("Key combination that quits, also in kiosk mode, or none.", valueName: "COMBO|none"))
    var quitKeys = QuitKeys(combo: KeyCombo(parsing: "ctrl+alt+q"))

    @Option(help: ArgumentHelp("Read again every SECONDS what inotify cannot watch (network and FUSE mounts, a source not there yet); 0: never.", valueName: "SECONDS"))
    var rescan: Double = 30

    @Option(help: ArgumentHelp("Write the event log (JSON lines) to FILE, or to standard output with -.", valueName: "FILE|-"))
    var events: String?

    @OptionGroup var source: SourceOptions

    @OptionGroup var view: ViewOptions

    @OptionGroup(title: "Attract mode and flings") var behaviour: BehaviourOptions

    @OptionGroup(title: "Remote control") var remote: ControlOptions

    @OptionGroup(title: "Screens in step") var screens: GroupOptions

    public init() {}

    public mutating func validate() throws {
        try source.settleOrder(autoplay: behaviour.autoplay != nil)
        if let schedule {
            do { _ = try Schedule(parsing: schedule) } catch { throw ValidationError("--schedule: \(error.description)") }
        }
        if !(rescan >= 0 && rescan.isFinite) { throw ValidationError("--rescan must be 0 or more seconds, not \(rescan)") }
        if display < 0 { throw ValidationError("--display must be 0 or more, not \(display)") }
        if let t = presenceTimeout, !(t >= 5 && t <= 86_400) { throw ValidationError("--presence-timeout must be 5 to 86400 seconds, not \(t)") }
        if let topic = presenceTopic {
            if remote.mqtt == nil && !ConfigFile.checkingOneKey { throw ValidationError("--presence-topic needs --mqtt (the broker the sensor publishes to)") }
            if topic.isEmpty || topic.contains("+") || topic.contains("#") || topic.utf8.count > 256 {
                throw ValidationError("--presence-topic must be one topic, without + or #, not \(topic)")
            }
            if presenceTimeout == nil && !ConfigFile.checkingOneKey { throw ValidationError("--presence-topic needs --presence-timeout SECONDS (how long the screen stays on after the last presence)") }
        }
        if let key = presenceKey {
            if !(1...0x2FF).contains(key) { throw ValidationError("--presence-key must be a key code from 1 to 767 (linux/input-event-codes.h), not \(key)") }
            if presenceTimeout == nil && !ConfigFile.checkingOneKey { throw ValidationError("--presence-key needs --presence-timeout SECONDS (how long the screen stays on after the last presence)") }
        }
        if let cec, cec != "auto" && !cec.hasPrefix("/") {
            throw ValidationError("--cec must be a device (/dev/cec0) or auto, not \(cec)")
        }
        try screens.validate(mqtt: remote.mqtt)
    }

    /// The command line after `carousel [run]`, with `--config`'s file merged in.
    static func parseMerged(_ commandLine: [String]) throws -> RunCommand {
        let own = commandLine.first == "run" ? Array(commandLine.dropFirst()) : commandLine
        return try ConfigFile.merge(own, into: RunCommand.self, config: \.config, hasSources: { !$0.source.paths.isEmpty })
    }

    /// Every option's value, as a config file would give it.
    var configEntries: [ConfigEntry] {
        [.init("size", .string(size.description)), .init("fullscreen", .bool(fullscreen)),
         .init("display", .number(Double(display))), .init("vsync", .bool(vsync)),
         .init("kiosk", .bool(kiosk)), .init("schedule", schedule.map { .string($0) }, unset: "always on"),
         .init("touch-transform", .string(touchTransform.description)),
         .init("presence-timeout", presenceTimeout.map { .number($0) }, unset: "off"),
         .init("presence-topic", presenceTopic.map { .string($0) }, unset: "none"),
         .init("presence-key", presenceKey.map { .number(Double($0)) }, unset: "none"),
         .init("cec", cec.map { .string($0) }, unset: "off"),
         .init("quit-keys", .string(quitKeys.defaultValueDescription)),
         .init("rescan", .number(rescan)), .init("events", events.map { .string($0) }, unset: "none")]
            + source.configEntries + view.configEntries + behaviour.configEntries + remote.configEntries + screens.configEntries
    }

    public func run() throws { try run(observer: nil) }

    /// Makes what rides along the run loop, given the window's size and the time it starts
    /// (`carousel bench --soak`'s driver); nil: nothing does.
    public typealias ObserverMaker = (_ width: Int, _ height: Int, _ now: Double) -> any LoopObserver

    /// Runs with `observer` riding along the loop.
    public func run(observer makeObserver: ObserverMaker?) throws {
        if printConfig {
            print(ConfigEntry.toml(configEntries), terminator: "")
            return
        }
        // First, before any thread exists: SIGTERM, SIGINT and SIGHUP become events.
        SignalWatcher.start()
        // The one clock of the run: the loop, the control API, MQTT and the event log read it.
        let clock = LoopClock.system
        // A kiosk starts even when its folder is not there yet (a USB stick or a network
        // share still mounting at boot): it says so on screen and picks the folder up when
        // it appears. Run by hand, a wrong path is a mistake to report at once.
        // Skipped files are logged once, here or by a later rescan, never both.
        var noted: Set<String> = []
        let noteOnce = { (line: String) in if noted.insert(line).inserted { Log.info(line) } }
        // Decoder helpers start while the folders are scanned and the screen is set up.
        // --order fair or random in a group: the group's seeded order, the same on every screen.
        ShowOrderSeed.group = screens.group
        var earlyLoadings: LoadingMaker? = LoadingMaker(source, home: view.home, broken: source.broken ?? (kiosk ? .skip : .show),
                                                        readsPlaces: view.captionsSayPlace)
        var scanned = try source.resolveAll(tolerant: kiosk, note: noteOnce)
        var found = scanned.sources
        // The control API: listening before the screen opens, so a wrong address or a
        // missing token stops the start at once.
        var channel: GroupChannel?
        let control = try remote.start(clock: clock) { [presenceTopic] link in
            if let presenceTopic { link.listenForPresence(on: presenceTopic) { Log.info($0) } }
            channel = screens.group.map { name in
                GroupChannel(link: link, group: name, screen: link.id, show: "", log: { Log.info($0) }, wake: { WakeReason.workDone.post() })
            }
        }
        let tap = control.map { desk in { @Sendable (type: String, fields: [(String, String)], line: String) in
            desk.desk.feed.record(type: type, fields: fields, line: line) } }
        let log = try events.map { try EventLog.open($0, tap: tap) } ?? tap.map { EventLog(write: { _ in }, tap: $0) }

        let screen = try openScreen()
        let (session, renderer, compositor) = (screen.session, screen.renderer, screen.compositor)
        let text = try view.textRenderer(height: Int(compositor.viewport(physical: renderer.outputSize).height), smallest: 14)
        // Pairs are made once the screen's shape is known (scanned before it, for a fast start).
        if let pairs = source.pairs(on: compositor.viewport(physical: renderer.outputSize)) {
            scanned.sources = PortraitPairing.pair(scanned.sources, screen: pairs)
            found = scanned.sources
        }
        let clockOrigin = clock.now()
        RemoteSources.report(to: log, timeOrigin: clockOrigin)
        let pressure = Self.watchMemoryPressure()
        // --order fair starts where its kept round was (unless --start-index says where).
        var startIndex = view.startIndex == 0 ? source.fairRound?.startIndex(in: found) ?? 0 : view.startIndex
        // What SIGHUP may change: everything but the window, the renderer and the event log.
        var current = self

        // Headless drivers and --no-vsync do not pace frames: the loop does, at 60 a second.
        let paced = screen.pacesItself(vsync: vsync)
        let observer = makeObserver?(size.width, size.height, clock.now())

        // In a group the group's timeline steps the show (the engine's autoplay is off).
        let group = screens.group.map { name in
            ScreenGroup(name: name, screen: channel?.screen ?? ControlOptions.defaultScreenID,
                        epoch: screens.epoch, interval: behaviour.autoplay, lead: screens.groupLead ?? GroupOptions.defaultLead,
                        idle: behaviour.idleResume ?? AttractSettings().idleResume, channel: channel, now: clock.now(),
                        wallOffset: { WallClock.now() - clock.now() }, log: log, timeOrigin: clockOrigin,
                        identity: source.showIdentity)
        }
        if let group { Log.info("group \(group.name): screen \(group.member.screen), \(screens.epoch == nil ? "the epoch agreed over the broker" : "epoch \(screens.groupEpoch ?? "")"), \(behaviour.autoplay.map { "a step every \($0) s" } ?? "no autoplay")") }

        let television = openTelevision()
        let presenceSensor = presenceKey.flatMap { code in
            PresenceKeyReader(code: UInt16(code), log: { Log.info($0) }, notify: { WakeReason.presenceKey.post() })
        }
        var reloads = 0
        while true {
            // The scene before a reload is gone now: hand back what it freed.
            if reloads > 0 { FreedMemory.returnToSystem() }
            var view = current.view
            view.startIndex = startIndex
            let thumbnails = current.source.thumbnails(standardByDefault: true)
            let loadings = earlyLoadings ?? LoadingMaker(current.source, home: current.view.home,
                                                         broken: current.source.broken ?? (current.kiosk ? .skip : .show),
                                                         readsPlaces: current.view.captionsSayPlace)
            earlyLoadings = nil
            var behaviour = current.behaviour
            if group != nil { behaviour.autoplay = nil }
            let perView = loadings.perView(wake: EventQueue.wakeUp, thumbnails: thumbnails, previews: thumbnails,
                                           backdrops: current.view.fill != .none)
            // In a group with autoplay a clip holds the group's show as autoplay's own would.
            let holdsGroup = group != nil && current.behaviour.autoplay != nil
            let loading = { (size: ThumbnailCache.Size?) -> ImageLoading in
                var made = perView(size)
                made.clips?.holdsGroup = holdsGroup
                return made
            }
            let scene = try view.makeScene(
                sources: found, viewport: compositor.viewport(physical: renderer.outputSize), behaviour: behaviour,
                renderer: renderer, painter: current.view.painter(text: text, renderer: renderer, viewport: compositor.viewport(physical: renderer.outputSize),
                                                                decoder: current.source.decoderSettings),
                loading: loading,
                log: log, time: clock.now(), timeOrigin: clockOrigin, wake: EventQueue.wakeUp, warn: RemoteSources.warnUnlessSaid)
            try scene.apply(.emptyMessage(current.source.emptyMessage))
            if let level = pressure?.level, level != .normal { try scene.apply(.memoryPressure(level, time: clock.now())) }
            var shown = scanned
            shown.sources = found  // a failed reload keeps what rescans made of it
            let pairs = current.source.pairs(on: compositor.viewport(physical: renderer.outputSize))
            let catalog = CatalogUpdater(options: current.source, initial: shown,
                                         noted: noted, rescanInterval: current.rescan > 0 ? current.rescan : nil, now: clock.now(),
                                         scan: { [source = current.source] note in try source.scan(tolerant: true, pairs: pairs, note: note) },
                                         wake: { WakeReason.foldersChanged.post() }, scanned: { WakeReason.workDone.post() })
            let loop = try current.loop(showing: scene, on: screen, clock: clock)
            loop.framePacing = paced ? 1.0 / 60 : nil
            loop.observe(observer, window: screen.window, scene: scene)
            // The parts riding the loop, in the order they act: the screen's power first (a
            // touch on a dark screen only wakes it), the control API last (it publishes what
            // the others did).
            loop.add(ScreenPowerPart(plan: try current.screenPlan(), television: television, presenceSensor: presenceSensor,
                                     tellTelevisionAtStart: reloads == 0))
            loop.add(BacklightPart())
            loop.add(group.map { GroupPart(group: $0, showing: scene.sources) })
            loop.add(CatalogPart(catalog: catalog, broken: loadings.broken, showChanged: { group?.showChanged($0) }))
            loop.add(current.view.clockFace.map { ClockOverlayPart(face: ClockText(face: $0)) })
            loop.add(pressure.map { MemoryPressurePart(watcher: $0) })
            loop.add(control.map { ControlPart(desk: $0.desk, clock: clock, canPlay: current.behaviour.autoplay != nil,
                                               wall: current.view.home.isTiled ? current.view.home : nil,
                                               controlURL: current.remote.peopleURL) })
            guard try loop.run() == .reload else { break }
            reloads += 1

            // SIGHUP: the config file and the sources again; the centred picture stays
            // centred if it is still there. A mistake in either keeps what is shown.
            let centred = scene.state.focus.map { scene.sources[$0].path }
            found = scene.sources
            if let token = control?.token {
                do throws(ControlRefusal) { try token.reload() } catch { Log.warn("\(error.reason); the token in use stays") }
            }
            if let (next, fresh) = current.reloaded(viewport: compositor.viewport(physical: renderer.outputSize), note: noteOnce) {
                // At the signal's time: a carousel at rest last advanced its clock long ago.
                scene.recordCatalogChange(from: found, to: fresh.sources, at: clock.now())
                (current, scanned, found) = (next, fresh, fresh.sources)
                Log.info("reloaded: \(found.count) images")
            }
            startIndex = centred.flatMap { p in found.firstIndex { $0.path == p } } ?? scene.state.focus ?? 0
        }
        control?.stop()
        television?.stop()
        presenceSensor?.stop()
        withExtendedLifetime(session) {}
    }
}

extension RunCommand {
    /// The window (or the whole screen) this run draws on, said in the log: what SDL chose
    /// is the first thing to know in the journal of a kiosk nobody watches.
    func openScreen() throws -> Display {
        // On a text console (the kiosk unit), the screen shows this program's terminal.
        if let problem = ConsoleTerminal.bringForward() { Log.warn(problem) }
        let screen = try Display(.screen(vsync: vsync), view: view, size: size) { options, session in
            // Without X11 or Wayland (a text console, a systemd unit) there is only the whole screen.
            options.fullscreen = fullscreen || kiosk || session.drawsOnKMS
            // A screen unplugged at boot must not leave a kiosk dark: say so and use the first.
            let displays = session.displayCount
            options.display = display < displays ? display : 0
            if display >= displays {
                Log.warn("--display \(display): there is no such display (this machine has \(displays), from 0); showing on display 0")
            }
        }
        let session = screen.session, output = screen.renderer.outputSize
        Log.info("screen: SDL video driver \(session.videoDriver), renderer \(screen.renderer.driverName), \(Int(output.width))x\(Int(output.height))")
        if session.drawsOnKMS {
            let udev = EventQueue.hearsUdev ? " and udev's announcements" : ""
            Log.info(session.inputDevicesRead.map { "input: read from the devices themselves, \($0) at start; those plugged in later through /dev/input\(udev)" }
                     ?? "input: /dev/input cannot be watched, so SDL reads the devices and its event wait polls every millisecond at rest")
        }
        if kiosk {
            session.showCursor(false)
            session.disableScreenSaver()
        }
        return screen
    }

    /// The run loop for `scene` on `screen`, with these options' keys (its parts are added
    /// by `run`).
    func loop(showing scene: any Scene, on screen: Display, clock: LoopClock) throws -> InteractiveLoop {
        // The clock as this run's options say (a reload may change it).
        screen.compositor.clock = try view.clockPainter(height: Int(screen.compositor.viewport(physical: screen.renderer.outputSize).height))
        screen.compositor.clockText = ""
        return InteractiveLoop(scene: scene, screen: SDLLoopScreen(window: screen.window, compositor: screen.compositor, touch: touchTransform),
                               events: SDLLoopEvents(clock: clock), keys: KeyBindings(kiosk: kiosk, quit: quitKeys.combo), clock: clock)
    }

    /// The screen's hours (`--schedule`), how long a touch keeps it awake and how long a
    /// presence does.
    func screenPlan() throws -> ScreenPlan {
        var plan = ScreenPlan(hours: try schedule.map { OpeningHours(schedule: try Schedule(parsing: $0)) },
                              wakeDuration: view.carouselSettings(behaviour).attract.idleResume)
        plan.presenceTimeout = presenceTimeout
        return plan
    }

    /// SIGHUP: the options (the config file read again) and their sources; nil, said in the
    /// log, when either has a mistake (what is shown stays).
    func reloaded(viewport: Size, note: (String) -> Void) -> (RunCommand, SourceScanner.Result)? {
        do {
            let next = config == nil ? self : try Self.parseMerged(Array(CommandLine.arguments.dropFirst()))
            let fresh = try next.source.resolveAll(tolerant: next.kiosk, pairs: next.source.pairs(on: viewport), note: note)
            if next.cec != cec || next.presenceKey != presenceKey {
                Log.warn("reload: --cec and --presence-key take effect at the next start (systemctl restart kiosk-carousel)")
            }
            if next.remote.values != remote.values {
                Log.warn("reload: the control and MQTT options take effect at the next start (systemctl restart kiosk-carousel); the token file is read again now")
            }
            return (next, fresh)
        } catch {
            Log.warn("reload failed, nothing changed: \(Self.message(for: error))")
            return nil
        }
    }

    /// `--cec`'s adapter, opened for the whole run (reloads keep it); nil, said in one line,
    /// when there is none or it cannot be used: the panel is then switched by DPMS alone.
    func openTelevision() -> CECAdapter? {
        guard let cec else { return nil }
        var path = cec
        if cec == "auto" {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: "/dev")) ?? []
            guard let first = names.filter({ $0.hasPrefix("cec") && Int($0.dropFirst(3)) != nil })
                .sorted(by: { Int($0.dropFirst(3))! < Int($1.dropFirst(3))! }).first else {
                Log.warn("--cec auto: this machine has no HDMI-CEC adapter (/dev/cec*); the panel is switched by DPMS only")
                return nil
            }
            path = "/dev/" + first
        }
        switch CECAdapter.open(path, name: "KioskCarousel", log: { Log.info($0) }, notify: { WakeReason.television.post() }) {
        case .success(let adapter): return adapter
        case .failure(let problem):
            Log.warn("--cec: \(problem); the panel is switched by DPMS only")
            return nil
        }
    }

    /// Watches the kernel's memory pressure for the whole run (reloads keep it); nil, said
    /// once in the log, where the kernel does not report it.
    static func watchMemoryPressure() -> MemoryPressureWatcher? {
        let (source, note) = PSIMemorySource.open()
        if let note { Log.info(note) }
        guard let source else { return nil }
        return MemoryPressureWatcher(source: source) { _ in WakeReason.memoryPressure.post() }
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

extension TouchTransform: ExpressibleByArgument {
    public init?(argument: String) { self.init(parsing: argument) }
    public var defaultValueDescription: String { description }
}
