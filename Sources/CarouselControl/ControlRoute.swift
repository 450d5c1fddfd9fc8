import CarouselCore
import Foundation

/// A request to the control API, made from its method, path, query and body: what it asks
/// for, or why it is refused. Bytes from the network: bounded and fuzzed
/// (`carousel-fuzz control-request`).
public enum ControlRoute: Hashable, Sendable {
    case status
    case metrics
    /// `?width=` scales it down; nil: the screen's size.
    case screenshot(width: Int?)
    case events
    case command(ControlCommand)

    /// Bodies of commands are small JSON objects; anything longer is refused before parsing.
    public static let bodyLimit = 4096

    public static func parse(method: String, target: String, body: [UInt8]) -> Result<ControlRoute, ControlRefusal> {
        let (path, query) = split(target)
        switch (method, path) {
        case ("GET", "/status"), ("HEAD", "/status"): return .success(.status)
        case ("GET", "/metrics"), ("HEAD", "/metrics"): return .success(.metrics)
        case ("GET", "/events"): return .success(.events)
        case ("GET", "/screenshot.png"), ("HEAD", "/screenshot.png"):
            guard let w = query["width"] else { return .success(.screenshot(width: nil)) }
            guard let width = Int(w), (16...8192).contains(width) else {
                return .failure(.badRequest("width must be a whole number of pixels from 16 to 8192, not \(clip(w))"))
            }
            return .success(.screenshot(width: width))
        case (_, "/status"), (_, "/metrics"), (_, "/events"), (_, "/screenshot.png"):
            return .failure(ControlRefusal(405, "\(path) takes GET"))
        case ("POST", _):
            return command(path: path, body: body).map { .command($0) }
        default:
            if commandPaths.contains(path) { return .failure(ControlRefusal(405, "\(path) takes POST")) }
            return .failure(ControlRefusal(404, "no such endpoint: \(clip(path))"))
        }
    }

    static let commandPaths: Set<String> = ["/next", "/previous", "/first", "/last", "/goto", "/pause", "/play",
                                            "/seek", "/view", "/screen", "/brightness", "/reload", "/presence"]

    static func command(path: String, body: [UInt8]) -> Result<ControlCommand, ControlRefusal> {
        switch path {
        case "/next": return .success(.next)
        case "/previous": return .success(.previous)
        case "/first": return .success(.first)
        case "/last": return .success(.last)
        case "/pause": return .success(.pause)
        case "/play": return .success(.play)
        case "/reload": return .success(.reload)
        case "/goto", "/seek", "/view", "/screen", "/brightness", "/presence":
            return ControlPayload.command(String(path.dropFirst()), json: body)
        default:
            return .failure(ControlRefusal(404, "no such endpoint: \(clip(path))"))
        }
    }

    /// The path and the query's name=value pairs (the last of a repeated name wins).
    static func split(_ target: String) -> (String, [String: String]) {
        let parts = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        var query: [String: String] = [:]
        if parts.count > 1 {
            for pair in parts[1].split(separator: "&") {
                let kv = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                let name = String(kv[0]).removingPercentEncoding ?? String(kv[0])
                let value = kv.count > 1 ? (String(kv[1]).removingPercentEncoding ?? String(kv[1])) : ""
                query[name] = value
            }
        }
        return (String(parts.first ?? ""), query)
    }

    /// At most 80 characters of something a client sent, for a one-line reason.
    public static func clip(_ s: some StringProtocol) -> String {
        let printable = String(s.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7f }.map(Character.init))
        return printable.count > 80 ? String(printable.prefix(80)) + "..." : printable
    }
}

/// The JSON bodies of the commands that take one, shared by HTTP and MQTT: `goto`
/// `{"index": N}` or `{"source": "..."}`, `view` `{"mode": "carousel"|"mosaic"|"grid"}`, `screen`
/// `{"on": true|false}`, `brightness` `{"value": 0.0-1.0}`, `seek` `{"seconds": S}` (from the
/// clip's start) or `{"by": S}` (from where it is; negative: back).

public enum ControlPayload {
    public static func command(_ name: String, json body: [UInt8]) -> Result<ControlCommand, ControlRefusal> {
        guard body.count <= ControlRoute.bodyLimit else {
            return .failure(ControlRefusal(413, "the body is longer than \(ControlRoute.bodyLimit) bytes"))
        }
        let json = JSONDecoder()
        func decode<T: Decodable>(_ type: T.Type) -> T? { try? json.decode(T.self, from: Data(body)) }
        switch name {
        case "goto":
            struct Goto: Decodable { var index: Int?; var source: String? }
            if let i = decode(Goto.self)?.index { return .success(.gotoIndex(i)) }
            if let s = decode(Goto.self)?.source, !s.isEmpty, s.utf8.count <= 2048 { return .success(.gotoSource(s)) }
            return .failure(.badRequest("goto takes {\"index\": N} or {\"source\": \"...\"}"))
        case "seek":
            struct Seek: Decodable { var seconds: Double?; var by: Double? }
            let seek = decode(Seek.self)
            if let s = seek?.seconds, s.isFinite, s >= 0, seek?.by == nil { return .success(.seek(.to(s))) }
            if let d = seek?.by, d.isFinite, seek?.seconds == nil { return .success(.seek(.by(d))) }
            return .failure(.badRequest("seek takes {\"seconds\": S} (0 or more, from the clip's start) or {\"by\": S} (from where it is)"))
        case "view":
            struct View: Decodable { var mode: String }
            guard let m = decode(View.self)?.mode, let mode = mode(m) else {
                return .failure(.badRequest("view takes {\"mode\": \"carousel\"}, {\"mode\": \"mosaic\"} or {\"mode\": \"grid\"}"))
            }
            return .success(.view(mode))
        case "screen":
            struct Screen: Decodable { var on: Bool }
            guard let on = decode(Screen.self)?.on else {
                return .failure(.badRequest("screen takes {\"on\": true} or {\"on\": false}"))
            }
            return .success(.screen(on: on))
        case "brightness":
            struct Brightness: Decodable { var value: Double }
            guard let v = decode(Brightness.self)?.value, (0...1).contains(v) else {
                return .failure(.badRequest("brightness takes {\"value\": 0.0 to 1.0}"))
            }
            return .success(.brightness(v))
        case "presence":
            struct Presence: Decodable { var present: Bool }
            guard let p = decode(Presence.self)?.present else {
                return .failure(.badRequest("presence takes {\"present\": true} or {\"present\": false}"))
            }
            return .success(.presence(p))
        default:
            return .failure(ControlRefusal(404, "no such command: \(ControlRoute.clip(name))"))
        }
    }

    /// A view by its name (`ViewKind`'s), in any case.
    public static func mode(_ s: String) -> ViewKind? { ViewKind(rawValue: s.lowercased()) }
}
