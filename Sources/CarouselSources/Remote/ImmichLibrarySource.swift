import CarouselClock

/// A family's Immich listed through its API (`ImmichSource`); the listing is kept in the
/// cache as a manifest, so that an offline start shows it. A failure keeps the last listing.
struct ImmichLibrarySource: RemoteSource {
    let immich: ImmichSource
    /// What each picture was listed with last time (its checksum and update): one listed the
    /// same again whose copy is cached is not asked for again.
    private var listedVersions: [String: String] = [:]

    init(_ immich: ImmichSource) { self.immich = immich }

    mutating func list(via link: any RemoteLink, hasItems: Bool) -> RemoteListing {
        let fetch: ImmichSource.Fetch = { address, body in
            var r = link.request(address, maxBytes: 8 << 20)
            r.body = body
            return link.answer(r, refused: "the key was refused: check --immich-key-file").mapError { .init($0.reason) }
        }
        do throws(ImmichSource.ListingError) {
            var versions: [String: String] = [:]
            let items = try immich.list(fetch: fetch, today: SystemClock.date, note: { link.note($0) }, version: { versions[$0] = $1 })
            link.keep(items, of: immich.sourceURL, named: "Immich \(immich.server)")
            let current = Set(versions.compactMap { file, v in listedVersions[file] == v && link.cache.entry(for: file) != nil ? file : nil })
            listedVersions = versions
            return .listed(items, current: current)
        } catch {
            return .failed(error.reason + (hasItems ? "; keeping the last listing" : ""), answered: false)
        }
    }
}
