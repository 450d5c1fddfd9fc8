import CarouselCore
import CarouselMedia

/// A parsed gesture script: plain text, one action a line, `#` starts a comment,
/// coordinates in viewport pixels, durations in milliseconds.
public struct GestureScript: Equatable, Sendable {
    public enum Device: String, Equatable, Sendable { case mouse, touch }

    public enum Key: String, CaseIterable, Equatable, Sendable {
        case left, right, up, down, home, end, pageup, pagedown, space, escape, back, plus, minus
        /// Pause or play the show and the clip in focus, as the window's K does.
        case k
        /// The clip in focus 10 s back or on, as the window's J and L do.
        case j, l
    }

    public enum Action: Equatable, Sendable {
        case mouse(PointerEvent.Phase, x: Double, y: Double)
        case touch(PointerEvent.Phase, id: Int64, x: Double, y: Double)
        case drag(from: Point, to: Point, ms: Double, device: Device, holdMs: Double?)
        case tap(x: Double, y: Double, device: Device)
        /// Two touch fingers about (x, y), 200 px apart, moving until `scale` times as far apart.
        case pinch(x: Double, y: Double, scale: Double, ms: Double)
        /// Two touch taps at (x, y), 100 ms apart.
        case doubleTap(x: Double, y: Double)
        case key(Key)
        case wheel(dx: Double, dy: Double)
        case wait(ms: Double)
        case resize(width: Int, height: Int)
        case snapshot(String)
        /// The rendering device lost every texture, as after a GPU reset.
        case deviceReset
        /// The kernel reports memory pressure rising or easing.
        case memoryPressure(MemoryPressureLevel)
    }

    /// A line that is not a valid action.
    public struct ParseError: Error, Equatable, CustomStringConvertible {
        public var line: Int
        public var message: String
        public var description: String { "line \(line): \(message)" }
    }

    /// Actions with the line each came from.
    public var actions: [(line: Int, action: Action)]

    public static func == (a: GestureScript, b: GestureScript) -> Bool {
        a.actions.map(\.line) == b.actions.map(\.line) && a.actions.map(\.action) == b.actions.map(\.action)
    }

    public init(parsing text: String) throws(ParseError) {
        var out: [(Int, Action)] = []
        for (i, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let content = raw.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            let words = content.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" }).map(String.init)
            guard let verb = words.first else { continue }
            do {
                out.append((i + 1, try Self.action(verb, Array(words.dropFirst()))))
            } catch let e as Problem {
                throw ParseError(line: i + 1, message: e.message)
            } catch {
                throw ParseError(line: i + 1, message: "\(error)")
            }
        }
        actions = out
    }

    private struct Problem: Error { var message: String }

    /// The longest wait, drag or hold a script may ask for, ms.
    static let longestMs = 3_600_000.0

