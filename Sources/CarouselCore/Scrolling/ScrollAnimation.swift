/// A motion a scroller makes by itself, from a start time to an end time: a settle onto an
/// item, a glide that slows down, a return from past an end. Positions are in the
/// scroller's units.
public protocol ScrollAnimation: Sendable {
    var startTime: Double { get }
    /// When the motion has arrived at `target`.
    var endTime: Double { get }
    /// Where the motion ends.
    var target: Double { get }
    func position(at time: Double) -> Double
    /// Units per second.
    func velocity(at time: Double) -> Double
}

extension ScrollAnimation {
    public func isDone(at time: Double) -> Bool { time >= endTime }
}

extension SettleAnimation: ScrollAnimation {
    public var endTime: Double { startTime + duration }
}
