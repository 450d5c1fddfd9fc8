import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A raw HTTP/1.1 client on a real socket, for tests of the control API: sends exactly the
/// bytes given (malformed ones too) and reads the answer until the server closes or a
/// timeout passes.
public struct HTTPProbe {
    public struct Response {
        public var status: Int
        public var headers: [String: String]
        public var body: [UInt8]
        public var text: String { String(decoding: body, as: UTF8.self) }
        public var json: [String: Any]? { try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any] }
    }

    public let port: Int
    public init(port: Int) { self.port = port }

    /// A connected socket, or -1.
    public func connect() -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = in_port_t(UInt16(port).bigEndian)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        let rc = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        if rc != 0 { close(fd); return -1 }
        return fd
    }

    public static func send(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { return false }
            sent += n
        }
        return true
    }

    /// Everything the server sends until it closes, until what came so far contains `text`,
    /// or until `timeout` seconds pass.
    public static func readAll(_ fd: Int32, timeout: Double, until text: String? = nil) -> (bytes: [UInt8], closed: Bool) {
        var out: [UInt8] = []
        let deadline = Date().addingTimeInterval(timeout)
        var buffer = [UInt8](repeating: 0, count: 65536)
        while Date() < deadline {
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ms = Int32(max(1, deadline.timeIntervalSinceNow * 1000))
            guard poll(&p, 1, ms) > 0 else { continue }
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 { return (out, true) }
            out += buffer[0..<n]
            if let text, String(decoding: out, as: UTF8.self).contains(text) { return (out, false) }
        }
        return (out, false)
    }

    /// One request with `Connection: close`; nil when the server closed without answering.
    public func request(_ method: String, _ target: String, body: String? = nil, headers: [String] = [],
                        timeout: Double = 10) -> Response? {
        var text = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
        for h in headers { text += h + "\r\n" }
        if let body { text += "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n" }
        text += "\r\n" + (body ?? "")
        return raw(Array(text.utf8), timeout: timeout)
    }

    /// Sends `bytes` and parses what comes back.
    public func raw(_ bytes: [UInt8], timeout: Double = 10) -> Response? {
        let fd = connect()
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        _ = Self.send(fd, bytes)
        return Self.parse(Self.readAll(fd, timeout: timeout).bytes)
    }

    public static func parse(_ bytes: [UInt8]) -> Response? {
        guard let end = bytes.indices.dropLast(3).first(where: { bytes[$0] == 13 && bytes[$0 + 1] == 10 && bytes[$0 + 2] == 13 && bytes[$0 + 3] == 10 }) else { return nil }
        let head = String(decoding: bytes[..<end], as: UTF8.self).components(separatedBy: "\r\n")
        guard let status = head.first?.split(separator: " ").dropFirst().first.flatMap({ Int($0) }) else { return nil }
        var headers: [String: String] = [:]
        for line in head.dropFirst() {
            if let colon = line.firstIndex(of: ":") {
                headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            }
        }
        return Response(status: status, headers: headers, body: Array(bytes[(end + 4)...]))
    }
}
