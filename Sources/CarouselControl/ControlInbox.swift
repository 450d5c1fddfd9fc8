import NIOConcurrencyHelpers

/// What the control transports ask of the run loop: a command, or the frame on screen.
public enum LoopRequest: Hashable, Sendable {
    case command(ControlCommand)
    case screenshot
}

/// The run loop's answer.
public enum LoopAnswer: Sendable {
    case done
    case refused(ControlRefusal)
    /// The frame shown, at the screen's size: RGBA, or BGRA as the software renderer reads
    /// it back (swapped off the drawing thread).
    case frame(width: Int, height: Int, pixels: [UInt8], bgra: Bool)
}

/// Requests on their way into the run loop: the transports post them from their threads and
/// wake the loop; the loop takes them all at its next pass (as it takes input) and answers
/// each. Bounded: beyond `limit` waiting, a request is refused at once (503).
public final class ControlInbox: Sendable {
    public struct Pending: Sendable {
        public let request: LoopRequest
        public let answer: @Sendable (LoopAnswer) -> Void
    }

    public static let limit = 64
    private let waiting = NIOLockedValueBox<[Pending]>([])
    private let wake: @Sendable () -> Void

    /// - Parameter wake: wakes the run loop (posts an event to its queue).
    public init(wake: @escaping @Sendable () -> Void) {
        self.wake = wake
    }

    public func post(_ request: LoopRequest, answer: @escaping @Sendable (LoopAnswer) -> Void) {
        let accepted = waiting.withLockedValue { queue -> Bool in
            guard queue.count < Self.limit else { return false }
            queue.append(Pending(request: request, answer: answer))
            return true
        }
        if accepted { wake() } else { answer(.refused(ControlRefusal(503, "the screen has \(Self.limit) requests waiting already"))) }
    }

    /// Everything posted since the last call, oldest first (the run loop).
    public func take() -> [Pending] {
        waiting.withLockedValue { queue in
            defer { queue.removeAll() }
            return queue
        }
    }
}
