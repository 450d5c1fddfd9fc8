import CarouselMedia
import Foundation
import TestSupport
import Testing
import CarouselSources

/// Downloads against a real server on 127.0.0.1 that misbehaves on purpose.
@Suite struct HTTPFetcherTests {
    static func fetch(_ server: MisbehavingServer, _ path: String, _ change: (inout HTTPFetcher.Request) -> Void = { _ in })
        throws -> (HTTPFetcher.Outcome, [UInt8]) {
        let file = try MediaFixtures.folder("downloads") + "/\(UUID().uuidString)"
        var request = HTTPFetcher.Request(url: server.url(path))
        request.maxBytes = 1 << 20
        request.idleTimeout = 1
        request.connectTimeout = 2
        request.totalTimeout = 4
        change(&request)
        let outcome = HTTPFetcher.fetch(request, into: file)
        let bytes = (try? [UInt8](Data(contentsOf: URL(fileURLWithPath: file)))) ?? []
        return (outcome, bytes)
    }

    @Test func aFileIsDownloadedWholeWithItsValidators() throws {
        let server = try MisbehavingServer()
        defer { server.stop() }
        let (outcome, bytes) = try Self.fetch(server, "/file")
        #expect(outcome == .fetched(status: 200, bytes: Int64(MisbehavingServer.body.count), etag: MisbehavingServer.etag,
                                    lastModified: "Sun, 22 Nov 2026 10:00:00 GMT"))
        #expect(bytes == MisbehavingServer.body)
    }

    @Test func anUnchangedFileCostsOne304() throws {
        let server = try MisbehavingServer()
        defer { server.stop() }
        let (again, _) = try Self.fetch(server, "/file") { $0.etag = MisbehavingServer.etag }
        #expect(again == .notModified)
        #expect(server.requests("/file") == 1)
    }

    @Test func aRedirectIsFollowedButNotALoopNorToAnotherScheme() throws {
        let server = try MisbehavingServer()
        defer { server.stop() }
        let (moved, bytes) = try Self.fetch(server, "/moved")
        if case .fetched = moved {} else { Issue.record("a redirect to /file gave \(moved)") }
        #expect(bytes == MisbehavingServer.body)
        let (loop, _) = try Self.fetch(server, "/loop")
        #expect(loop == .failed(reason: "more than 5 redirects"))
        #expect(server.requests("/loop") == HTTPFetcher.maxRedirects + 1)
        let (scheme, leaked) = try Self.fetch(server, "/to-a-file")
        if case .failed = scheme {} else { Issue.record("followed a redirect to file://: \(scheme)") }
        #expect(leaked.isEmpty, "a file of this machine was read")
    }

    @Test func errorStatusesFailWithTheStatus() throws {
        let server = try MisbehavingServer()
        defer { server.stop() }
        #expect(try Self.fetch(server, "/missing").0 == .failed(reason: "HTTP 404"))
        #expect(try Self.fetch(server, "/error").0 == .failed(reason: "HTTP 500"))
    }

    @Test func aBodyOverTheLimitIsCutOffAnnouncedOrNot() throws {
        let server = try MisbehavingServer()
        defer { server.stop() }
        for path in ["/big", "/big-unannounced"] {
            let (outcome, bytes) = try Self.fetch(server, path)
            #expect(outcome == .failed(reason: "larger than 1 MB, cut off"), "\(path)")
            #expect(bytes.count <= 1 << 20, "\(path): \(bytes.count) bytes kept")
        }
    }

    @Test func aHalfBodyOrASilentServerFailsWithinItsDeadline() throws {
        let server = try MisbehavingServer()
        defer { server.stop() }
        #expect(try Self.fetch(server, "/drop").0 != .fetched(status: 200, bytes: 10, etag: nil, lastModified: nil))
        if case .fetched = try Self.fetch(server, "/drop").0 { Issue.record("a dropped body counted as complete") }
        for path in ["/stall", "/silent"] {
            let started = Date()
            // The idle timeout ends it, long before the total deadline or the server (6 s).
            let (outcome, _) = try Self.fetch(server, path) { $0.totalTimeout = 30 }
            let took = Date().timeIntervalSince(started)
            if case .failed = outcome {} else { Issue.record("\(path) gave \(outcome)") }
            #expect(took < 3, "\(path) waited \(took) s past its 1 s idle timeout")
        }
    }

    /// HTTPS against `openssl s_server` with a certificate made here: trusted with it as
    /// the CA file, refused without (it is in no system store), and no switch turns that off.
    @Test func tlsIsVerifiedAgainstTheCAFileOrTheSystemStore() throws {
        let dir = try MediaFixtures.folder("tls")
        try Data("over tls".utf8).write(to: URL(fileURLWithPath: dir + "/hello.txt"))
        let server = try TLSTestServer(serving: dir)
        defer { server.stop() }
        var request = HTTPFetcher.Request(url: server.url("/hello.txt"))
        request.caFile = server.caFile
        request.totalTimeout = 5
        request.idleTimeout = 2
        var trusted = HTTPFetcher.Outcome.failed(reason: "not tried")
        for _ in 0..<50 {  // until the server listens
            trusted = HTTPFetcher.fetch(request, into: dir + "/trusted")
            if case .failed(let why) = trusted, why.contains("connect") || why.contains("Couldn't") {
                Thread.sleep(forTimeInterval: 0.1)
                continue
            }
            break
        }
        if case .fetched = trusted {} else { Issue.record("with its CA file: \(trusted)") }
        #expect((try? String(contentsOfFile: dir + "/trusted", encoding: .utf8))?.contains("over tls") == true)
        request.caFile = nil
        let refused = HTTPFetcher.fetch(request, into: dir + "/refused")
        if case .failed(let why) = refused {
            #expect(why.lowercased().contains("certificate"), "refused, but why: \(why)")
        } else {
            Issue.record("a certificate no CA vouches for was accepted: \(refused)")
        }
    }

    @Test func nothingListeningFailsAtOnce() throws {
        let server = try MisbehavingServer()
        let url = server.url("/file")
        server.stop()
        let file = try MediaFixtures.folder("downloads") + "/closed"
        let outcome = HTTPFetcher.fetch(HTTPFetcher.Request(url: url), into: file)
        if case .failed = outcome {} else { Issue.record("\(outcome)") }
    }
}