    private static func action(_ verb: String, _ args: [String]) throws -> Action {
        var a = Arguments(verb: verb, words: args)
        let action: Action
        switch verb {
        case "mouse-down", "mouse-move", "mouse-up":
            action = .mouse(phase(verb), x: try a.number("X"), y: try a.number("Y"))
        case "touch-down", "touch-move", "touch-up":
            let id = try a.number("ID")
            // Past Int64 the conversion would trap (found by fuzzing); no panel has that many fingers.
            guard id >= 0, id == id.rounded(), id <= Double(Int32.max) else {
                throw Problem(message: "\(verb): ID must be a whole number from 0 to \(Int32.max)")
            }
            action = .touch(phase(verb), id: Int64(id), x: try a.number("X"), y: try a.number("Y"))
        case "drag":
            let from = Point(x: try a.number("X1"), y: try a.number("Y1"))
            let to = Point(x: try a.number("X2"), y: try a.number("Y2"))
            let ms = try a.duration("MS")
            var device = Device.mouse
            var hold: Double? = nil
            while let word = a.next() {
                if let d = Device(rawValue: word) { device = d }
                else if word == "hold" { hold = try a.duration("MS2") }
                else { throw Problem(message: "drag: unexpected '\(word)' (expected mouse, touch or hold MS2)") }
            }
            action = .drag(from: from, to: to, ms: ms, device: device, holdMs: hold)
        case "tap":
            let x = try a.number("X"), y = try a.number("Y")
            var device = Device.mouse
            if let word = a.next() {
                guard let d = Device(rawValue: word) else { throw Problem(message: "tap: unknown device '\(word)' (mouse or touch)") }
                device = d
            }
            action = .tap(x: x, y: y, device: device)
        case "pinch":
            let x = try a.number("X"), y = try a.number("Y"), scale = try a.number("SCALE")
            guard scale >= 0.05, scale <= 20 else { throw Problem(message: "pinch: SCALE must be from 0.05 to 20") }
            action = .pinch(x: x, y: y, scale: scale, ms: try a.duration("MS"))
        case "double-tap":
            action = .doubleTap(x: try a.number("X"), y: try a.number("Y"))
        case "key":
            guard let name = a.next() else { throw Problem(message: "key: missing NAME") }
            guard let key = Key(rawValue: name.lowercased()) else {
                throw Problem(message: "key: unknown key '\(name)' (one of \(Key.allCases.map(\.rawValue).joined(separator: ", ")))")
            }
            action = .key(key)
        case "wheel":
            action = .wheel(dx: try a.number("DX"), dy: try a.number("DY"))
        case "wait":
            action = .wait(ms: try a.duration("MS"))
        case "resize":
            let w = try a.number("W"), h = try a.number("H")
            guard w >= 1, h >= 1, w == w.rounded(), h == h.rounded(), w <= 16384, h <= 16384 else {
                throw Problem(message: "resize: W and H must be whole numbers from 1 to 16384")
            }
            action = .resize(width: Int(w), height: Int(h))
        case "snapshot":
            guard let name = a.next() else { throw Problem(message: "snapshot: missing NAME") }
            let allowed = name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "-_.".contains($0)) }
            guard allowed, !name.hasPrefix(".") else {
                throw Problem(message: "snapshot: NAME '\(name)' may hold only letters, digits, '-', '_' and '.'")
            }
            action = .snapshot(name)
        case "device-reset":
            action = .deviceReset
        case "memory-pressure":
            guard let word = a.next(), let level = MemoryPressureLevel(rawValue: word) else {
                throw Problem(message: "memory-pressure: expected high or normal")
            }
            action = .memoryPressure(level)
        default:
            throw Problem(message: "unknown action '\(verb)'")
        }
        if let extra = a.next() { throw Problem(message: "\(verb): unexpected '\(extra)'") }
        return action
    }

    private static func phase(_ verb: String) -> PointerEvent.Phase {
        verb.hasSuffix("down") ? .down : verb.hasSuffix("up") ? .up : .move
    }

    private struct Arguments {
        var verb: String
        var words: [String]
        var index = 0

        mutating func next() -> String? {
            guard index < words.count else { return nil }
            defer { index += 1 }
            return words[index]
        }

        mutating func number(_ name: String) throws -> Double {
            guard let w = next() else { throw Problem(message: "\(verb): missing \(name)") }
            guard let v = Double(w), v.isFinite else { throw Problem(message: "\(verb): \(name) '\(w)' is not a number") }
            return v
        }

        /// Milliseconds, at most an hour: `render` steps through them a frame at a time, so
        /// a longer one would look like a hang.
        mutating func duration(_ name: String) throws -> Double {
            let v = try number(name)
            guard v >= 0 else { throw Problem(message: "\(verb): \(name) must not be negative") }
            guard v <= GestureScript.longestMs else {
                throw Problem(message: "\(verb): \(name) must be at most \(Int(GestureScript.longestMs)) (an hour)")
            }
            return v
        }
    }
}
