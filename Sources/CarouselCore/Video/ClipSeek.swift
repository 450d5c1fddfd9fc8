/// A move within the clip playing: to a time from its start, or by seconds from the frame
/// on screen (negative: back). J and L (or a remote's rewind and fast-forward keys), the
/// control API's `POST /seek` and MQTT's `seek` ask for one; the clip's own length bounds it.
public enum ClipSeek: Hashable, Sendable {
    case to(Double)
    case by(Double)

    /// What J and L move: 10 s, as video players do.
    public static let step = 10.0

    /// The time from the clip's start it leads to, from `position` (the frame on screen),
    /// within 0 and `duration` when that is known.
    public func target(from position: Double, duration: Double?) -> Double {
        let wanted: Double
        switch self {
        case .to(let t): wanted = t
        case .by(let d): wanted = position + d
        }
        let floor = max(0, wanted.isFinite ? wanted : 0)
        return duration.map { min(floor, $0) } ?? floor
    }
}
