/// A WebDAV server's answer to `PROPFIND` (RFC 4918's `multistatus`): each resource it
/// names, a folder or a file, with the properties a show needs from a file (its length,
/// ETag, last change and type). Properties in a `propstat` whose status is not 200 are
/// left out, as are responses without an `href`. Read with `XMLScanner`: hostile answers
/// fail with one line, and never take more than their own size.
public struct DAVListing: Equatable, Sendable {
    public struct Entry: Equatable, Sendable {
        /// As the server wrote it: a path (`/remote.php/dav/files/anna/Photos/a%20b.jpg`) or a URL.
        public var href: String
        public var isFolder = false
        public var length: Int64?
        public var etag: String?
        public var lastModified: String?
        public var contentType: String?
    }

    public var entries: [Entry]

    /// What is asked for: only these properties, so a server need not work out the rest.
    public static let request = """
        <?xml version="1.0" encoding="utf-8"?>
        <d:propfind xmlns:d="DAV:"><d:prop><d:resourcetype/><d:getcontentlength/><d:getetag/>\
        <d:getlastmodified/><d:getcontenttype/></d:prop></d:propfind>
        """

    /// Reads an answer; `Problem` says in a few words why it is not one.
    init(parsing bytes: [UInt8]) throws(XMLScanner.Problem) {
        var scanner = XMLScanner(bytes)
        var path: [String] = []
        var entries: [Entry] = []
        var entry: Entry?
        // Properties of the propstat being read, kept once its status says 200.
        var props = Entry(href: "")
        var status = ""
        var text = ""
        var sawMultistatus = false
        while let event = try scanner.next() {
            switch event {
            case .start(let namespace, let name):
                let dav = namespace == "DAV:"
                if path.isEmpty {
                    guard dav, name == "multistatus" else { throw XMLScanner.Problem(description: "not a WebDAV answer (its element is \(name))") }
                    sawMultistatus = true
                }
                path.append(dav ? name : "")
                text = ""
                if dav && name == "response" && path.count == 2 { entry = Entry(href: "") }
                if dav && name == "propstat" { props = Entry(href: ""); status = "" }
                if dav && name == "collection" && path.dropLast().last == "resourcetype" { props.isFolder = true }
            case .text(let t):
                // Only the text of a leaf the answer needs is kept, and at most a few KB of it.
                if text.utf8.count < 8_192 { text += t }
            case .end(let namespace, let name):
                defer { path.removeLast(); text = "" }
                guard namespace == "DAV:" else { continue }
                let value = text.trimmingCharacters()
                switch name {
                case "href" where path.count == 3: entry?.href = value
                case "status" where path.count == 4: status = value
                case "getcontentlength": props.length = Int64(value).flatMap { $0 >= 0 ? $0 : nil }
                case "getetag": props.etag = value.isEmpty ? nil : value
                case "getlastmodified": props.lastModified = value.isEmpty ? nil : value
                case "getcontenttype": props.contentType = value.isEmpty ? nil : value
                case "propstat" where path.count == 3:
                    // "HTTP/1.1 200 OK": only found properties count.
                    if status.split(separator: " ").dropFirst().first == "200", var found = entry {
                        found.isFolder = found.isFolder || props.isFolder
                        found.length = props.length ?? found.length
                        found.etag = props.etag ?? found.etag
                        found.lastModified = props.lastModified ?? found.lastModified
                        found.contentType = props.contentType ?? found.contentType
                        entry = found
                    }
                case "response" where path.count == 2:
                    if let done = entry, !done.href.isEmpty { entries.append(done) }
                    entry = nil
                default: break
                }
            }
        }
        guard sawMultistatus else { throw XMLScanner.Problem(description: "not a WebDAV answer") }
        self.entries = entries
    }
}

private extension String {
    func trimmingCharacters() -> String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
              let last = scalars.lastIndex(where: { !$0.properties.isWhitespace }) else { return "" }
        return String(scalars[first...last])
    }
}
