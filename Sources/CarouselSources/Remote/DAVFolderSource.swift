/// A WebDAV folder walked with `PROPFIND` and the netrc's login (`DAVSource`); the listing is
/// kept in the cache as a manifest, so that an offline start shows it. A file whose cached
/// copy has the ETag the listing gives is current: not asked for again. A failure keeps the
/// last listing.
struct DAVFolderSource: RemoteSource {
    let address: String
    /// The order of the folder's files.
    let order: SourceScanner.Order
    /// The netrc file named when the login is refused; nil: ~/.netrc.
    let netrcFile: String?

    func list(via link: any RemoteLink, hasItems: Bool) -> RemoteListing {
        let refused = "the login was refused or is missing: check " + (netrcFile ?? "~/.netrc")
        let fetch: DAVSource.Fetch = { folder in
            var r = link.request(folder, maxBytes: 8 << 20)
            r.method = "PROPFIND"
            r.headers.append("Depth: 1")
            r.body = DAVListing.request
            r.bodyType = "application/xml; charset=utf-8"
            return link.answer(r, refused: refused).mapError { .init($0.reason) }
        }
        do throws(DAVSource.Problem) {
            let folder = try DAVSource(address)
            let listing = try folder.list(order: order, fetch: fetch) { link.note($0) }
            link.keep(listing.items, of: address, named: address)
            // Compared weakly (RFC 9110): Apache marks a file changed within the last second
            // `W/` when it sends it, not when it lists it.
            func opaque(_ tag: String?) -> String? { tag.map { $0.hasPrefix("W/") ? String($0.dropFirst(2)) : $0 } }
            let current = Set(listing.etags.compactMap { file, etag in opaque(link.cache.entry(for: file)?.etag) == opaque(etag) ? file : nil })
            return .listed(listing.items, current: current)
        } catch {
            return .failed(error.description + (hasItems ? "; keeping the last listing" : ""), answered: false)
        }
    }
}
