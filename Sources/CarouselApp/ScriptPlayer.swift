import CarouselCore
import CarouselMedia

/// Plays a gesture script against a scene on virtual time: time advances only through
/// `wait` and gesture durations, in frames of 1/60 s, so a script gives the same frames
/// and events on any machine.
struct ScriptPlayer {
    static let frame = 1.0 / 60

    /// What the player asks of the command that runs it.
    struct Hooks {
        var input: (ViewInput) throws -> Void
        var advance: (Double) throws -> Void
        var resize: (Int, Int, Double) throws -> Void
        var snapshot: (String, Double) throws -> Void
        var deviceReset: (Double) throws -> Void
        var memoryPressure: (MemoryPressureLevel, Double) throws -> Void
        /// What keys do beside the engine's input: `key back` (from a view opened from
        /// another, back to it), `key j` and `key l` (the clip in focus moves).
        var apply: (SceneChange) throws -> Void = { _ in }
        /// The view shown scrolls up and down: `key up` and `key down` step it.
        var scrollsVertically: () -> Bool = { false }
    }

    /// Frames played so far; time is always a whole number of frames.
    private var frameCount = 0
    var time: Double { Double(frameCount) / 60 }
    /// Set when the script pressed escape: the rest is not played.
    private(set) var quit = false
    /// K pressed an odd number of times: the show and its clip are paused.
    private var paused = false

    mutating func play(_ script: GestureScript, hooks: Hooks) throws {
        for (_, action) in script.actions where !quit {
            try perform(action, hooks)
        }
    }

    private mutating func perform(_ action: GestureScript.Action, _ h: Hooks) throws {
        switch action {
        case .mouse(let phase, let x, let y):
            try h.input(.pointer(PointerEvent(phase, .mouse, x: x, y: y, time: time)))
        case .touch(let phase, let id, let x, let y):
            try h.input(.pointer(PointerEvent(phase, .finger(id), x: x, y: y, time: time)))
        case .drag(let from, let to, let ms, let device, let hold):
            let pointer = Self.pointer(device)
            try h.input(.pointer(PointerEvent(.down, pointer, x: from.x, y: from.y, time: time)))
            let steps = max(1, Self.frames(ms))
            for i in 1...steps {
                try tick(h)
                let f = Double(i) / Double(steps)
                try h.input(.pointer(PointerEvent(.move, pointer, x: from.x + (to.x - from.x) * f,
                                                  y: from.y + (to.y - from.y) * f, time: time)))
            }
            if let hold { try wait(ms: hold, h) }
            try h.input(.pointer(PointerEvent(.up, pointer, x: to.x, y: to.y, time: time)))
        case .tap(let x, let y, let device):
            let pointer = Self.pointer(device)
            try h.input(.pointer(PointerEvent(.down, pointer, x: x, y: y, time: time)))
            for _ in 0..<3 { try tick(h) }  // 50 ms: a deliberate tap
            try h.input(.pointer(PointerEvent(.up, pointer, x: x, y: y, time: time)))
        case .pinch(let x, let y, let scale, let ms):
            let start = ScriptPlayer.pinchSpan, end = ScriptPlayer.pinchSpan * scale
            let fingers: [PointerID] = [.finger(1), .finger(2)]
            for (i, f) in fingers.enumerated() {
                let side = i == 0 ? -0.5 : 0.5
                try h.input(.pointer(PointerEvent(.down, f, x: x + side * start, y: y, time: time)))
            }
            let steps = max(1, Self.frames(ms))
            for step in 1...steps {
                try tick(h)
                let d = start + (end - start) * Double(step) / Double(steps)
                for (i, f) in fingers.enumerated() {
                    try h.input(.pointer(PointerEvent(.move, f, x: x + (i == 0 ? -0.5 : 0.5) * d, y: y, time: time)))
                }
            }
            for (i, f) in fingers.enumerated() {
                try h.input(.pointer(PointerEvent(.up, f, x: x + (i == 0 ? -0.5 : 0.5) * end, y: y, time: time)))
            }
        case .doubleTap(let x, let y):
            for n in 0..<2 {
                try h.input(.pointer(PointerEvent(.down, .finger(0), x: x, y: y, time: time)))
                for _ in 0..<3 { try tick(h) }
                try h.input(.pointer(PointerEvent(.up, .finger(0), x: x, y: y, time: time)))
                if n == 0 { for _ in 0..<3 { try tick(h) } }
            }
        case .key(let key):
            switch key {
            case .left: try h.input(.step(.previous, time: time))
            case .right, .space: try h.input(.step(.next, time: time))
            case .up: if h.scrollsVertically() { try h.input(.step(.previous, time: time)) }
            case .down: if h.scrollsVertically() { try h.input(.step(.next, time: time)) }
            case .home: try h.input(.step(.first, time: time))
            case .end: try h.input(.step(.last, time: time))
            case .pageup: try h.input(.step(.previousPage, time: time))
            case .pagedown: try h.input(.step(.nextPage, time: time))
            case .escape: quit = true
            case .back: try h.apply(.back(time: time))
            case .j: try h.apply(.seek(.by(-ClipSeek.step), time: time))
            case .l: try h.apply(.seek(.by(ClipSeek.step), time: time))
            case .plus, .minus: try h.input(ZoomSettings.keyStep(in: key == .plus, time: time))
            case .k:
                paused.toggle()
                try h.input(.autoplay(!paused, time: time))
            }
        case .wheel(let dx, let dy):
            // SDL's convention: y > 0 scrolls up (back), x > 0 scrolls right (forward).
            try h.input(.scroll(dx - dy, time: time))
        case .wait(let ms):
            try wait(ms: ms, h)
        case .resize(let w, let hgt):
            try h.resize(w, hgt, time)
        case .snapshot(let name):
            try h.snapshot(name, time)
        case .deviceReset:
            try h.deviceReset(time)
        case .memoryPressure(let level):
            try h.memoryPressure(level, time)
        }
    }

    private mutating func wait(ms: Double, _ h: Hooks) throws {
        for _ in 0..<Self.frames(ms) { try tick(h) }
    }

    private mutating func tick(_ h: Hooks) throws {
        frameCount += 1
        try h.advance(time)
    }

    /// How far apart a script's pinch starts its two fingers, px.
    static let pinchSpan = 200.0

    static func frames(_ ms: Double) -> Int { Int((ms / 1000 / frame).rounded()) }

    static func pointer(_ d: GestureScript.Device) -> PointerID {
        d == .mouse ? .mouse : .finger(0)
    }
}
