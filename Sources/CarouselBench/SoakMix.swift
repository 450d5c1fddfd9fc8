import CarouselApp
import CarouselCore

/// The seeded random life of a kiosk that `carousel bench --soak` plays: spells of drags,
/// flings, taps, keys and the wheel, idle spells and long ones in which autoplay takes over,
/// resizes and rotations of the window, SIGHUP reloads, and churn in the picture folder.
/// The same seed and screen size give the same steps at the same times, so a run that found
/// something can be played again. It is an endless stream: `next()` gives the following step.
///
/// Two processes play it: the program under test performs the input and window steps
/// (`isInput`), the supervising bench the signals and the file churn; each makes the same
/// stream from the seed and skips the other's steps.
struct SoakMix: Sendable {
    /// One thing that happens, `offset` seconds after the start.
    struct TimedStep: Equatable, Sendable {
        var offset: Double
        var step: Step
    }

    enum Step: Equatable, Sendable {
        /// A finger (`finger` true) or the left mouse button, at viewport pixels.
        case pointer(PointerEvent.Phase, x: Double, y: Double, finger: Bool)
        /// Wheel notches: positive scrolls down (forward).
        case wheel(Double)
        /// A key, by SDL's name for it ("Left", "Space", "PageDown").
        case key(String)
        /// The window becomes this size (a rotation swaps its sides).
        case resize(width: Int, height: Int)
        /// SIGHUP: read the configuration and the sources again.
        case reload
        case files(FileChurn)

        /// Whether the program under test performs it (else the supervising bench does).
        var isInput: Bool {
            switch self {
            case .pointer, .wheel, .key, .resize: return true
            case .reload, .files: return false
            }
        }
    }

    /// What happens to the temporary copy of the pictures.
    enum FileChurn: Equatable, Sendable {
        /// Pictures added under new names.
        case add(Int)
        /// A picture deleted and written again under its name over about a second, as a
        /// slow copy does: the program sees it while it is incomplete.
        case replaceWhileWriting
        case remove(Int)
        case rename(Int)
        /// Every picture removed, and put back a few seconds later.
        case emptyAndRefill
        /// Damaged copies (bit flips, truncations, lengths, huge dimensions) dropped in.
        case hostile(Int)
    }

    /// What a spell is: the mix chooses one after another, each followed by a pause.
    enum Spell: String, CaseIterable, Sendable {
        case swipes, taps, keys, wheel, idle, autoplay, resize, reload, files
        /// Out of 100: how often each is chosen.
        var weight: Int {
            switch self {
            case .swipes: return 30
            case .taps: return 8
            case .keys: return 10
            case .wheel: return 8
            case .idle: return 10
            case .autoplay: return 6
            case .resize: return 5
            case .reload: return 4
            case .files: return 19
            }
        }
    }

    /// Sizes a resize chooses from, besides a rotation of the current one.
    static let sizes = [(1920, 1080), (1280, 720), (1024, 600), (800, 480), (1366, 768)]
    /// Autoplay steps every this many seconds once nobody has touched the screen for
    /// `idleResume`: the program under test is started with both.
    static let autoplayInterval = 3.0
    static let idleResume = 15.0

    private var random: SeededRandom
    private var time = 0.0
    private var pending: [TimedStep] = []
    private var pendingIndex = 0
    /// The window's size as the steps so far left it.
    private(set) var width: Int
    private(set) var height: Int
    private let initial: (Int, Int)

    init(seed: UInt64, width: Int, height: Int) {
        random = SeededRandom(seed: seed)
        self.width = width
        self.height = height
        initial = (width, height)
    }

    /// The next step, in time order.
    mutating func next() -> TimedStep {
        while pendingIndex >= pending.count {
            pending.removeAll(keepingCapacity: true)
            pendingIndex = 0
            addSpell()
        }
        pendingIndex += 1
        return pending[pendingIndex - 1]
    }

