@testable import CarouselControl
import Foundation
import Glibc
import Testing
import TestSupport

/// The HTTP server through real sockets on loopback, with a stand-in for the run loop that
/// answers the inbox on a thread of its own: routes, the token, and every bound.
@Suite(.serialized) struct ControlServerTests {
    /// A server on a free loopback port whose "run loop" carries out next/previous on an index.
    final class Rig: @unchecked Sendable {
        let desk: ControlDesk
        let server: ControlServer
        let probe: HTTPProbe
        private let wakeUp = DispatchSemaphore(value: 0)
        private var running = true
        private var index = 0
        let lock = NSLock()
        /// Answers are held back while true (a run loop busy drawing).
        var stalled = false

        init(token: BearerToken? = nil, limits: ControlServer.Limits = .init()) throws {
            let sem = wakeUp
            desk = ControlDesk(version: "test", clock: { Date().timeIntervalSince1970 }, wake: { sem.signal() },
                               figures: { ProcessFigures() }, encodePNG: { w, h, _, _ in Array("PNG \(w)x\(h)".utf8) })
            server = try ControlServer(host: "127.0.0.1", port: 0, desk: desk, token: token, limits: limits)
            probe = HTTPProbe(port: server.address.port!)
            var s = ShowState()
            s.count = 10
            s.index = 0
            desk.publish(s)
            Thread.detachNewThread { [self] in self.serve() }
        }

        private func serve() {
            while lock.withLock({ running }) {
                _ = wakeUp.wait(timeout: .now() + 0.2)
                if lock.withLock({ stalled }) { continue }
                for p in desk.inbox.take() {
                    switch p.request {
                    case .command(.next): index = min(index + 1, 9)
                    case .command(.previous): index = max(index - 1, 0)
                    case .command(.gotoIndex(let i)) where !(0..<10).contains(i):
                        p.answer(.refused(ControlRefusal(404, "no picture \(i)"))); continue
                    case .command(.gotoIndex(let i)): index = i
                    case .screenshot: p.answer(.frame(width: 4, height: 2, pixels: [UInt8](repeating: 9, count: 32), bgra: false)); continue
                    default: break
                    }
                    var s = desk.state
                    s.index = index
                    desk.publish(s)
                    p.answer(.done)
                }
            }
        }

        func stop() {
            lock.withLock { running = false }
            server.stop()
        }
    }

    @Test func statusCommandsAndTheirRefusals() throws {
        let rig = try Rig()
        defer { rig.stop() }
        let status = try #require(rig.probe.request("GET", "/status"))
        #expect(status.status == 200 && status.headers["content-type"] == "application/json")
        #expect(status.json?["index"] as? Int == 0 && status.json?["count"] as? Int == 10 && status.json?["version"] as? String == "test")
        let next = try #require(rig.probe.request("POST", "/next"))
        #expect(next.status == 200 && next.json?["index"] as? Int == 1, "a command answers with the new status")
        #expect(rig.probe.request("POST", "/goto", body: #"{"index": 7}"#)?.json?["index"] as? Int == 7)
        let missing = try #require(rig.probe.request("POST", "/goto", body: #"{"index": 70}"#))
        #expect(missing.status == 404 && missing.json?["error"] as? String == "no picture 70")
        #expect(rig.probe.request("POST", "/goto", body: #"{"index": "seven"}"#)?.status == 400)
        #expect(rig.probe.request("POST", "/goto", body: "not json")?.status == 400)
        #expect(rig.probe.request("POST", "/view", body: #"{"mode": "sideways"}"#)?.status == 400)
        #expect(rig.probe.request("POST", "/screen", body: #"{"on": "yes"}"#)?.status == 400)
        #expect(rig.probe.request("POST", "/brightness", body: #"{"value": 1.5}"#)?.status == 400)
        #expect(rig.probe.request("POST", "/seek", body: #"{"seconds": -2}"#)?.status == 400)
        #expect(rig.probe.request("GET", "/seek")?.status == 405)
        #expect(rig.probe.request("GET", "/next")?.status == 405)
        #expect(rig.probe.request("POST", "/status")?.status == 405)
        #expect(rig.probe.request("GET", "/nothing-here")?.status == 404)
        #expect(rig.probe.request("GET", "/screenshot.png?width=abc")?.status == 400)
        let shot = try #require(rig.probe.request("GET", "/screenshot.png?width=64"))
        #expect(shot.status == 200 && shot.headers["content-type"] == "image/png" && shot.text == "PNG 4x2")
        let head = try #require(rig.probe.request("HEAD", "/status"))
        #expect(head.status == 200 && head.body.isEmpty)
    }

