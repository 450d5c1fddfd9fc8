import CarouselCore
import Foundation

/// Writes the event log: one JSON object a line, each with `t_ms` and `type`.
/// `carousel render` writes it to DIR/events.jsonl, `carousel --events` to a file or stdout.
/// Lines may come from background threads too (the downloads' events): one at a time.
public final class EventLog: @unchecked Sendable {
    private let write: (String) -> Void
    private let lock = NSLock()
    /// Hears every event too (the control API's counters and `/events`): its type, its
    /// fields as text, and its line.
    private let tap: (@Sendable (String, [(String, String)], String) -> Void)?

    /// - Parameter write: receives each line, newline included.
    public init(write: @escaping (String) -> Void, tap: (@Sendable (String, [(String, String)], String) -> Void)? = nil) {
        self.write = write
        self.tap = tap
    }

    /// A JSON value as the log writes it.
    public enum Value {
        case int(Int), double(Double), string(String)
    }

    public func record(timeMs: Int, type: String, _ fields: KeyValuePairs<String, Value> = [:]) {
        record(timeMs: timeMs, type: type, fields.map { ($0.key, $0.value) })
    }

    public func record(timeMs: Int, type: String, _ fields: [(String, Value)]) {
        var line = "{\"t_ms\":\(timeMs),\"type\":\(Self.quote(type))"
        for (k, v) in fields {
            line += ",\(Self.quote(k)):"
            switch v {
            case .int(let i): line += String(i)
            case .double(let d): line += Self.number(d)
            case .string(let s): line += Self.quote(s)
            }
        }
        line += "}\n"
        lock.withLock { write(line) }
        if let tap {
            tap(type, fields.map { k, v in
                switch v {
                case .int(let i): (k, String(i))
                case .double(let d): (k, Self.number(d))
                case .string(let s): (k, s)
                }
            }, line)
        }
    }

    /// Logs an engine event; `source` names the file of an item, for `activate`.
    public func record(_ e: ViewEvent, timeMs: Int, source: (Int) -> String) {
        switch e.kind {
        case .pool(let p):
            record(timeMs: timeMs, type: "pool", [
                "slots": .int(p.slots), "item_width": .int(Int(p.itemSize.width)),
                "item_height": .int(Int(p.itemSize.height)), "gap": .int(Int(p.gap)),
                "viewport_width": .int(Int(p.viewport.width)), "viewport_height": .int(Int(p.viewport.height)),
            ])
        case .release(let r):
            record(timeMs: timeMs, type: "release", [
                "decision": .string(r.decision.rawValue), "from": .int(r.from), "to": .int(r.to),
                "velocity_px_s": .double(r.velocity), "travel_px": .double(r.travel),
            ])
        case .settled(let i):
            record(timeMs: timeMs, type: "settled", ["index": .int(i)])
        case .tap(let i):
            record(timeMs: timeMs, type: "tap", ["index": .int(i)])
        case .activate(let i):
            record(timeMs: timeMs, type: "activate", ["index": .int(i), "source": .string(source(i))])
        case .attract(let action, let from, let to):
            record(timeMs: timeMs, type: "autoplay", ["action": .string(action.rawValue), "from": .int(from), "to": .int(to)])
        case .zoom(let i, let scale):
            record(timeMs: timeMs, type: "zoom", ["index": .int(i), "scale": .double(scale)])
        }
    }

    /// Numbers with one decimal at most: enough for px and px/s, stable across machines.
    static func number(_ d: Double) -> String {
        guard d.isFinite else { return "0" }
        let r = (d * 10).rounded() / 10
        return r == r.rounded() ? String(Int(r)) : String(r)
    }

    static func quote(_ s: String) -> String {
        var out = "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where u.value < 0x20:
                let h = String(u.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - h.count) + h
            default: out.unicodeScalars.append(u)
            }
        }
        return out + "\""
    }
}
