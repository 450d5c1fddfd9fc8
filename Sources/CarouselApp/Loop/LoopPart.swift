import CarouselControl

/// One feature riding the run loop: the screen's power, the backlight, the group, the
/// folders and broken pictures, the clock overlay, the control API, memory pressure. The
/// loop knows none of them by name: it asks each, in the order they were added, when it is
/// next due, whether an input is its to do, what it does in a pass, and what it adds to the
/// state published. A new feature is a new part (one file) and one line where `RunCommand`
/// adds the parts; every member has a default that does nothing.
protocol LoopPart: AnyObject {
    /// When this part needs the loop awake next, on the loop's clock; nil: not before
    /// something else wakes it. Asked before each sleep (also while the screen is dark: a
    /// part with nothing to do then answers nil).
    func nextDue(now: Double, loop: InteractiveLoop) -> Double?

    /// Does `input` if it is this part's: `.done`, `.refused(why)`, or `.notMine` for the
    /// next part (and at last the loop) to do. A person's input (`byPerson`) passes here too.
    func perform(_ input: AppInput, now: Double, byPerson: Bool, loop: InteractiveLoop) throws -> PartHandling

    /// Early in a pass, the inputs done, before the view moves (the screen's power: while
    /// it is dark the rest of the pass is left out).
    func beforeAdvance(now: Double, loop: InteractiveLoop) throws

    /// Its work in a pass with the screen lit, after the view moved and took its images.
    func pass(now: Double, loop: InteractiveLoop) throws

    /// A frame was drawn into the screen, not presented yet (a screenshot reads it back).
    func frameDrawn(now: Double, loop: InteractiveLoop)

    /// The pass ends: `drawn`, the seconds the frame took if one was drawn.
    func passEnded(now: Double, drawn: Double?, loop: InteractiveLoop)

    /// Adds what this part knows to the state the control API and MQTT publish.
    func publish(into state: inout ShowState)

    /// Answers to commands wait while this is true (the group announcing a step).
    var holdsAnswers: Bool { get }

    /// The loop ends (quit or reload).
    func ended(loop: InteractiveLoop)
}

/// What a part made of an input.
enum PartHandling: Equatable {
    /// Not this part's: the next one's, or the loop's.
    case notMine
    case done
    /// It could not be done, and why (a remote command is answered with it).
    case refused(String)
}

extension LoopPart {
    func nextDue(now: Double, loop: InteractiveLoop) -> Double? { nil }
    func perform(_ input: AppInput, now: Double, byPerson: Bool, loop: InteractiveLoop) throws -> PartHandling { .notMine }
    func beforeAdvance(now: Double, loop: InteractiveLoop) throws {}
    func pass(now: Double, loop: InteractiveLoop) throws {}
    func frameDrawn(now: Double, loop: InteractiveLoop) {}
    func passEnded(now: Double, drawn: Double?, loop: InteractiveLoop) {}
    func publish(into state: inout ShowState) {}
    var holdsAnswers: Bool { false }
    func ended(loop: InteractiveLoop) {}
}
