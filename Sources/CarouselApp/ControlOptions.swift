import ArgumentParser
import CarouselControl
import CarouselMedia

/// `--control` and its token: the HTTP control API, off by default.
struct ControlOptions: ParsableArguments, Sendable {
    @Option(help: ArgumentHelp("Serve the control API (status, commands, screenshot, events, Prometheus metrics) on ADDR:PORT, e.g. 127.0.0.1:8080; any address but loopback needs --control-token-file.", valueName: "ADDR:PORT"))
    var control: String?

    @Option(help: ArgumentHelp("A file holding the bearer token every control request must carry (read at start and on SIGHUP).", valueName: "FILE"))
    var controlTokenFile: String?

    init() {}

    /// `--control`'s host and port.
    var endpoint: (host: String, port: Int)? {
        guard let control, let colon = control.lastIndex(of: ":") else { return nil }
        var host = String(control[..<colon])
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard !host.isEmpty, let port = Int(control[control.index(after: colon)...]), (0...65535).contains(port) else { return nil }
        return (host, port)
    }

    func validate() throws {
        guard let control else {
            if controlTokenFile != nil { throw ValidationError("--control-token-file is for --control, which is not set") }
            return
        }
        guard let (host, _) = endpoint else {
            throw ValidationError("--control must be ADDR:PORT (e.g. 127.0.0.1:8080 or 0.0.0.0:8080), not \(control)")
        }
        if !ControlServer.isLoopback(host) && controlTokenFile == nil {
            throw ValidationError("--control \(control) is reachable from other machines: give it --control-token-file FILE (or listen on 127.0.0.1)")
        }
    }

    var configEntries: [ConfigEntry] {
        [.init("control", control.map { .string($0) }, unset: "off"),
         .init("control-token-file", controlTokenFile.map { .string($0) }, unset: "none")]
    }
}

extension ControlOptions {
    /// The running control part: its desk, server and token.
    struct Running {
        let desk: ControlDesk
        let server: ControlServer
        let token: BearerToken?
    }

    /// Starts the control API if `--control` is set; a one-line failure if it cannot listen
    /// or read its token.
    func start() throws -> Running? {
        guard let (host, port) = endpoint else { return nil }
        do throws(ControlRefusal) {
            let token = try controlTokenFile.map { path throws(ControlRefusal) in try BearerToken(path: path) }
            let desk = ControlDesk(
                version: CarouselCommand.version, clock: { ProcessStats.now }, wake: { WakeReason.control.post() },
                figures: {
                    var f = ProcessFigures()
                    f.rssBytes = ProcessStats.resident
                    f.helperRestarts = MediaCounters.helperRestarts
                    return f
                },
                encodePNG: ScreenshotEncoder.png, threadSetUp: BackgroundPriority.lowerThisThread)
            let server = try ControlServer(host: host, port: port, desk: desk, token: token)
            Log.info("control: listening on \(server.address.ipAddress ?? host):\(server.address.port ?? port)\(token == nil ? "" : " (bearer token of \(token!.path))")")
            return Running(desk: desk, server: server, token: token)
        } catch {
            throw Failure(error.reason)
        }
    }
}
