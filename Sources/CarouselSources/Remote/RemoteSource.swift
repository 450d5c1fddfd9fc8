import CarouselCore

/// A remote source that lists pictures, as the remote library polls it: a manifest on a web
/// server (`ManifestSource`), a family's Immich (`ImmichLibrarySource`), a WebDAV folder
/// (`DAVFolderSource`). Each lists itself through the `RemoteLink` it is given; the library
/// only schedules the polls, keeps what they give and downloads the pictures. A new kind of
/// source is a type here and a line in `RemoteLibrary.source(for:)`. Polled on the library's
/// poll thread only, one poll at a time.
protocol RemoteSource {
    /// Lists the source. `hasItems`: an earlier listing shows, and a failure keeps it (the
    /// reason says so).
    mutating func list(via link: any RemoteLink, hasItems: Bool) -> RemoteListing
}

/// What a poll of a source gave.
enum RemoteListing {
    /// The server said nothing changed (a manifest's 304): the items shown stand.
    case unchanged
    /// The source's items; `current`: pictures whose cached copy the listing shows to be the
    /// server's (a WebDAV ETag, an Immich checksum), not asked for again.
    case listed([ImageSource], current: Set<String>)
    /// Why not, in a few words. `answered`: the server answered with what does not read (a
    /// manifest that does not parse: the last good items show as stale); else it could not
    /// be reached or refused (they show as offline).
    case failed(String, answered: Bool)
}

/// What a source lists through: requests to its server, the cache, lines said once. The
/// remote library is one.
protocol RemoteLink: Sendable {
    var cache: RemoteCache { get }
    /// A request with the library's limits, timeouts and logins for `url`.
    func request(_ url: String, maxBytes: Int64) -> HTTPFetcher.Request
    /// Sends `request`, its body into `file` (`HTTPFetcher.fetch`).
    func fetch(_ request: HTTPFetcher.Request, into file: String) -> HTTPFetcher.Outcome
    /// One request of a listing (an API's, a folder's): the answer's bytes, or why not in a
    /// few words; `refused` is said in brackets after a 401 or 403.
    func answer(_ request: HTTPFetcher.Request, refused: String) -> Result<[UInt8], RemoteRefusal>
    /// Says `line` once in the run (an album not found, a bound reached).
    func note(_ line: String)
    /// A listing kept in the cache as a manifest, for an offline start.
    func keep(_ items: [ImageSource], of url: String, named name: String)
}

/// Why a request of a listing gave nothing, in a few words.
struct RemoteRefusal: Error {
    var reason: String
    init(_ reason: String) { self.reason = reason }
}
