import CarouselMedia
import CarouselCore
import Foundation

/// A folder on a WebDAV server as a source (Nextcloud, ownCloud, a NAS, Apache's mod_dav):
/// `davs://host/remote.php/dav/files/anna/Photos` (https) or `dav://…` (http, for a trusted
/// network). It is walked with `PROPFIND` (depth 1 per folder) into the pictures and clips
/// it holds, sub-folders included, in the order a local folder's scan gives (each folder's
/// files in natural order or by time, then its sub-folders), Live Photos paired by name.
/// Bounded against a server that never stops answering: `maxDepth` folders deep,
/// `maxFolders` folders, `maxFiles` files, and a listing's size by the download's cap;
/// only what lies under the folder given on the same server is followed. The login comes
/// from a netrc file (libcurl reads it): never in the URL, so never logged.
public struct DAVSource: Sendable, Equatable {
    public static let maxDepth = 16
    public static let maxFolders = 2_000
    public static let maxFiles = 25_000

    /// As given (`davs://…`): the source's name in the status, the events and the cache.
    public let address: String
    /// The folder over http(s), ending in `/`.
    public let root: URL

    public struct Problem: Error, Equatable, CustomStringConvertible {
        public var description: String
        public init(_ description: String) { self.description = description }
    }

    /// Whether `source` names a WebDAV folder.
    public static func isDAV(_ source: String) -> Bool {
        let lower = source.lowercased()
        return lower.hasPrefix("dav://") || lower.hasPrefix("davs://")
    }

    public init(_ address: String) throws(Problem) {
        guard Self.isDAV(address), let given = URLComponents(string: address), let host = given.host, !host.isEmpty else {
            throw Problem("\(address): not a WebDAV address (davs://host/folder or dav://host/folder)")
        }
        guard given.user == nil && given.password == nil else {
            throw Problem("\(address.prefix(7))…: a login in the address would be logged; put it in a netrc file (--netrc)")
        }
        var web = given
        web.scheme = address.lowercased().hasPrefix("davs://") ? "https" : "http"
        web.query = nil
        web.fragment = nil
        if !web.percentEncodedPath.hasSuffix("/") { web.percentEncodedPath += "/" }
        guard let root = web.url else { throw Problem("\(address): not a WebDAV address") }
        self.address = address
        self.root = root
    }

    /// Whether a request to `url` goes to this folder (and so carries the login).
    public func owns(_ url: String) -> Bool {
        guard let other = URL(string: url) else { return false }
        return Self.sameServer(other, root) && Self.isUnder(other, root)
    }

    /// The decoded path without its trailing slashes: the same for a folder's two spellings.
    private static func key(_ url: URL) -> String {
        var path = url.path
        while path.hasSuffix("/") { path.removeLast() }
        return path
    }

    /// Whether `url` is `folder` or lies in it.
    private static func isUnder(_ url: URL, _ folder: URL) -> Bool { (key(url) + "/").hasPrefix(key(folder) + "/") }

    /// What a walk found: the items in order, and each file's ETag as listed (a cached copy
    /// with the same one is current without asking again).
    public struct Listing: Sendable, Equatable {
        public var items: [ImageSource] = []
        public var etags: [String: String] = [:]
    }

    /// One `PROPFIND` of a folder URL: the answer's bytes, or why not in one line.
    public typealias Fetch = @Sendable (_ folder: String) -> Result<[UInt8], Problem>

    /// Walks the folder; `note` hears what was left out and why (once per kind, with the
    /// address). A problem (the folder given not answering, an answer that is not WebDAV's)
    /// says what, without the address.
    public func list(order: SourceScanner.Order = .name, fetch: Fetch, note: (String) -> Void) throws(Problem) -> Listing {
        var listing = Listing()
        var visited: Set<String> = [Self.key(root)]
        var folders = 1
        var bounded: Set<String> = []
        func once(_ what: String) { if bounded.insert(what).inserted { note("\(address): \(what)") } }

        func walk(_ folder: URL, depth: Int) throws(Problem) {
            let answer: DAVListing
            switch fetch(folder.absoluteString) {
            case .success(let bytes):
                do { answer = try DAVListing(parsing: bytes) } catch {
                    throw Problem("\(folder.path) answered with \(error.description)")
                }
            case .failure(let problem):
                // The folder given must answer; a sub-folder that does not is left out.
                if depth == 0 { throw problem }
                once("\(folder.path) left out: \(problem.description)")
                return
            }
            var files: [(name: String, url: URL, entry: DAVListing.Entry)] = []
            var subfolders: [(name: String, url: URL)] = []
            for entry in answer.entries {
                guard let url = URL(string: entry.href, relativeTo: folder)?.absoluteURL, Self.sameServer(url, root) else {
                    once("an entry on another server or not a URL left out")
                    continue
                }
                guard Self.isUnder(url, root) else { once("an entry outside the folder left out"); continue }
                let path = Self.key(url)
                let name = path.split(separator: "/").last.map(String.init) ?? ""
                // The folder itself; hidden files and folders as in a local folder.
                if path == Self.key(folder) || name.isEmpty || name.hasPrefix(".") { continue }
                if entry.isFolder {
                    subfolders.append((name, url))
                } else if SourceScanner.isImage(name) {
                    files.append((name, url, entry))
                }
            }
            switch order {
            case .name: files = files.map { (NaturalOrder.Key($0.name), $0) }.sorted { $0.0 < $1.0 }.map(\.1)
            case .modificationTime:
                files.sort { (Self.time($0.entry.lastModified), $0.name) < (Self.time($1.entry.lastModified), $1.name) }
            }
            // A Live Photo's still and its motion are one item, paired by name.
            let live = LivePhotoPairs.pairs(files.map(\.name))
            let motions = Set(live.values)
            let byName = Dictionary(files.map { ($0.name, $0.url) }, uniquingKeysWith: { first, _ in first })
            for file in files where !motions.contains(file.name) {
                guard listing.items.count < Self.maxFiles else { once("more than \(Self.maxFiles) files; the rest left out"); break }
                let url = file.url.absoluteString
                listing.items.append(ImageSource(path: url, title: ImageSource.defaultTitle(for: file.name),
                                                 motion: live[file.name].flatMap { byName[$0]?.absoluteString }))
                if let etag = file.entry.etag { listing.etags[url] = etag }
            }
            for sub in subfolders.map({ (NaturalOrder.Key($0.name), $0) }).sorted(by: { $0.0 < $1.0 }).map(\.1) {
                var url = sub.url
                if !url.absoluteString.hasSuffix("/") { url = URL(string: url.absoluteString + "/") ?? url }
                guard depth + 1 <= Self.maxDepth else { once("folders deeper than \(Self.maxDepth) left out"); continue }
                guard folders < Self.maxFolders else { once("more than \(Self.maxFolders) folders; the rest left out"); continue }
                guard visited.insert(Self.key(url)).inserted else { continue }
                folders += 1
                try walk(url, depth: depth + 1)
            }
        }
        try walk(root, depth: 0)
        return listing
    }

    private static func sameServer(_ a: URL, _ b: URL) -> Bool {
        a.scheme?.lowercased() == b.scheme?.lowercased() && a.host?.lowercased() == b.host?.lowercased() && a.port == b.port
    }

    /// An HTTP date as seconds since 1970 (0 when it is none).
    private static func time(_ httpDate: String?) -> Double {
        httpDate.flatMap { httpDateFormat.date(from: $0) }?.timeIntervalSince1970 ?? 0
    }

    private static let httpDateFormat: DateFormatter = {
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = TimeZone(identifier: "GMT")
        f.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        return f
    }()
}
