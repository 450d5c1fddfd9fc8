import CarouselControl
import CarouselCore
import CarouselMedia

/// Every parser of the program that reads bytes from outside, by name: the image parts'
/// (`MediaFuzzTargets`) and the command's own (the config file, the gesture script, the
/// opening hours). The fuzz targets in Tests/Fuzz and the corpus replay in the tests use it.
public enum FuzzTargets {
    public static let all: [String: @Sendable ([UInt8]) -> Void] = MediaFuzzTargets.all.merging([
        // Checked against the image options (a flag, options, lists) rather than all of
        // `run`'s: each key is parsed by the command's parser, and `run`'s whole parser
        // takes 0.1 s a key in an instrumented build: too slow to fuzz. Same code path.
        "config": { _ = try? ConfigFile(text: String(decoding: $0, as: UTF8.self), path: "fuzz.toml", for: SourceOptions.self) },
        "gesture-script": { _ = try? GestureScript(parsing: String(decoding: $0, as: UTF8.self)) },
        "opening-hours": { _ = try? Schedule(parsing: String(decoding: $0, as: UTF8.self)) },
        // A control API request as the server hands it over: "METHOD TARGET" on the first
        // line, the body after it (the JSON payloads MQTT commands carry too).
        "control-request": { bytes in
            let newline = bytes.firstIndex(of: 10) ?? bytes.endIndex
            let line = String(decoding: bytes[..<newline], as: UTF8.self).split(separator: " ", maxSplits: 1)
            let body = newline < bytes.endIndex ? Array(bytes[(newline + 1)...]) : []
            _ = ControlRoute.parse(method: line.first.map(String.init) ?? "", target: line.count > 1 ? String(line[1]) : "", body: body)
        },
        // An MQTT command: the topic's last level on the first line, the payload after it.
        "mqtt-command": { bytes in
            let newline = bytes.firstIndex(of: 10) ?? bytes.endIndex
            let payload = newline < bytes.endIndex ? Array(bytes[(newline + 1)...]) : []
            _ = MQTTCommand.parse(name: String(decoding: bytes[..<newline], as: UTF8.self), payload: payload)
        },
    ]) { a, _ in a }

    public static var names: [String] { all.keys.sorted() }
}
