/// Which decoded frames a video helper leaves out because the screen could no longer show
/// them: a frame is left out when the one after it is due already (`FramePacing` would pass
/// over it), as the main process's clock stands (`anchor`: when, on the helper's clock, the
/// frames' time 0 falls due). A decoder slower than the clip then plays it at a lower frame
/// rate in its time instead of ever further behind. Never more than `mostInARow` in a row:
/// a stale anchor (a pause the main process did not say) costs a few frames, never the
/// picture, and the next frame shown corrects it.
public struct LateFrames: Sendable, Equatable {
    public static let mostInARow = 8
    public private(set) var inARow = 0
    public private(set) var dropped = 0

    public init() {}

    /// Whether to leave out the frame due at `time` lasting `duration`: how late it is,
    /// seconds, if so; nil to send it.
    public mutating func drop(_ time: Double, lasting duration: Double, anchor: Double?, now: Double) -> Double? {
        guard let anchor else { inARow = 0; return nil }
        let late = now - (anchor + time)
        guard late > duration, inARow < Self.mostInARow else { inARow = 0; return nil }
        inARow += 1
        dropped += 1
        return late
    }
}
