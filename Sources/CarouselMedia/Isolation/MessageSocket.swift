import CLinux
import Glibc
import CarouselClock

/// One end of a connected SOCK_SEQPACKET socket pair carrying `HelperMessage`s and the
/// descriptors beside them. Owns its descriptor.
final class MessageSocket: @unchecked Sendable {
    /// What `receive` got.
    enum Received {
        case message(HelperMessage, descriptor: Int32?)
        /// Nothing arrived before the deadline.
        case timedOut
        /// The other end closed (or died).
        case closed
        /// Something arrived that is not a message.
        case malformed(String)
    }

    let descriptor: Int32

    init(descriptor: Int32) { self.descriptor = descriptor }
    deinit { close(descriptor) }

    /// A connected pair, both ends close-on-exec.
    static func pair() -> (MessageSocket, MessageSocket)? {
        var fds: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_SEQPACKET.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &fds) == 0 else { return nil }
        return (MessageSocket(descriptor: fds[0]), MessageSocket(descriptor: fds[1]))
    }

    /// Sends `message`, with `attached` passed beside it. False when the peer is gone.
    /// A descriptor the kernel will not put in flight yet waits until the peer has taken
    /// some (at most `fullWait` seconds): a user may have no more descriptors in flight than
    /// its RLIMIT_NOFILE (a helper's is 32), and a clip's sound is a memfd a piece, some 50 a
    /// second. Root is not limited; the kiosk's user is, and a main process slowed by a busy
    /// machine then lost pieces of sound, silently (ETOOMANYREFS).
    @discardableResult
    func send(_ message: HelperMessage, attaching attached: Int32 = -1) -> Bool {
        let bytes = message.encoded
        var waited = 0.0
        while true {
            let sent = bytes.withUnsafeBytes { kc_send_with_fd(descriptor, $0.baseAddress, $0.count, attached) }
            if sent == bytes.count { return true }
            guard sent < 0, attached >= 0, errno == ETOOMANYREFS, waited < Self.fullWait else { return false }
            usleep(2_000)
            waited += 0.002
        }
    }

    /// Seconds a descriptor waits for room in flight before the message is given up.
    static let fullWait = 10.0

    /// Whether a message (or the end) waits to be received, without waiting.
    var hasMessage: Bool {
        var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        return poll(&poller, 1, 0) > 0
    }

    /// Waits for the next message until `deadline` (a `SystemClock.monotonic` reading), or for
    /// ever when nil. A descriptor that arrives is the caller's to close.
    func receive(until deadline: Double? = nil) -> Received {
        while true {
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let timeout: Int32
            if let deadline {
                let left = deadline - SystemClock.monotonic
                if left <= 0 { return .timedOut }
                timeout = Int32(min((left * 1000).rounded(.up), 60_000))
            } else {
                timeout = -1
            }
            let ready = poll(&poller, 1, timeout)
            if ready < 0 && errno == EINTR { continue }
            if ready < 0 { return .malformed("poll failed: \(String(cString: strerror(errno)))") }
            if ready == 0 { continue }  // loop re-checks the deadline
            var buffer = [UInt8](repeating: 0, count: HelperMessage.maxBytes)
            var passed: Int32 = -1
            let n = buffer.withUnsafeMutableBytes { kc_recv_with_fd(descriptor, $0.baseAddress, $0.count, &passed) }
            if n == 0 { return .closed }
            if n < 0 {
                if errno == ECONNRESET || errno == EPIPE { return .closed }
                return .malformed("receive failed: \(String(cString: strerror(errno)))")
            }
            guard let message = HelperMessage(decoding: Array(buffer.prefix(n))) else {
                if passed >= 0 { close(passed) }
                return .malformed("a message of \(n) bytes that is not one of ours")
            }
            return .message(message, descriptor: passed >= 0 ? passed : nil)
        }
    }
}
