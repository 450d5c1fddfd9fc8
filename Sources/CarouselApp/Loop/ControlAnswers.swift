import CarouselCore
import CarouselControl
import CarouselSDL

/// What the run loop owes the control part: the screenshots asked for and the commands
/// done, each answered at its moment. A screenshot is answered with the frame the motion
/// under way comes to rest on (a read-back in the middle of a motion would delay its
/// frame), or after `screenshotPatience` seconds with the frame then drawn; a command with
/// the state its motion ends in. Main thread.
struct ControlAnswers {
    let desk: ControlDesk
    /// Measures the read-backs (the loop's clock).
    let clock: LoopClock

    private var screenshots: [ControlInbox.Pending] = []
    private var screenshotsAskedAt: Double?
    private let screenshotPatience = 1.0
    /// The frame last read back, while it is still the one on screen (nothing drawn since):
    /// screenshots at rest cost no drawing at all. Let go at the next frame.
    private var shownFrame: (number: Int, answer: LoopAnswer)?
    /// The pixels of the last read-back, reused by the next when the encoder is done with
    /// them; let go when no screenshot was asked for `readbackKept` seconds.
    private var readback: [UInt8] = []
    private var lastReadback = 0.0
    private let readbackKept = 30.0
    /// Commands done whose motion is still under way.
    private var atRest: [ControlInbox.Pending] = []

    init(desk: ControlDesk, clock: LoopClock) {
        self.desk = desk
        self.clock = clock
    }

    /// When the read-back's pixels are let go, if it holds any: the loop wakes for it.
    var nextDue: Double? { readback.isEmpty ? nil : lastReadback + readbackKept }

    /// A dashboard that stopped asking: the read-back's 8 MB (at 1080p) is the kiosk's again.
    mutating func letGoOfReadback(now: Double) {
        guard !readback.isEmpty, now >= lastReadback + readbackKept else { return }
        readback = []
        shownFrame = nil
    }

    /// A screenshot asked for at `now`, of frame `framesDrawn` on a screen of `size`:
    /// answered at once from the frame on screen if it was read back, or black for a dark
    /// screen; else kept for the next frame. Whether a frame must be drawn for it.
    mutating func screenshot(_ pending: ControlInbox.Pending, now: Double, framesDrawn: Int, screenOn: Bool, size: Size) -> Bool {
        if screenOn, let shown = shownFrame, shown.number == framesDrawn {
            pending.answer(shown.answer)
            return false
        }
        if screenOn {
            screenshots.append(pending)
            if screenshotsAskedAt == nil { screenshotsAskedAt = now }
            return true
        }
        let (w, h) = (Int(size.width), Int(size.height))
        var black = [UInt8](repeating: 0, count: w * h * 4)
        for alpha in stride(from: 3, to: black.count, by: 4) { black[alpha] = 255 }
        pending.answer(.frame(width: w, height: h, pixels: black, bgra: false))
        return false
    }

    /// A command done: answered once the view is at rest.
    mutating func done(_ pending: ControlInbox.Pending) { atRest.append(pending) }

    /// A frame was drawn (not yet presented): the screenshots waiting are answered from it
    /// when the view rests, or once they waited `screenshotPatience`. `framesDrawn`: the
    /// frames presented before it.
    mutating func frameDrawn(at now: Double, animating: Bool, framesDrawn: Int, screen: any LoopScreen) {
        shownFrame = nil
        guard let asked = screenshotsAskedAt, !animating || now - asked >= screenshotPatience else { return }
        // Read back for the screenshots asked for (the drawing pays only for this; the PNG
        // is encoded on the API's side).
        let size = screen.outputSize
        let (w, h) = (Int(size.width), Int(size.height))
        let started = clock.now()
        let bgra = screen.readFrame(into: &readback)
        desk.noteReadback(seconds: clock.now() - started)
        let answer = bgra.map { LoopAnswer.frame(width: w, height: h, pixels: readback, bgra: $0) }
            ?? .refused(ControlRefusal(500, "the frame could not be read back"))
        for pending in screenshots { pending.answer(answer) }
        // This frame is the one on screen until the next is drawn (counted after present).
        if bgra != nil { shownFrame = (framesDrawn + 1, answer) }
        lastReadback = started
        screenshots = []
        screenshotsAskedAt = nil
    }

    /// Whether commands wait for the view to rest.
    var waitForRest: Bool { !atRest.isEmpty }

    /// Answers the commands done, the view being at rest and its state published.
    mutating func answerDone() {
        for pending in atRest { pending.answer(.done) }
        atRest = []
    }

    /// The loop ends: a reload asked for is under way (its answer is the status as it
    /// begins); everything else is refused, to be asked again.
    mutating func ending() {
        for pending in atRest where pending.request == .command(.reload) { pending.answer(.done) }
        let unanswered = atRest.filter { $0.request != .command(.reload) }
        for pending in screenshots + unanswered + desk.inbox.take() {
            pending.answer(.refused(ControlRefusal(503, "the screen is starting again; ask again")))
        }
        atRest = []
        screenshots = []
    }
}
