import CarouselCore
@testable import CarouselMedia
import Testing
@testable import CarouselSources

/// The bookkeeping behind `RemoteLibrary`, as plain values: when each source is polled,
/// which picture downloads next, which failure was said.
@Suite struct RemoteBookkeepingTests {
    private func table(_ urls: String...) -> RemoteSourceTable {
        var t = RemoteSourceTable()
        for u in urls { t.register(u, .init(items: nil, isManifest: true)) }
        return t
    }

    @Test func failuresBackOffFromTheFirstRetryDoublingUpToTheRefresh() {
        var t = table("http://a/m.toml")
        var now = 1000.0
        var delays: [Double] = []
        for _ in 0..<7 {
            _ = t.settle("http://a/m.toml", state: .offline, items: nil, retry: true, now: now, refresh: 60, firstRetry: 5)
            let next = t["http://a/m.toml"]!.nextPoll
            delays.append(next - now)
            now = next
        }
        #expect(delays == [5, 10, 20, 40, 60, 60, 60])
        // One answer resets it: the next poll is a refresh away, and a new failure starts at 5 s again.
        _ = t.settle("http://a/m.toml", state: .online, items: [], retry: false, now: now, refresh: 60, firstRetry: 5)
        #expect(t["http://a/m.toml"]!.nextPoll == now + 60)
        _ = t.settle("http://a/m.toml", state: .offline, items: nil, retry: true, now: now, refresh: 60, firstRetry: 5)
        #expect(t["http://a/m.toml"]!.nextPoll == now + 5)
    }

    @Test func aPollSaysWhatChangedAndWhenTheServerLastAnswered() {
        var t = table("http://a/m.toml", "http://b/m.toml")
        #expect(t.due(at: 0) == "http://a/m.toml", "registered sources are polled at once, in order")
        let items = [ImageSource(path: "http://a/1.jpg")]
        var o = t.settle("http://a/m.toml", state: .online, items: items, retry: false, now: 50, refresh: 300, firstRetry: 5)
        #expect(o.changedItems && o.changedState)
        o = t.settle("http://a/m.toml", state: .online, items: items, retry: false, now: 60, refresh: 300, firstRetry: 5)
        #expect(!o.changedItems && !o.changedState, "the same manifest again changes nothing")
        o = t.settle("http://a/m.toml", state: .offline, items: nil, retry: true, now: 70, refresh: 300, firstRetry: 5)
        #expect(!o.changedItems && o.changedState)
        #expect(t["http://a/m.toml"]!.lastSuccess == 60 && t["http://a/m.toml"]!.items == items, "offline keeps the last items")
        #expect(t.due(at: 70) == "http://b/m.toml" && t.polled == ["http://a/m.toml"])
        #expect(t.onlineItems.isEmpty, "an offline source's pictures are not checked in the background")
    }

    @Test func aWaitedForPictureGoesFirstThenUnconfirmedItemsInOrder() {
        var q = DownloadQueue()
        let items = ["http://a/1.jpg", "http://a/2.jpg", "http://a/3.jpg"].map { ImageSource(path: $0) }
        q.hurry("http://a/9.jpg")
        q.hurry("http://a/3.jpg")
        var taken: [String] = []
        var waited: [Bool] = []
        while let next = q.take(background: [items], skip: { $0 == "http://a/2.jpg" }) {
            taken.append(next.url)
            waited.append(next.forDecoder)
        }
        #expect(taken == ["http://a/3.jpg", "http://a/9.jpg", "http://a/1.jpg"], "most urgent first; a skipped item waits")
        #expect(waited == [true, true, false])
        // Nothing is taken twice while under way; once finished it is confirmed until rechecked.
        q.finished("http://a/1.jpg")
        #expect(q.isConfirmed("http://a/1.jpg") && q.attempts(of: "http://a/1.jpg") == 1)
        var next = q.take(background: [items], skip: { _ in false })
        #expect(next?.url == "http://a/2.jpg")
        q.recheck("http://a/1.jpg")
        next = q.take(background: [items], skip: { _ in false })
        #expect(next?.url == "http://a/1.jpg")
    }

    @Test func aFailureIsSaidOncePerReasonUntilItWorks() {
        var book = FailureBook()
        var new = book.record("u", reason: "HTTP 404")
        #expect(new)
        new = book.record("u", reason: "HTTP 404")
        #expect(!new)
        book.said("u: HTTP 404", of: "u")
        #expect(book.hasSaid("u: HTTP 404"))
        new = book.record("u", reason: "timed out")
        #expect(new, "a new reason is new")
        book.succeeded("u")
        #expect(book.failure(of: "u") == nil && !book.hasSaid("u: HTTP 404"))
        new = book.record("u", reason: "HTTP 404")
        #expect(new, "after it worked, the old failure is news again")
    }
}
