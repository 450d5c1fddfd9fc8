import CarouselCore
import Foundation
import Testing
@testable import CarouselSources

/// A listing source in process (issue 61): what a manifest gives the remote library at each
/// poll, through a link whose server is a script, with no network and no library threads.
@Suite struct RemoteSourceTests {
    /// A server that answers from a script: each request takes the next answer.
    final class ScriptedLink: RemoteLink, @unchecked Sendable {
        enum Answer { case body(String, etag: String?), unchanged, refused(String) }
        let cache: RemoteCache
        private let lock = NSLock()
        private var answers: [Answer]
        private(set) var asked: [HTTPFetcher.Request] = []

        init(_ answers: [Answer]) {
            let folder = NSTemporaryDirectory() + "remote-source-\(UUID().uuidString)"
            cache = RemoteCache(folder: folder, limitBytes: 1 << 20, warn: { _ in })
            self.answers = answers
        }

        func request(_ url: String, maxBytes: Int64) -> HTTPFetcher.Request { HTTPFetcher.Request(url: url) }

        func fetch(_ request: HTTPFetcher.Request, into file: String) -> HTTPFetcher.Outcome {
            let answer = lock.withLock { () -> Answer in
                asked.append(request)
                return answers.removeFirst()
            }
            switch answer {
            case .body(let text, let etag):
                _ = FileManager.default.createFile(atPath: file, contents: Data(text.utf8))
                return .fetched(status: 200, bytes: Int64(text.utf8.count), etag: etag, lastModified: nil)
            case .unchanged: return .notModified
            case .refused(let reason): return .failed(reason: reason)
            }
        }

        func answer(_ request: HTTPFetcher.Request, refused: String) -> Result<[UInt8], RemoteRefusal> {
            let file = cache.temporaryFile()
            defer { unlink(file) }
            switch fetch(request, into: file) {
            case .fetched: return .success([UInt8](FileManager.default.contents(atPath: file) ?? Data()))
            case .notModified: return .failure(.init("an unasked 304"))
            case .failed(let reason): return .failure(.init(reason))
            }
        }

        func note(_ line: String) {}
        func keep(_ items: [ImageSource], of url: String, named name: String) {}
    }

    static let url = "http://127.0.0.1:9/show.toml"

    @Test func aManifestIsListedThenUnchangedThenKeptThroughABadAnswerAndAFailure() {
        let link = ScriptedLink([
            .body("[[item]]\npath = \"a.jpg\"\n[[item]]\npath = \"b.jpg\"\n", etag: "\"v1\""),
            .unchanged,
            .body("<html>502 Bad Gateway</html>", etag: nil),
            .refused("HTTP 503"),
        ])
        var source: any RemoteSource = ManifestSource(url: Self.url, maxBytes: 8 << 20)

        guard case .listed(let items, let current) = source.list(via: link, hasItems: false) else {
            Issue.record("the first answer was not listed")
            return
        }
        #expect(items.map(\.path) == ["http://127.0.0.1:9/a.jpg", "http://127.0.0.1:9/b.jpg"])
        #expect(current.isEmpty)
        #expect(link.cache.entry(for: Self.url)?.etag == "\"v1\"")

        // Asked again with the validator kept: the 304 leaves the items shown.
        guard case .unchanged = source.list(via: link, hasItems: true) else {
            Issue.record("a 304 was not unchanged")
            return
        }
        #expect(link.asked.last?.etag == "\"v1\"")

        // An error page where the manifest was: the server answered, the last good items stay.
        guard case .failed(let reason, let answered) = source.list(via: link, hasItems: true) else {
            Issue.record("an error page was listed")
            return
        }
        #expect(answered)
        #expect(reason.hasSuffix("; keeping the last good manifest"))
        #expect(link.cache.entry(for: Self.url)?.etag == "\"v1\"")

        // The server refusing: not answered (the items show as offline).
        guard case .failed(let refusal, let reached) = source.list(via: link, hasItems: true) else {
            Issue.record("a 503 was listed")
            return
        }
        #expect(refusal == "HTTP 503")
        #expect(!reached)
    }

    @Test func theFirstRequestAsksForTheWholeManifest() {
        let link = ScriptedLink([.refused("HTTP 404")])
        var source: any RemoteSource = ManifestSource(url: Self.url, maxBytes: 8 << 20)
        _ = source.list(via: link, hasItems: false)
        // Nothing shown yet: no validator, or a 304 would leave the screen empty.
        #expect(link.asked.count == 1)
        #expect(link.asked.first?.etag == nil && link.asked.first?.lastModified == nil)
    }
}
