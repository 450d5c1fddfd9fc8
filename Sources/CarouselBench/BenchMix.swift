import CarouselApp
import CarouselCore

/// The fixed mix of gestures `carousel bench` plays, in real time, as a person would: the
/// first load, slow drags, swipes and key steps at 2 items a second, flings across the
/// set, jumps to the ends, and a rest. On the wall (a vertical view) the drags run up the
/// screen, the flings go down the whole wall, and pictures are opened and closed. Times
/// are seconds from the start of the mix.
struct BenchMix {
    enum Phase: String, CaseIterable, Codable, Sendable {
        case firstLoad = "first load", slowDrags = "slow drags", swipes = "swipes at 2/s",
             keySteps = "key steps at 2/s", flings, jumps = "jumps to the ends", opening = "open and close", rest,
             fades, kenBurns = "Ken Burns", zoomedPanning = "zoomed panning",
             clipPlaying = "clip playing", clipSteps = "steps across clips", clipToClip = "clip to clip under autoplay"
        /// Phases whose placeholder frames count against the goal of none at 2 items a second.
        var isSteadyBrowsing: Bool { self == .swipes || self == .keySteps || self == .slowDrags }
    }

    struct Event {
        enum Kind {
            case pointer(PointerEvent.Phase, x: Double, y: Double)
            case step(Step)
            /// Back from a picture opened on the wall.
            case back
        }
        var offset: Double
        var kind: Kind