    @Test func aStalledRunLoopGets503AndNeverHoldsTheServer() throws {
        var limits = ControlServer.Limits()
        limits.answerSeconds = 1
        let rig = try Rig(limits: limits)
        defer { rig.stop() }
        rig.lock.withLock { rig.stalled = true }
        let started = Date()
        let r = try #require(rig.probe.request("POST", "/next"))
        #expect(r.status == 503)
        #expect(Date().timeIntervalSince(started) < 4)
        // Status is read from the published state: it never waits for the loop.
        #expect(rig.probe.request("GET", "/status")?.status == 200)
        rig.lock.withLock { rig.stalled = false }
    }

    @Test func aTokenIsRequiredAndComparedWhole() throws {
        let dir = NSTemporaryDirectory() + "control-token-\(getpid())"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let path = dir + "/token"
        try "s3cret-token-0123456789\n".write(toFile: path, atomically: true, encoding: .utf8)
        let token = try BearerToken(path: path)
        let rig = try Rig(token: token)
        defer { rig.stop() }
        let none = try #require(rig.probe.request("GET", "/status"))
        #expect(none.status == 401 && none.headers["www-authenticate"] == "Bearer")
        #expect(rig.probe.request("GET", "/status", headers: ["Authorization: Bearer s3cret-token-012345678"])?.status == 401)
        #expect(rig.probe.request("GET", "/status", headers: ["Authorization: Bearer s3cret-token-01234567890"])?.status == 401)
        #expect(rig.probe.request("GET", "/status", headers: ["Authorization: Bearer s3cret-token-0123456789"])?.status == 200)
        #expect(rig.probe.request("GET", "/metrics")?.status == 401)
        let metrics = rig.desk.metricsText()
        #expect(metrics.contains("carousel_control_unauthorized_total 4"))
        // Read again (SIGHUP): the old token stops working.
        try "another-token-abcdefghij".write(toFile: path, atomically: true, encoding: .utf8)
        try token.reload()
        #expect(rig.probe.request("GET", "/status", headers: ["Authorization: Bearer s3cret-token-0123456789"])?.status == 401)
        #expect(rig.probe.request("GET", "/status", headers: ["Authorization: Bearer another-token-abcdefghij"])?.status == 200)
        #expect(throws: ControlRefusal.self) { try BearerToken(path: dir + "/missing") }
        try "short".write(toFile: dir + "/short", atomically: true, encoding: .utf8)
        #expect(throws: ControlRefusal.self) { try BearerToken(path: dir + "/short") }
    }

    @Test func oversizedAndMalformedRequestsAreRefusedOrCut() throws {
        let rig = try Rig()
        defer { rig.stop() }
        let big = String(repeating: "x", count: 5000)
        #expect(rig.probe.request("POST", "/goto", body: "{\"source\": \"\(big)\"}")?.status == 413)
        // Headers beyond the count: the parser's limit answers 400 (or the connection closes).
        let many = (0..<100).map { "X-H\($0): v" }
        let r = rig.probe.request("GET", "/status", headers: many)
        #expect(r == nil || r?.status == 400 || r?.status == 431)
        // An endless request line is cut at the byte budget, never buffered without end.
        let fd = rig.probe.connect()
        defer { close(fd) }
        var sent = HTTPProbe.send(fd, Array("GET /".utf8))
        for _ in 0..<100 where sent { sent = HTTPProbe.send(fd, [UInt8](repeating: 0x61, count: 4096)) }
        let cut = HTTPProbe.readAll(fd, timeout: 3)
        #expect(!sent || cut.closed, "the server must close a request that never ends")
        // Garbage: 400 or closed, and the server goes on.
        _ = rig.probe.raw(Array("\u{1}\u{2}GARBAGE\r\n\r\n".utf8), timeout: 3)
        #expect(rig.probe.request("GET", "/status")?.status == 200)
    }

