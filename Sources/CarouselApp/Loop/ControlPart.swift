import CarouselControl
import CarouselCore
import CarouselSDL

/// The control API and MQTT: their requests come in as `.control` inputs and are carried out
/// as the same inputs keys and touches make; after each pass the state every part adds to is
/// published (the desk keeps only changes), and commands are answered once the view rests
/// with that state published. Screenshots are read back from the next frame drawn.
final class ControlPart: LoopPart {
    let desk: ControlDesk
    private var answers: ControlAnswers
    /// Autoplay is set (`--autoplay`): remote `pause` and `play` have something to do.
    let canPlay: Bool
    /// The wall the carousel goes back to (`--view mosaic|grid`); nil: the carousel only.
    let wall: ViewKind?
    /// The control API's address for people (Home Assistant's link to the screen); nil: none.
    let controlURL: String?

    init(desk: ControlDesk, clock: LoopClock, canPlay: Bool, wall: ViewKind?, controlURL: String?) {
        self.desk = desk
        self.answers = ControlAnswers(desk: desk, clock: clock)
        self.canPlay = canPlay
        self.wall = wall
        self.controlURL = controlURL
    }

    func nextDue(now: Double, loop: InteractiveLoop) -> Double? { answers.nextDue }

    func perform(_ input: AppInput, now: Double, byPerson: Bool, loop: InteractiveLoop) throws -> PartHandling {
        guard case .control = input else { return .notMine }
        try serve(now: now, loop: loop)
        return .done
    }

    func beforeAdvance(now: Double, loop: InteractiveLoop) throws { answers.letGoOfReadback(now: now) }

    func frameDrawn(now: Double, loop: InteractiveLoop) {
        answers.frameDrawn(at: now, animating: loop.scene.activity.moving, framesDrawn: loop.framesDrawn, screen: loop.screen)
    }

    func passEnded(now: Double, drawn: Double?, loop: InteractiveLoop) {
        publish(loop)
        guard loop.screenOn else { return answerDone(loop) }
        // Counted once the state is published: a /status that sees a frame drawn sees what it
        // showed (the first status had frames but no view under ThreadSanitizer).
        if let drawn { desk.frames.add(seconds: drawn, at: now) }
        if !loop.scene.activity.moving && !loop.parts.contains(where: { $0.holdsAnswers }) { answerDone(loop) }
    }

    func ended(loop: InteractiveLoop) { answers.ending() }

    func publish(into s: inout ShowState) {
        s.capabilities.canPlay = canPlay
        s.capabilities.wall = wall?.rawValue
        s.capabilities.controlURL = controlURL
    }

    /// Carries out what the control part asked since the last pass, in order, and answers
    /// each once its state is published; screenshots wait for the next frame.
    private func serve(now: Double, loop: InteractiveLoop) throws {
        for pending in desk.inbox.take() {
            switch pending.request {
            case .screenshot:
                if answers.screenshot(pending, now: now, framesDrawn: loop.framesDrawn, screenOn: loop.screenOn, size: loop.screen.outputSize) {
                    loop.needsDraw = true
                }
            case .command(let command):
                switch command.inputs(scene: loop.scene, screenOn: loop.screenOn, canPlay: canPlay, now: now) {
                case .failure(let refusal):
                    pending.answer(.refused(refusal))
                case .success(let inputs):
                    var refusal: String?
                    for input in inputs where refusal == nil { refusal = try loop.perform(input, now: now, byPerson: false) }
                    if let refusal {
                        pending.answer(.refused(.conflict(refusal)))
                        continue
                    }
                    if command == .pause { loop.paused = true } else if command == .play { loop.paused = false }
                    Log.info("control: \(command.name)")
                    answers.done(pending)
                }
            }
        }
    }

    /// Answers the commands done, now that the view is at rest and its state published.
    private func answerDone(_ loop: InteractiveLoop) {
        guard answers.waitForRest else { return }
        publish(loop)
        answers.answerDone()
    }

    /// Tells the desk what the screen shows now, from the view and every part.
    private func publish(_ loop: InteractiveLoop) {
        var s = ShowState()
        let scene = loop.scene, shown = scene.state
        s.view = shown.kind.rawValue
        s.count = scene.sources.count
        if let i = shown.focus, scene.sources.indices.contains(i) {
            let item = scene.sources[i]
            (s.index, s.source, s.title, s.caption) = (i, item.path, item.title, item.caption)
            s.paired = item.partners.first?.path
        }
        s.playing = canPlay && !loop.paused
        s.capabilities.count = scene.sources.count
        for part in loop.parts { part.publish(into: &s) }
        desk.publish(s)
    }
}
