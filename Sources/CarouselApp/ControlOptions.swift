import CarouselCore
import CarouselSDL
import ArgumentParser
import Foundation
import CarouselControl
import CarouselMedia
import CarouselSources

/// `--control` and its token (the HTTP control API) and `--mqtt` (MQTT and Home
/// Assistant): both off by default, one control part under both.
struct ControlOptions: ParsableArguments, Sendable {
    @Option(help: ArgumentHelp("Serve the control API (status, commands, screenshot, events, Prometheus metrics) on ADDR:PORT, e.g. 127.0.0.1:8080; any address but loopback needs --control-token-file.", valueName: "ADDR:PORT"))
    var control: String?

    @Option(help: ArgumentHelp("A file holding the bearer token every control request must carry (read at start and on SIGHUP).", valueName: "FILE"))
    var controlTokenFile: String?

    @Option(help: ArgumentHelp("Publish state to an MQTT broker and follow its commands, with Home Assistant discovery: mqtt://HOST[:PORT] or mqtts://HOST[:PORT].", valueName: "URL"))
    var mqtt: String?

    @Option(help: ArgumentHelp("The CA certificates an mqtts:// broker is checked against (default: the system's).", valueName: "FILE"))
    var mqttCaFile: String?

    @Option(help: ArgumentHelp("The user name given to the MQTT broker.", valueName: "NAME"))
    var mqttUser: String?

    @Option(help: ArgumentHelp("A file holding the MQTT password.", valueName: "FILE"))
    var mqttPasswordFile: String?

    @Option(help: ArgumentHelp("Names this screen to MQTT: its topics kiosk-carousel/ID/... and its Home Assistant device (default: the host name).", valueName: "ID"))
    var mqttId: String?

    init() {}

    /// The screen's name when `--mqtt-id` is not given (and a group's screen id): the host name.
    static var defaultScreenID: String { MQTTSettings.topicSafe(RemoteURL.hostname) }

    /// `--control`'s host and port.
    var endpoint: (host: String, port: Int)? {
        guard let control, let colon = control.lastIndex(of: ":") else { return nil }
        var host = String(control[..<colon])
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard !host.isEmpty, let port = Int(control[control.index(after: colon)...]), (0...65535).contains(port) else { return nil }
        return (host, port)
    }

    /// The control API's status page as other machines reach it (Home Assistant's link to
    /// the screen); nil when it listens on loopback only, or not at all.
    var peopleURL: String? {
        guard let (host, port) = endpoint, port != 0, !ControlServer.isLoopback(host) else { return nil }
        let name = host == "0.0.0.0" || host == "::" ? ProcessInfo.processInfo.hostName : host
        return "http://\(name.contains(":") ? "[\(name)]" : name):\(port)/status"
    }

    func validate() throws {
        if let mqtt, MQTTSettings.parse(url: mqtt) == nil {
            throw ValidationError("--mqtt must be mqtt://HOST[:PORT] or mqtts://HOST[:PORT], not \(mqtt)")
        }
        if !ConfigFile.checkingOneKey {
            if mqtt == nil, mqttCaFile != nil || mqttUser != nil || mqttPasswordFile != nil || mqttId != nil {
                throw ValidationError("--mqtt-ca-file, --mqtt-user, --mqtt-password-file and --mqtt-id are for --mqtt, which is not set")
            }
            if mqttPasswordFile != nil && mqttUser == nil { throw ValidationError("--mqtt-password-file needs --mqtt-user") }
            if control == nil && controlTokenFile != nil { throw ValidationError("--control-token-file is for --control, which is not set") }
        }
        if let mqtt, mqttCaFile != nil, !mqtt.hasPrefix("mqtts://") { throw ValidationError("--mqtt-ca-file is for an mqtts:// broker") }
        if let id = mqttId, id.isEmpty || MQTTSettings.topicSafe(id) != id {
            throw ValidationError("--mqtt-id may hold letters, digits, - and _ only (up to 64), not \(id)")
        }
        // kiosk-carousel/group/… is the groups' own: a screen named so would own every
        // group's topics under a broker's per-screen rules (kiosk/mosquitto-kiosk.acl).
        if mqttId == "group" { throw ValidationError("--mqtt-id group is taken by the groups' topics (kiosk-carousel/group/…): name the screen otherwise") }
        guard let control else { return }
        guard let (host, _) = endpoint else {
            throw ValidationError("--control must be ADDR:PORT (e.g. 127.0.0.1:8080 or 0.0.0.0:8080), not \(control)")
        }
        if !ControlServer.isLoopback(host) && controlTokenFile == nil && !ConfigFile.checkingOneKey {
            throw ValidationError("--control \(control) is reachable from other machines: give it --control-token-file FILE (or listen on 127.0.0.1)")
        }
    }

