import CarouselApp
import CarouselSDL
import Foundation
#if canImport(Glibc)
import Glibc
import CarouselClock
import CarouselCore
#endif

/// `carousel bench --soak --control-load`: a dashboard on the program under test, on its
/// control API: `GET /status` 20 times a second and `GET /screenshot.png` once a second,
/// each on a connection of its own. Counts the answers and times the screenshots.
final class ControlPoller: @unchecked Sendable {
    let port: Int
    private let lock = NSLock()
    private var running = true
    private(set) var statusAnswered = 0
    /// Answers other than 200, by status (0: no answer).
    private(set) var failures: [Int: Int] = [:]
    private(set) var screenshotSeconds: [Double] = []

    init(port: Int) { self.port = port }

    func start() {
        poll(every: 0.05) { [self] in
            let status = Self.get(port: port, path: "/status") ?? 0
            lock.withLock { if status == 200 { statusAnswered += 1 } else { failures[status, default: 0] += 1 } }
        }
        poll(every: 1) { [self] in
            let asked = LoopClock.system.now()
            let status = Self.get(port: port, path: "/screenshot.png") ?? 0
            lock.withLock { if status == 200 { screenshotSeconds.append(LoopClock.system.now() - asked) } else { failures[status, default: 0] += 1 } }
        }
    }

    /// Runs `request` every `interval` seconds on a thread of its own until `stop`.
    private func poll(every interval: Double, _ request: @escaping @Sendable () -> Void) {
        Thread.detachNewThread { [self] in
            var next = LoopClock.system.now()
            while lock.withLock({ running }) {
                request()
                next += interval
                let wait = next - LoopClock.system.now()
                if wait > 0 { usleep(UInt32(wait * 1e6)) } else { next = LoopClock.system.now() }
            }
        }
    }

    func stop() { lock.withLock { running = false } }

    /// One line for the report.
    var summary: String {
        lock.withLock {
            let p = Percentiles(screenshotSeconds)
            let ms = { (v: Double?) in v.map { String(format: "%.1f ms", $0 * 1000) } ?? "-" }
            let failed = failures.isEmpty ? "none failed" : "failed: " + failures.sorted { $0.key < $1.key }.map { "\($0.value) with \($0.key <= 0 ? "no answer (errno \(-$0.key))" : String($0.key))" }.joined(separator: ", ")
            return "control load: \(statusAnswered) /status answered, \(screenshotSeconds.count) screenshots (p50 \(ms(p.at(0.5))), max \(ms(p.largest))), \(failed)\n"
        }
    }

    /// A free loopback port now (the kernel's choice for port 0).
    static func freePort() -> Int? {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        return bound ? Int(UInt16(bigEndian: addr.sin_port)) : nil
    }

    /// The status code of `GET path` on loopback, reading the whole answer; nil on failure.
    static func get(port: Int, path: String) -> Int? {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = in_port_t(UInt16(port).bigEndian)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
        guard connected else { return -Int(errno) }
        let request = Array("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8)
        guard request.withUnsafeBytes({ send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }) == request.count else { return nil }
        var head: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n < 0 && errno == EINTR { continue }
            if n < 0 && head.isEmpty { return -Int(errno) }
            if n <= 0 { break }
            if head.count < 32 { head += buffer[0..<min(n, 32)] }
        }
        let line = String(decoding: head, as: UTF8.self)
        return line.split(separator: " ").dropFirst().first.flatMap { Int($0) }
    }
}
