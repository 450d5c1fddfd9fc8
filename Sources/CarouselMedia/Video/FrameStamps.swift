/// The times frames are shown at, from the times their stream gives them: a frame stamped
/// at or before the one before it is shown one frame's length after it. A DivX or Xvid AVI
/// with "packed" B-frames (a camera's or an old film's) comes out of GStreamer's MPEG-4
/// decoder stamped t, t+1, t+1, t+3, …: shown as stamped, every third frame would be
/// dropped as late; re-stamped, the clip plays at its own rate, as ffmpeg shows it.
struct FrameStamps {
    private var previous: Double?

    /// When the frame stamped `time`, lasting `duration`, is shown.
    mutating func time(of time: Double, lasting duration: Double) -> Double {
        let shown = previous.map { time <= $0 ? $0 + duration : time } ?? time
        previous = shown
        return shown
    }

    /// After a seek or a loop: the next frame's stamp is taken as it is.
    mutating func restart() { previous = nil }
}
