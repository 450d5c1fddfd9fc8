import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// `carousel bench --soak --control-load`: a dashboard on the program under test, on its
/// control API: `GET /status` 20 times a second and `GET /screenshot.png` once a second,
/// each on a connection of its own. Counts the answers and times the screenshots.
final class ControlPoller: @unchecked Sendable {
    let port: Int
    private let lock = NSLock()
    private var running = true
    private(set) var statusAnswered = 0
    private(set) var failures = 0
    private(set) var screenshotSeconds: [Double] = []

    init(port: Int) { self.port = port }

    func start() {
        Thread.detachNewThread { [self] in
            var next = ProcessStats.now, lastShot = 0.0
            while lock.withLock({ running }) {
                let now = ProcessStats.now
                if now - lastShot >= 1 {
                    lastShot = now
                    let ok = Self.get(port: port, path: "/screenshot.png") == 200
                    lock.withLock { if ok { screenshotSeconds.append(ProcessStats.now - now) } else { failures += 1 } }
                }
                let ok = Self.get(port: port, path: "/status") == 200
                lock.withLock { if ok { statusAnswered += 1 } else { failures += 1 } }
                next += 0.05
                let wait = next - ProcessStats.now
                if wait > 0 { usleep(UInt32(wait * 1e6)) } else { next = ProcessStats.now }
            }
        }
    }

    func stop() { lock.withLock { running = false } }

    /// One line for the report.
    var summary: String {
        lock.withLock {
            let p = Percentiles(screenshotSeconds)
            let ms = { (v: Double?) in v.map { String(format: "%.1f ms", $0 * 1000) } ?? "-" }
            return "control load: \(statusAnswered) /status answered, \(screenshotSeconds.count) screenshots (p50 \(ms(p.at(0.5))), max \(ms(p.largest))), \(failures) failed\n"
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
        guard connected else { return nil }
        let request = Array("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8)
        guard request.withUnsafeBytes({ send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }) == request.count else { return nil }
        var head: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 { break }
            if head.count < 32 { head += buffer[0..<min(n, 32)] }
        }
        let line = String(decoding: head, as: UTF8.self)
        return line.split(separator: " ").dropFirst().first.flatMap { Int($0) }
    }
}