        /// The engine input, `start` being the engine time at offset 0; nil for `back`,
        /// which goes to the view, not the engine.
        func input(start: Double) -> ViewInput? {
            let t = start + offset
            switch kind {
            case .pointer(let phase, let x, let y): return .pointer(PointerEvent(phase, .mouse, x: x, y: y, time: t))
            case .step(let s): return .step(s, time: t)
            case .back: return nil
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
    /// `axis`: the view's (the wall scrolls vertically; its mix also opens pictures);
    /// `stride`: along that axis, one item's step (the wall: the viewport's height).
    init(viewport: Size, stride: Double, axis: Axis = .horizontal, short: Bool = false) {
        restLength = short ? 0.3 : 3
        let vertical = axis == .vertical
        let cx = viewport.width / 2, cy = viewport.height / 2
        let centre = vertical ? cy : cx, length = vertical ? viewport.height : viewport.width
        var t = 0.0
        func begin(_ p: Phase) { phases.append((p, t)) }
        func point(_ along: Double) -> (Double, Double) { vertical ? (cx, along) : (along, cy) }
        func drag(from a1: Double, to a2: Double, over seconds: Double, hold: Double = 0) {
            let steps = max(2, Int((seconds * 60).rounded()))
            let p1 = point(a1), p2 = point(a2)
            events.append(Event(offset: t, kind: .pointer(.down, x: p1.0, y: p1.1)))
            for i in 1...steps {
                let p = point(a1 + (a2 - a1) * Double(i) / Double(steps))
                events.append(Event(offset: t + seconds * Double(i) / Double(steps), kind: .pointer(.move, x: p.0, y: p.1)))
            }
            events.append(Event(offset: t + seconds + hold, kind: .pointer(.up, x: p2.0, y: p2.1)))
        }
        let cx0 = centre

        begin(.firstLoad)
        t += short ? 0.3 : 1.0
        begin(.slowDrags)
        // The wall scrolls slowly past more than its two screens loaded ahead (3.2 screens).
        for _ in 0..<(short ? 1 : vertical ? 8 : 3) {
            drag(from: cx0 + 0.2 * stride, to: cx0 - 0.2 * stride, over: short ? 0.3 : 1.0, hold: 0.2)
            t += short ? 0.8 : 1.6
        }
        begin(.swipes)
        for _ in 0..<(short ? 2 : 10) {
            drag(from: cx0 + 0.1 * stride, to: cx0 - 0.1 * stride, over: 0.08)
            t += 0.5
        }
        begin(.keySteps)
        for _ in 0..<(short ? 2 : 10) {
            events.append(Event(offset: t, kind: .step(.next)))
            t += 0.5
        }
        begin(.flings)
        // The wall: flings all the way down it (a dozen, each a few screens).
        for _ in 0..<(short ? 1 : vertical ? 12 : 3) {
            drag(from: cx0 + 0.45 * length, to: cx0 - 0.45 * length, over: 0.12)
            t += short ? 0.8 : 1.5
        }
        begin(.jumps)
        events.append(Event(offset: t, kind: .step(.last)))
        t += short ? 0.6 : 1.2
        events.append(Event(offset: t, kind: .step(.first)))
        t += short ? 0.6 : 1.2
        if vertical {
            // Tap a tile near the middle, look at the picture, go back; three times.
            begin(.opening)
            for _ in 0..<(short ? 1 : 3) {
                events.append(Event(offset: t, kind: .pointer(.down, x: cx, y: cy)))
                events.append(Event(offset: t + 0.05, kind: .pointer(.up, x: cx, y: cy)))
                t += short ? 0.5 : 1.5
                events.append(Event(offset: t, kind: .back))
                t += short ? 0.5 : 1.0
            }
        }
        begin(.rest)
        t += restLength
        duration = t
    }

    /// The carousel's looks, played on one made with `--transition fade --ken-burns
    /// --autoplay 2 --idle-resume 1` (`looksBehaviour`): key steps a second apart that
    /// crossfade, autoplay's dwells with Ken Burns, then a double tap into the centred
    /// picture, pans and flings about it, and a double tap back; a rest.
    init(looksIn viewport: Size, short: Bool = false) {
        restLength = short ? 0.3 : 2
        let cx = viewport.width / 2, cy = viewport.height / 2
        var t = 0.0
        func begin(_ p: Phase) { phases.append((p, t)) }
        func press(_ x: Double, _ y: Double, at offset: Double) {
            events.append(Event(offset: offset, kind: .pointer(.down, x: x, y: y)))
            events.append(Event(offset: offset + 0.05, kind: .pointer(.up, x: x, y: y)))
        }
        func drag(by dx: Double, _ dy: Double, over seconds: Double) {
            let steps = max(2, Int((seconds * 60).rounded()))
            events.append(Event(offset: t, kind: .pointer(.down, x: cx, y: cy)))
            for i in 1...steps {
                let f = Double(i) / Double(steps)
                events.append(Event(offset: t + seconds * f, kind: .pointer(.move, x: cx + dx * f, y: cy + dy * f)))
            }
            events.append(Event(offset: t + seconds, kind: .pointer(.up, x: cx + dx, y: cy + dy)))
        }
        begin(.firstLoad)
        t += short ? 0.3 : 1.0
        begin(.fades)
        for _ in 0..<(short ? 2 : 6) {
            events.append(Event(offset: t, kind: .step(.next)))
            t += 1.0
        }
        begin(.kenBurns)
        t += short ? 3.5 : 7.5  // 1 s until autoplay resumes, then steps 2 s apart
        begin(.zoomedPanning)
        press(cx, cy, at: t)
        press(cx, cy, at: t + 0.15)
        t += 0.6
        for (dx, dy, seconds) in [(-300.0, 80.0, 0.8), (250, -150, 0.6), (400, 0, 0.12), (-500, 200, 0.15)].prefix(short ? 2 : 4) {
            drag(by: dx, dy, over: seconds)
            t += seconds + 1.0
        }
        press(cx, cy, at: t)
        press(cx, cy, at: t + 0.15)
        t += 0.8
        begin(.rest)
        t += restLength
        duration = t
    }

    /// The clips' mix, on a carousel resting on a clip: it plays for `seconds`, then key
    /// steps a second apart go to each of `stops` in turn (a clip starts as the strip rests
    /// on it, and the one before stops), then a rest.
    init(playing seconds: Double, thenStepping stops: [Int], short: Bool = false) {
        restLength = short ? 0.3 : 1
        var t = 0.0
        phases.append((.clipPlaying, t))
        t += seconds
        phases.append((.clipSteps, t))
        for item in stops.prefix(short ? 2 : 8) {
            events.append(Event(offset: t, kind: .step(.item(item))))
            t += 1.0
        }
        phases.append((.rest, t))
        t += restLength
        duration = t
    }

    /// Nothing but time: autoplay plays the clips from one to the next for `seconds`.
    init(autoplaying seconds: Double) {
        restLength = 0.3
        phases = [(.clipToClip, 0), (.rest, seconds)]
        duration = seconds + restLength
    }

    /// The behaviour the clip-to-clip mix is played with: autoplay moves on as each clip ends.
    static let clipToClipBehaviour = ["--autoplay", "1"]

    /// The behaviour the looks mix is played with.
    static let looksBehaviour = ["--transition", "fade", "--ken-burns", "--autoplay", "2", "--idle-resume", "1"]

    /// The phase at `offset` seconds.
    func phase(at offset: Double) -> Phase {
        phases.last { $0.start <= offset }?.phase ?? .firstLoad
    }
}
