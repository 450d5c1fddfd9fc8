import Foundation
import Glibc

/// A small HTTP/1.1 server on 127.0.0.1 for the download tests. It serves the files put in
/// it (`put`, with an ETag; a matching If-None-Match gets a 304), and misbehaves on purpose
/// at fixed paths, one behaviour each. Runs until `stop`; counts requests and 304s per path.
public final class MisbehavingServer: @unchecked Sendable {
    public let port: UInt16
    private let listener: LoopbackListener
    private let lock = NSLock()
    private var counts: [String: Int] = [:]
    private var notModified: [String: Int] = [:]
    private var files: [String: (body: [UInt8], etag: String, delay: Double)] = [:]
    private var active = 0
    private var mostActive = 0
    /// The body of `/file`, and its ETag.
    public static let body = [UInt8](repeating: 0x41, count: 100_000)
    public static let etag = "\"v1\""

    public init() throws {
        listener = try LoopbackListener()
        port = listener.port
        listener.start { [self] fd in serve(fd) }
    }

    public func url(_ path: String) -> String { "http://127.0.0.1:\(port)\(path)" }
    public func requests(_ path: String) -> Int { lock.withLock { counts[path] ?? 0 } }
    /// Requests of `path` answered with 304 Not Modified.
    public func notModifiedAnswers(_ path: String) -> Int { lock.withLock { notModified[path] ?? 0 } }

    /// Serves `body` at `path` with `etag` (replacing what was there), after `delay`
    /// seconds; nil removes it (404).
    public func put(_ path: String, _ body: [UInt8]?, etag: String = "\"\(UUID().uuidString)\"", delay: Double = 0) {
        lock.withLock { files[path] = body.map { ($0, etag, delay) } }
    }

    /// The most requests of files put here served at the same time.
    public var mostAtOnce: Int { lock.withLock { mostActive } }

    /// Stops accepting.
    public func stop() { listener.stop() }

    private func serve(_ fd: Int32) {
        defer { close(fd) }
        var request = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !request.ends(with: Array("\r\n\r\n".utf8)) {
            let n = read(fd, &buffer, buffer.count)
            guard n > 0 else { return }
            request += buffer[0..<n]
        }
        let text = String(decoding: request, as: UTF8.self)
        let path = text.split(separator: " ").dropFirst().first.map(String.init) ?? "/"
        let ifNoneMatch = text.split(separator: "\r\n").first { $0.lowercased().hasPrefix("if-none-match:") }
            .map { $0.dropFirst("if-none-match:".count).trimmingCharacters(in: .whitespaces) }
        lock.withLock { counts[path, default: 0] += 1 }

        // MSG_NOSIGNAL: a client that hangs up (curl cutting off a large body) must not kill the tests.
        func send(_ bytes: [UInt8]) { _ = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) } }
        func head(_ status: String, _ headers: [String]) {
            send(Array(("HTTP/1.1 \(status)\r\n" + headers.map { $0 + "\r\n" }.joined() + "Connection: close\r\n\r\n").utf8))
        }
        if let served = lock.withLock({ files[path] }) {
            lock.withLock { active += 1; mostActive = max(mostActive, active) }
            defer { lock.withLock { active -= 1 } }
            if served.delay > 0 { Thread.sleep(forTimeInterval: served.delay) }
            if ifNoneMatch == served.etag {
                lock.withLock { notModified[path, default: 0] += 1 }
                head("304 Not Modified", ["ETag: \(served.etag)"])
                return
            }
            head("200 OK", ["Content-Length: \(served.body.count)", "ETag: \(served.etag)"])
            send(served.body)
            return
        }
        switch path {
        case "/file":
            if ifNoneMatch == Self.etag { head("304 Not Modified", ["ETag: \(Self.etag)"]); return }
            head("200 OK", ["Content-Length: \(Self.body.count)", "ETag: \(Self.etag)",
                            "Last-Modified: Sun, 22 Nov 2026 10:00:00 GMT"])
            send(Self.body)
        case "/html":
            let page = Array("<html><body>Service unavailable</body></html>".utf8)
            head("200 OK", ["Content-Type: text/html", "Content-Length: \(page.count)"])
            send(page)
        case "/missing":
            head("404 Not Found", ["Content-Length: 9"])
            send(Array("not found".utf8))
        case "/error":
            head("500 Internal Server Error", ["Content-Length: 5"])
            send(Array("oops!".utf8))
        case "/big":
            head("200 OK", ["Content-Length: \(4 << 20)"])
            for _ in 0..<64 { send([UInt8](repeating: 0x42, count: 64 << 10)) }
        case "/big-unannounced":
            head("200 OK", [])
            for _ in 0..<64 { send([UInt8](repeating: 0x42, count: 64 << 10)) }
        case "/stall":
            head("200 OK", ["Content-Length: 1000"])
            send([UInt8](repeating: 0x43, count: 10))
            Thread.sleep(forTimeInterval: 6)
        case "/silent":
            Thread.sleep(forTimeInterval: 6)
        case "/drop":
            head("200 OK", ["Content-Length: 1000"])
            send([UInt8](repeating: 0x44, count: 10))
        case "/loop":
            head("302 Found", ["Location: /loop", "Content-Length: 0"])
        case "/moved":
            head("301 Moved Permanently", ["Location: /file", "Content-Length: 0"])
        case "/to-a-file":
            head("302 Found", ["Location: file:///etc/hostname", "Content-Length: 0"])
        default:
            head("400 Bad Request", ["Content-Length: 0"])
        }
    }
}

private extension Array where Element == UInt8 {
    func ends(with suffix: [UInt8]) -> Bool { count >= suffix.count && Array(self[(count - suffix.count)...]) == suffix }
}