    /// Every step due before `offset` seconds.
    mutating func steps(before offset: Double) -> [TimedStep] {
        var out: [TimedStep] = []
        while true {
            let s = peek()
            guard s.offset < offset else { return out }
            out.append(next())
        }
    }

    /// The next step without taking it.
    mutating func peek() -> TimedStep {
        var copy = self
        return copy.next()
    }

    private mutating func uniform(_ range: ClosedRange<Double>) -> Double { Double.random(in: range, using: &random) }
    private mutating func count(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &random) }
    private mutating func chance(_ p: Double) -> Bool { uniform(0...1) < p }

    private mutating func at(_ offset: Double, _ step: Step) { pending.append(TimedStep(offset: offset, step: step)) }

    private mutating func chooseSpell() -> Spell {
        var pick = count(1...Spell.allCases.reduce(0) { $0 + $1.weight })
        for s in Spell.allCases {
            pick -= s.weight
            if pick <= 0 { return s }
        }
        return .idle
    }

    private mutating func addSpell() {
        let w = Double(width), h = Double(height)
        switch chooseSpell() {
        case .swipes:
            for _ in 0..<count(2...8) {
                // Short quick drags are flings, long slow ones drags that realign.
                let finger = chance(0.6)
                let y = h * uniform(0.3...0.7)
                let x1 = w * uniform(0.2...0.8)
                let x2 = min(max(x1 + w * uniform(0.08...0.6) * (chance(0.5) ? 1 : -1), 1), w - 1)
                let seconds = uniform(0.08...0.9)
                let moves = max(2, Int(seconds * 60))
                at(time, .pointer(.down, x: x1, y: y, finger: finger))
                for i in 1...moves {
                    let f = Double(i) / Double(moves)
                    at(time + seconds * f, .pointer(.move, x: x1 + (x2 - x1) * f, y: y + uniform(-3...3), finger: finger))
                }
                time += seconds + (chance(0.2) ? uniform(0.1...0.5) : 0)
                at(time, .pointer(.up, x: x2, y: y, finger: finger))
                time += uniform(0.2...2)
            }
        case .taps:
            for _ in 0..<count(1...3) {
                let finger = chance(0.6)
                let x = w * uniform(0.05...0.95), y = h * uniform(0.1...0.9)
                at(time, .pointer(.down, x: x, y: y, finger: finger))
                time += uniform(0.04...0.2)
                at(time, .pointer(.up, x: x, y: y, finger: finger))
                time += uniform(0.5...3)
            }
        case .keys:
            let keys = ["Left", "Right", "Space", "Home", "End", "PageUp", "PageDown"]
            for _ in 0..<count(1...6) {
                at(time, .key(keys[count(0...keys.count - 1)]))
                time += uniform(0.3...1.5)
            }
        case .wheel:
            let direction = chance(0.5) ? 1.0 : -1.0
            for _ in 0..<count(3...15) {
                at(time, .wheel(direction))
                time += uniform(0.05...0.4)
            }
        case .idle:
            time += uniform(3...12)
        case .autoplay:
            time += Self.idleResume + uniform(5...45)
        case .resize:
            if chance(0.4) {
                (width, height) = (height, width)
            } else if chance(0.3) {
                (width, height) = initial
            } else {
                (width, height) = Self.sizes[count(0...Self.sizes.count - 1)]
            }
            at(time, .resize(width: width, height: height))
            time += uniform(1...4)
        case .reload:
            at(time, .reload)
            time += uniform(2...6)
        case .files:
            let churn: FileChurn
            switch count(1...100) {
            case 1...30: churn = .add(count(1...20))
            case 31...50: churn = .replaceWhileWriting
            case 51...70: churn = .remove(count(1...10))
            case 71...85: churn = .rename(count(1...10))
            case 86...88: churn = .emptyAndRefill
            default: churn = .hostile(count(1...3))
            }
            at(time, .files(churn))
            time += uniform(0.5...5)
        }
        if pending.isEmpty { time += 0.001 }  // a spell with no step still moves time on
    }
}