    @Test func aSilentClientIsClosedAfterTheRequestTime() throws {
        var limits = ControlServer.Limits()
        limits.requestSeconds = 1
        let rig = try Rig(limits: limits)
        defer { rig.stop() }
        let fd = rig.probe.connect()
        defer { close(fd) }
        let started = Date()
        let r = HTTPProbe.readAll(fd, timeout: 5)
        #expect(r.closed && r.bytes.isEmpty)
        #expect(Date().timeIntervalSince(started) < 4)
        // Half a request, then nothing: closed too.
        let half = rig.probe.connect()
        defer { close(half) }
        _ = HTTPProbe.send(half, Array("GET /status HTTP/1.1\r\nHost: x\r\n".utf8))
        #expect(HTTPProbe.readAll(half, timeout: 5).closed)
    }

    @Test func fiftyClientsAtOnceAllGetAnswersAndTheLimitHolds() throws {
        var limits = ControlServer.Limits()
        limits.connections = 60
        let rig = try Rig(limits: limits)
        defer { rig.stop() }
        let ok = NSLock()
        nonisolated(unsafe) var answered = 0
        DispatchQueue.concurrentPerform(iterations: 50) { i in
            let r = i % 2 == 0 ? rig.probe.request("GET", "/status") : rig.probe.request("POST", "/next")
            if r?.status == 200 { ok.withLock { answered += 1 } }
        }
        #expect(answered == 50)
        #expect(rig.desk.state.index == 9, "25 nexts from 0, stopping at the last of 10")
        // Beyond the limit, held open: the next connection is closed at once.
        // The 50 answered are closed first (else they count against the limit), and the 60
        // held are all accepted before one more comes.
        for _ in 0..<500 where rig.server.openConnections > 0 { Thread.sleep(forTimeInterval: 0.01) }
        let held = (0..<60).map { _ in rig.probe.connect() }
        defer { held.forEach { close($0) } }
        for _ in 0..<500 where rig.server.openConnections < 60 { Thread.sleep(forTimeInterval: 0.01) }
        #expect(rig.server.openConnections >= 60)
        let extra = rig.probe.connect()
        defer { close(extra) }
        _ = HTTPProbe.send(extra, Array("GET /status HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
        let r = HTTPProbe.readAll(extra, timeout: 3)
        #expect(r.closed && r.bytes.isEmpty, "a connection over the limit is closed unanswered")
    }

    @Test func eventsStreamEveryLineToFollowers() throws {
        let rig = try Rig()
        defer { rig.stop() }
        let fd = rig.probe.connect()
        defer { close(fd) }
        _ = HTTPProbe.send(fd, Array("GET /events HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
        // Once the stream follows the feed (at most 5 s), a line recorded reaches it.
        for _ in 0..<500 where rig.desk.feed.followerCount == 0 { Thread.sleep(forTimeInterval: 0.01) }
        rig.desk.feed.record(type: "settled", fields: [("index", "3")], line: "{\"t_ms\":5,\"type\":\"settled\",\"index\":3}\n")
        let r = HTTPProbe.readAll(fd, timeout: 1)
        let text = String(decoding: r.bytes, as: UTF8.self)
        #expect(text.contains("text/event-stream"))
        #expect(text.contains("data: {\"t_ms\":5,\"type\":\"settled\",\"index\":3}\n\n"))
    }
}
