import CarouselMedia
import Glibc

/// A manifest on a web server (a TOML file of picture URLs), asked for with a conditional
/// request: an unchanged manifest costs one 304. A changed one is kept in the cache as it
/// came; one that does not parse (bad TOML, an HTML error page) keeps the last good items.
struct ManifestSource: RemoteSource {
    let url: String
    /// The largest manifest taken (the library's download bound, at most 8 MB).
    let maxBytes: Int64

    func list(via link: any RemoteLink, hasItems: Bool) -> RemoteListing {
        let cache = link.cache
        var request = link.request(url, maxBytes: maxBytes)
        if hasItems, let cached = cache.entry(for: url) {
            request.etag = cached.etag
            request.lastModified = cached.lastModified
        }
        let temporary = cache.temporaryFile()
        switch link.fetch(request, into: temporary) {
        case .notModified:
            unlink(temporary)
            cache.confirmed(url, etag: nil, lastModified: nil)
            return .unchanged
        case .fetched(_, _, let etag, let lastModified):
            do {
                let items = try RemoteLibrary.parse(file: temporary, url: url)
                cache.store(url, from: temporary, etag: etag, lastModified: lastModified)
                return .listed(items, current: [])
            } catch {
                unlink(temporary)
                return .failed((error.line.map { "line \($0): " } ?? "") + error.message + (hasItems ? "; keeping the last good manifest" : ""),
                               answered: true)
            }
        case .failed(let reason):
            unlink(temporary)
            return .failed(reason, answered: false)
        }
    }
}
