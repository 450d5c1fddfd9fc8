import Foundation

/// A command topic's name and payload, as MQTT and Home Assistant send them, made into a
/// command: the HTTP API's JSON bodies, or the plain words Home Assistant's entities send
/// (`PRESS`, `ON`/`OFF`, a view's name, a brightness of 0 to 255). Bytes from the network:
/// bounded and fuzzed (`carousel-fuzz mqtt-command`).
public enum MQTTCommand {
    public static let payloadLimit = 4096

    /// Names of the command topics (`kiosk-carousel/<id>/cmd/<name>`).
    public static let names = ["next", "previous", "first", "last", "reload", "pause", "play", "playing",
                               "goto", "seek", "view", "screen", "brightness", "presence"]

    /// A presence sensor's payload as sensors send it: Home Assistant's binary sensor (`ON`,
    /// `OFF`), words (`true`, `occupied`, `detected`, `clear`...), `1`/`0`, or a JSON object
    /// with `occupancy`, `presence`, `present` or `motion` (Zigbee2MQTT's sensors); nil for
    /// anything else.
    public static func presence(_ payload: [UInt8]) -> Bool? {
        guard payload.count <= payloadLimit else { return nil }
        let text = String(decoding: payload, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        switch text {
        case "on", "true", "1", "occupied", "detected", "home", "present", "motion": return true
        case "off", "false", "0", "clear", "unoccupied", "not_home", "away", "absent", "none": return false
        default: break
        }
        guard text.hasPrefix("{"), let object = try? JSONSerialization.jsonObject(with: Data(payload)) as? [String: Any] else { return nil }
        for key in ["occupancy", "presence", "present", "motion"] {
            if let b = object[key] as? Bool { return b }
        }
        return nil
    }

    public static func parse(name: String, payload: [UInt8]) -> Result<ControlCommand, ControlRefusal> {
        guard payload.count <= payloadLimit else {
            return .failure(ControlRefusal(413, "the payload is longer than \(payloadLimit) bytes"))
        }
        let text = String(decoding: payload, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        let json = text.hasPrefix("{")
        switch name {
        case "next": return .success(.next)
        case "previous": return .success(.previous)
        case "first": return .success(.first)
        case "last": return .success(.last)
        case "reload": return .success(.reload)
        case "pause": return .success(.pause)
        case "play": return .success(.play)
        case "playing":
            switch text.uppercased() {
            case "ON": return .success(.play)
            case "OFF": return .success(.pause)
            default: return .failure(.badRequest("playing takes ON or OFF"))
            }
        case "goto":
            // Home Assistant's number entity may send "3.0".
            if !json {
                let index = Int(text) ?? Double(text).flatMap { $0.rounded() == $0 && abs($0) < 1e9 ? Int($0) : nil }
                return index.map { .success(.gotoIndex($0)) } ?? .failure(.badRequest("goto takes an index or {\"index\": N} or {\"source\": \"...\"}"))
            }
        case "seek":
            // A number of seconds from the clip's start, or with a sign, from where it is.
            if !json {
                guard let v = Double(text), v.isFinite, text.first == "+" || text.first == "-" || v >= 0 else {
                    return .failure(.badRequest("seek takes seconds from the clip's start (12.5), or from where it is (+10, -10)"))
                }
                return .success(.seek(text.first == "+" || text.first == "-" ? .by(v) : .to(v)))
            }
        case "view":
            if !json { return ControlPayload.mode(text).map { .success(.view($0)) } ?? .failure(.badRequest("view takes carousel, mosaic or grid")) }
        case "screen":
            if !json {
                switch text.uppercased() {
                case "ON": return .success(.screen(on: true))
                case "OFF": return .success(.screen(on: false))
                default: return .failure(.badRequest("screen takes ON or OFF"))
                }
            }
        case "presence":
            return presence(payload).map { .success(.presence($0)) }
                ?? .failure(.badRequest("presence takes ON or OFF (or true/false, 1/0, occupied/clear, {\"occupancy\": true})"))
        case "brightness":
            // Home Assistant's light sends 0-255.
            if !json {
                guard let v = Int(text), (0...255).contains(v) else { return .failure(.badRequest("brightness takes 0 to 255")) }
                return .success(.brightness(Double(v) / 255))
            }
        default:
            return .failure(ControlRefusal(404, "no such command: \(ControlRoute.clip(name))"))
        }
        return ControlPayload.command(name, json: payload)
    }
}