    /// Every value, to tell a changed config at SIGHUP (these take effect at the next start).
    var values: [String?] { [control, controlTokenFile, mqtt, mqttCaFile, mqttUser, mqttPasswordFile, mqttId] }

    var configEntries: [ConfigEntry] {
        [.init("control", control.map { .string($0) }, unset: "off"),
         .init("control-token-file", controlTokenFile.map { .string($0) }, unset: "none"),
         .init("mqtt", mqtt.map { .string($0) }, unset: "off"),
         .init("mqtt-ca-file", mqttCaFile.map { .string($0) }, unset: "the system's"),
         .init("mqtt-user", mqttUser.map { .string($0) }, unset: "none"),
         .init("mqtt-password-file", mqttPasswordFile.map { .string($0) }, unset: "none"),
         .init("mqtt-id", mqttId.map { .string($0) }, unset: "the host name")]
    }
}

extension ControlOptions {
    /// The running control part: its desk, and the transports that are on.
    struct Running {
        let desk: ControlDesk
        let server: ControlServer?
        let token: BearerToken?
        let mqtt: MQTTLink?

        func stop() {
            mqtt?.stop()
            server?.stop()
        }
    }

    /// Starts the control API and MQTT as set; a one-line failure if the API cannot listen
    /// or a token or password cannot be read. The broker is reached in the background.
    /// `beforeConnecting` is given the MQTT link before it connects (`--group` listens on it).
    func start(clock: LoopClock, beforeConnecting: (MQTTLink) -> Void = { _ in }) throws -> Running? {
        guard control != nil || mqtt != nil else { return nil }
        do throws(ControlRefusal) {
            let desk = ControlDesk(
                version: CarouselCommand.version, clock: { clock.now() }, wake: { WakeReason.control.post() },
                figures: {
                    let m = MediaCounters.now
                    var f = ProcessFigures()
                    f.rssBytes = ProcessStats.resident
                    f.helperRestarts = m.helperRestarts
                    f.picturesSkipped = SkippedPictures.count
                    f.sources = RemoteSources.sourceReport
                    f.counters = [
                        ("carousel_decodes_total", "Pictures decoded and fitted by the decoder helpers.", Double(m.decodes)),
                        ("carousel_decode_seconds_total", "Seconds the decoder helpers took for them, in all.", m.decodeSeconds),
                        ("carousel_downloads_total", "Downloads that brought a file.", Double(m.downloads)),
                        ("carousel_downloads_unchanged_total", "Downloads the server answered unchanged (304).", Double(m.downloadsUnchanged)),
                        ("carousel_download_attempts_failed_total", "Download attempts that failed (each try).", Double(m.downloadFailures)),
                        ("carousel_download_bytes_total", "Bytes downloaded.", Double(m.downloadBytes)),
                        ("carousel_thumbnail_cache_hits_total", "The wall's thumbnail look-ups that found one made before.", Double(m.thumbnailHits)),
                        ("carousel_thumbnail_cache_misses_total", "The wall's thumbnail look-ups that did not.", Double(m.thumbnailMisses)),
                    ]
                    return f
                },
                encodePNG: ScreenshotEncoder.png, threadSetUp: BackgroundPriority.lowerThisThread)
            var server: ControlServer?, token: BearerToken?
            if let (host, port) = endpoint {
                token = try controlTokenFile.map { path throws(ControlRefusal) in try BearerToken(path: path) }
                let s = try ControlServer(host: host, port: port, desk: desk, token: token)
                Log.info("control: listening on \(s.address.ipAddress ?? host):\(s.address.port ?? port)\(token.map { " (bearer token of \($0.path))" } ?? "")")
                server = s
            }
            let link = try mqtt.map { url throws(ControlRefusal) in try startMQTT(url, desk: desk, beforeConnecting: beforeConnecting) }
            return Running(desk: desk, server: server, token: token, mqtt: link)
        } catch {
            throw Failure(error.reason)
        }
    }

    private func startMQTT(_ url: String, desk: ControlDesk, beforeConnecting: (MQTTLink) -> Void) throws(ControlRefusal) -> MQTTLink {
        guard let (host, port, tls) = MQTTSettings.parse(url: url) else { throw ControlRefusal(0, "--mqtt \(url): not an mqtt:// URL") }
        var settings = MQTTSettings(host: host, port: port, tls: tls,
                                    id: mqttId ?? Self.defaultScreenID)
        settings.caFile = mqttCaFile
        settings.user = mqttUser
        if let file = mqttPasswordFile {
            guard let text = try? String(contentsOfFile: file, encoding: .utf8) else {
                throw ControlRefusal(0, "--mqtt-password-file \(file): cannot be read")
            }
            settings.password = text.trimmingCharacters(in: .newlines)
        }
        let link = try MQTTLink(settings: settings, desk: desk) { Log.info($0) }
        beforeConnecting(link)
        link.start()
        return link
    }
}
