/// Which decoded frames a video helper leaves out because the screen would pass over them:
/// a frame is left out when the one after it is decoded already and due too (as
/// `FramePacing` would drop it), as the main process's clock stands (`anchor`: when, on the
/// helper's clock, the frames' time 0 falls due). A clip whose frames cost more after their
/// decoding than the screen leaves them (an HDR clip's tone mapping on one core) then plays
/// at a lower frame rate in its time instead of ever further behind; a frame not yet
/// followed goes as it is, late, as the screen would show it. Never more than `mostInARow`
/// in a row: a stale anchor (a pause the main process did not say) costs a few frames, never
/// the picture, and the next frame shown corrects it.
public struct LateFrames: Sendable, Equatable {
    public static let mostInARow = 8
    public private(set) var inARow = 0
    public private(set) var dropped = 0

    public init() {}

    /// Whether the frame due at `time`, lasting `duration`, is late enough that its
    /// successor is due already: only then is the next one worth looking for.
    public func isBehind(_ time: Double, lasting duration: Double, anchor: Double?, now: Double) -> Bool {
        guard let anchor else { return false }
        return now - (anchor + time) > duration
    }

    /// Whether to leave out the frame due at `time`, the next one (due at `next`) being
    /// decoded already.
    public mutating func drop(_ time: Double, next: Double, anchor: Double?, now: Double) -> Bool {
        guard let anchor, next > time, now >= anchor + next, inARow < Self.mostInARow else { inARow = 0; return false }
        inARow += 1
        dropped += 1
        return true
    }

    /// A frame went to the screen.
    public mutating func sent() { inARow = 0 }
}
