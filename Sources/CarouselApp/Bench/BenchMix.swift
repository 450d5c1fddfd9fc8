import CarouselCore

/// The fixed mix of gestures `carousel bench` plays, in real time, as a person would: the
/// first load, slow drags, swipes and key steps at 2 items a second, flings across the
/// set, jumps to the ends, and a rest. Times are seconds from the start of the mix.
struct BenchMix {
    enum Phase: String, CaseIterable, Codable, Sendable {
        case firstLoad = "first load", slowDrags = "slow drags", swipes = "swipes at 2/s",
             keySteps = "key steps at 2/s", flings, jumps = "jumps to the ends", rest
        /// Phases whose placeholder frames count against the goal of none at 2 items a second.
        var isSteadyBrowsing: Bool { self == .swipes || self == .keySteps || self == .slowDrags }
    }

    struct Event {
        enum Kind {
            case pointer(PointerEvent.Phase, x: Double, y: Double)
            case step(Step)
        }
        var offset: Double
        var kind: Kind

        /// The engine input, `start` being the engine time at offset 0.
        func input(start: Double) -> CarouselInput {
            let t = start + offset
            switch kind {
            case .pointer(let phase, let x, let y): return .pointer(PointerEvent(phase, .mouse, x: x, y: y, time: t))
            case .step(let s): return .step(s, time: t)
            }
        }
    }

    private(set) var events: [Event] = []
    /// Each phase's start, in order; a phase lasts until the next one starts.
    private(set) var phases: [(phase: Phase, start: Double)] = []
    private(set) var duration: Double = 0
    /// Seconds of the final rest, over which CPU at rest is measured.
    let restLength: Double

    /// The mix for a viewport and stride (item width + gap), px. `short`: a few of each,
    /// for tests.
    init(viewport: Size, stride: Double, short: Bool = false) {
        restLength = short ? 0.3 : 3
        let cx = viewport.width / 2, cy = viewport.height / 2
        var t = 0.0
        func begin(_ p: Phase) { phases.append((p, t)) }
        func drag(from x1: Double, to x2: Double, over seconds: Double, hold: Double = 0) {
            let steps = max(2, Int((seconds * 60).rounded()))
            events.append(Event(offset: t, kind: .pointer(.down, x: x1, y: cy)))
            for i in 1...steps {
                events.append(Event(offset: t + seconds * Double(i) / Double(steps),
                                    kind: .pointer(.move, x: x1 + (x2 - x1) * Double(i) / Double(steps), y: cy)))
            }
            events.append(Event(offset: t + seconds + hold, kind: .pointer(.up, x: x2, y: cy)))
        }

        begin(.firstLoad)
        t += short ? 0.3 : 1.0
        begin(.slowDrags)
        for _ in 0..<(short ? 1 : 3) {
            drag(from: cx + 0.2 * stride, to: cx - 0.2 * stride, over: short ? 0.3 : 1.0, hold: 0.2)
            t += short ? 0.8 : 1.6
        }
        begin(.swipes)
        for _ in 0..<(short ? 2 : 10) {
            drag(from: cx + 0.1 * stride, to: cx - 0.1 * stride, over: 0.08)
            t += 0.5
        }
        begin(.keySteps)
        for _ in 0..<(short ? 2 : 10) {
            events.append(Event(offset: t, kind: .step(.next)))
            t += 0.5
        }
        begin(.flings)
        for _ in 0..<(short ? 1 : 3) {
            drag(from: cx + 0.45 * viewport.width, to: cx - 0.45 * viewport.width, over: 0.12)
            t += short ? 0.8 : 1.5
        }
        begin(.jumps)
        events.append(Event(offset: t, kind: .step(.last)))
        t += short ? 0.6 : 1.2
        events.append(Event(offset: t, kind: .step(.first)))
        t += short ? 0.6 : 1.2
        begin(.rest)
        t += restLength
        duration = t
    }

    /// The phase at `offset` seconds.
    func phase(at offset: Double) -> Phase {
        phases.last { $0.start <= offset }?.phase ?? .firstLoad
    }
}
