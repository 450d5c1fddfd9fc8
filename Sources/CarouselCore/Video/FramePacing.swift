/// When each frame of a playing clip shows, on the loop's one clock: a frame shows on the
/// first screen refresh at or after its time (`start` + its time in the clip); of the frames
/// waiting, the latest that is due shows and those before it are dropped, never queued
/// behind it; one shown more than a refresh after it was due is counted late. With sound,
/// the clock follows what is heard instead (`follow`): the picture keeps to the sound, and
/// how far each frame shown lies from it is measured. Pure: the frames' times, the time and
/// the sound's position come in as values.
public struct FramePacing: Sendable, Equatable {
    /// The loop time at which the clip's time 0 shows; nil until it is fixed.
    public private(set) var start: Double?
    /// Frames shown, passed over (dropped), and shown more than `refresh` after their time.
    public private(set) var shown = 0
    public private(set) var dropped = 0
    public private(set) var late = 0
    /// Frames the decoder never gave (it skipped them, told by QoS that it was behind): the
    /// gaps between one frame's end and the next one's time, in frames (`received`).
    public private(set) var skipped = 0
    /// Where the last frame received ended in the clip; nil before the first.
    private var receivedEnd: Double?
    /// A screen refresh, seconds.
    public var refresh: Double
    /// Frames shown while following the sound, the farthest one lay from what was heard
    /// (seconds, either way), and how many lay more than `Self.driftLimit` from it.
    public private(set) var shownWithSound = 0
    public private(set) var worstDrift = 0.0
    public private(set) var drifted = 0
    /// The clip time heard at the time of the last `follow`; nil: no sound to follow.
    private var heard: Heard?
    private struct Heard: Sendable, Equatable { var time: Double; var clip: Double }

    /// How far from the sound a frame may show before it counts as drifted: 40 ms, about
    /// where viewers begin to notice lips out of step.
    public static let driftLimit = 0.040
    /// A difference between the clock and the sound past which the clock jumps to it (the
    /// sound began, came back after running dry, or was sought); smaller ones are closed a
    /// fraction `followGain` each pass, so that the sound position's steps (an output takes
    /// its samples a buffer at a time) do not shake the picture.
    public static let followJump = 0.030
    public static let followGain = 0.3

    public init(start: Double? = nil, refresh: Double = 1.0 / 60) {
        self.start = start
        self.refresh = refresh
    }

    /// A frame came from the decoder: `time` in the clip, lasting `duration`. A gap before it
    /// of at least half a frame is frames the decoder skipped (a seek or a new play starts
    /// the count again: `restart`).
    public mutating func received(time: Double, duration: Double) {
        guard time.isFinite, duration.isFinite, duration > 0 else { return }
        if let end = receivedEnd, time > end {
            skipped += Int(((time - end) / duration).rounded())
        }
        receivedEnd = time + duration
    }

    /// The clip moved (a seek): the next frame received is not measured against the last.
    public mutating func forgetReceived() { receivedEnd = nil }

    /// What to do at `now` with the frames waiting (their times in the clip, ascending): the
    /// index of the one to show, if any is due, and how many before it are dropped. The
    /// clock starts with the first frame (so it shows at once) unless `start` was fixed.
    public mutating func choose(_ waiting: [Double], at now: Double) -> (show: Int?, drop: Int) {
        guard let first = waiting.first else { return (nil, 0) }
        if start == nil { start = now - first }
        let origin = start!
        // A microsecond's grace: a frame due exactly now shows now.
        guard let show = waiting.lastIndex(where: { origin + $0 <= now + 1e-6 }) else { return (nil, 0) }
        shown += 1
        dropped += show
        if now - (origin + waiting[show]) > refresh { late += 1 }
        if let heard, heard.time == now {
            let drift = abs(waiting[show] - heard.clip)
            shownWithSound += 1
            worstDrift = max(worstDrift, drift)
            if drift > Self.driftLimit { drifted += 1 }
        }
        return (show, show)
    }

    /// Keeps the clock to the sound: `heard` is the clip time heard at `now` (nil when no
    /// sound plays, or the output ran dry: the clock goes on by itself). Called before
    /// `choose` at the same `now`, which then measures the frame it shows against it.
    public mutating func follow(heard clip: Double?, at now: Double) {
        guard let clip, clip.isFinite else { heard = nil; return }
        heard = Heard(time: now, clip: clip)
        let target = now - clip
        guard let start, abs(target - start) <= Self.followJump else { self.start = target; return }
        self.start = start + (target - start) * Self.followGain
    }

    /// When the next of `waiting` (times in the clip) is due; nil when none is, or the clock
    /// has not started.
    public func due(_ waiting: [Double]) -> Double? {
        guard let start, let first = waiting.first else { return nil }
        return start + first
    }

    /// Starts the clock again (the clip moved: a seek): with the frame at `clipTime` showing
    /// at `time`, or, without one, with the next frame, at once whenever it comes.
    public mutating func restart(showing clipTime: Double? = nil, at time: Double = 0) {
        start = clipTime.map { time - $0 }
    }

    /// The clip was paused for `seconds`: every frame still to show comes that much later.
    public mutating func delay(by seconds: Double) {
        if let start { self.start = start + seconds }
    }
}
