import Glibc

/// The clip playing in a carousel, as `carousel bench` measures it: which item, its video
/// helper, when it arrived and showed its first frame (on the loop's clock), its frames
/// shown, passed over and shown late, what it is, and with sound the farthest a frame
/// showed from what was heard and how many more than 40 ms.
public struct ClipFigures: Sendable, Equatable {
    public var item: Int
    public var helper: pid_t
    public var arrived: Double
    public var firstFrame: Double?
    public var shown: Int
    public var dropped: Int
    /// Frames the decoder skipped, behind (`FramePacing.skipped`).
    public var skipped: Int = 0
    public var late: Int
    public var width: Int?
    public var height: Int?
    public var decoder: String?
    public var drift: Double? = nil
    public var drifted = 0
    /// It was made ready ahead (`ClipStage.prepare`): its first frame waited for its arrival.
    public var readyAhead = false
}
