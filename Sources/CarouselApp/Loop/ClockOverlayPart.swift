/// `--clock`: the time of day over the view. Its text is read when it changes (the minute,
/// or the second for a face that shows seconds); the screen draws it.
final class ClockOverlayPart: LoopPart {
    let face: ClockText
    /// When, on the loop's clock, the text changes next.
    private var due: Double?

    init(face: ClockText) { self.face = face }

    func nextDue(now: Double, loop: InteractiveLoop) -> Double? { loop.screenOn ? due : nil }

    func pass(now: Double, loop: InteractiveLoop) throws {
        guard now >= due ?? 0 else { return }
        let text = face.text()
        if text != loop.screen.clockText {
            loop.screen.clockText = text
            loop.needsDraw = true
        }
        due = face.nextChange(now: now)
    }
}
