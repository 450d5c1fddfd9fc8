import CarouselCore
import Foundation

/// A family's Immich library as a source: what to show (albums, people, favourites, "on
/// this day" memories, a random selection) is asked of the server's API with its key (sent
/// as `x-api-key`, never logged, never in a reason), and becomes a list of picture URLs
/// (previews, or originals) that the web cache downloads, keeps and shows offline like any
/// web picture. An album's pictures are listed with `POST /search/metadata` and `albumIds`,
/// which Immich 2.x and 3.x both answer (3.0's `GET /albums/{id}` no longer lists them).
/// Everything the server says is read defensively: unknown fields are passed by, an id that
/// is not a UUID's characters is dropped (it goes into a URL), pages are bounded.
public struct ImmichSource: Sendable, Equatable {
    /// What to show; combined, in this order, each picture once.
    public struct Selection: Sendable, Equatable {
        public var albums: [String] = []
        public var people: [String] = []
        public var tags: [String] = []
        public var favourites = false
        /// "On this day": the memories Immich made for today's date.
        public var memories = false
        /// A random selection of this many, drawn again at each refresh.
        public var random: Int? = nil
        /// Originals instead of previews (full colour profile, the zoom's sharp detail).
        public var originals = false
        public init() {}

        public var isEmpty: Bool { albums.isEmpty && people.isEmpty && tags.isEmpty && !favourites && !memories && random == nil }
    }

    /// The versions this was tested with (the fake server's 2.x and 3.x shapes).
    public static let oldestTested = (major: 2, minor: 0)
    public static let newestTested = (major: 3, minor: 0)
    /// Pages of a search read at most, and their size: 25,000 pictures.
    static let maxPages = 100
    static let pageSize = 250

    /// The server, without a trailing slash (`https://photos.example.com`).
    public let server: String
    public let key: String
    public let selection: Selection

    public init(server: String, key: String, selection: Selection) {
        self.server = server.hasSuffix("/") ? String(server.dropLast()) : server
        self.key = key
        self.selection = selection
    }

    /// The source's name in the web library, the status and the events: the server's URL
    /// marked as Immich's (the key is never in it).
    public var sourceURL: String { server + "#immich" }

    /// Whether `url` is one of this server's (its requests carry the key).
    public func owns(_ url: String) -> Bool { url == sourceURL || url.hasPrefix(server + "/") }

    /// The headers a request to the server carries.
    public var headers: [String] { ["x-api-key: " + key, "Accept: application/json"] }

    /// One request's outcome: the body, or why not in one line (no secret in it).
    public typealias Fetch = @Sendable (_ url: String, _ body: String?) -> Result<[UInt8], ListingError>

    public struct ListingError: Error, Sendable, Equatable {
        public var reason: String
        public init(_ reason: String) { self.reason = reason }
    }

    /// Lists the pictures to show, in order, each once; `note` hears what is worth a line
    /// (a version not tested, an album not found), `today` is the day memories are for;
    /// `version` hears each picture's URL with what changes when its content does (its
    /// checksum and when it was last updated), so an unchanged one need not be asked for again.
    public func list(fetch: Fetch, today: Date, note: (String) -> Void,
                     version: (_ url: String, _ version: String) -> Void = { _, _ in }) throws(ListingError) -> [ImageSource] {
        try checkVersion(fetch: fetch, note: note)
        var ids: [String] = []
        var seen: Set<String> = []
        var names: [String: String] = [:]
        var facts: [String: Asset] = [:]
        var videos: Set<String> = []
        var motions: [String: String] = [:]
        func add(_ assets: [Asset]) {
            for a in assets where seen.insert(a.id).inserted {
                ids.append(a.id)
                names[a.id] = a.name
                facts[a.id] = a
                if a.isVideo { videos.insert(a.id) }
                if let m = a.motion { motions[a.id] = m }
            }
        }
        if !selection.albums.isEmpty {
            let albums = try list(json(fetch(server + "/api/albums", nil), "the albums"), "the albums")
            for wanted in selection.albums {
                guard let id = Self.find(wanted, in: albums, nameKey: "albumName") else {
                    note("Immich \(server): no album named or numbered \(wanted)"); continue
                }
                add(try search(["albumIds": [id]], fetch: fetch))
            }
        }
        if !selection.people.isEmpty {
            let people = try json(fetch(server + "/api/people", nil), "the people")
            let list = (people as? [String: Any])?["people"] as? [Any] ?? people as? [Any] ?? []
            for wanted in selection.people {
                guard let id = Self.find(wanted, in: list, nameKey: "name") else {
                    note("Immich \(server): no person named or numbered \(wanted)"); continue
                }
                add(try search(["personIds": [id]], fetch: fetch))
            }
        }
        if !selection.tags.isEmpty {
            // Tags by name (their full path, "Family/Grandma", or their last part) or id.
            let tags = try list(json(fetch(server + "/api/tags", nil), "the tags"), "the tags")
            for wanted in selection.tags {
                guard let id = Self.find(wanted, in: tags, nameKey: "value") ?? Self.find(wanted, in: tags, nameKey: "name") else {
                    note("Immich \(server): no tag named or numbered \(wanted)"); continue
                }
                add(try search(["tagIds": [id]], fetch: fetch))
            }
        }
        if selection.favourites { add(try search(["isFavorite": true], fetch: fetch)) }
        if selection.memories {
            let day = Self.dayFormat.string(from: today)
            let memories = try list(json(fetch(server + "/api/memories?for=" + day + "T00:00:00.000Z", nil), "the memories"), "the memories")
            for memory in memories {
                add(Self.assets((memory as? [String: Any])?["assets"] as? [Any] ?? []))
            }
        }
        if let n = selection.random {
            let body = Self.encode(["size": n, "withExif": true, "withPeople": true])
            add(Self.assets(try list(json(fetch(server + "/api/search/random", body), "a random selection"), "a random selection")))
        }
        return ids.map { id in
            // A video plays as a clip: the stream Immich made to play everywhere (H.264), its
            // kind said to the views by a fragment (never sent to the server).
            let path = videos.contains(id) ? playback(id)
                : server + "/api/assets/" + id + (selection.originals ? "/original" : "/thumbnail?size=preview")
            if let v = facts[id]?.version { version(path, v) }
            // A Live Photo's motion: the video asset Immich keeps beside the still.
            var source = ImageSource(path: path, title: names[id] ?? id, motion: motions[id].map(playback),
                                     taken: facts[id]?.taken, place: facts[id]?.place, people: facts[id]?.people ?? [])
            source.aspect = videos.contains(id) ? nil : facts[id]?.aspect
            return source
        }
    }

    /// The stream Immich makes of a video to play everywhere (H.264), marked a clip for the
    /// views by a fragment (never sent to the server).
    private func playback(_ id: String) -> String { server + "/api/assets/" + id + "/video/playback#clip.mp4" }

    /// Says in one line when the server's version is older or newer than those tested.
    private func checkVersion(fetch: Fetch, note: (String) -> Void) throws(ListingError) {
        let version = try json(fetch(server + "/api/server/version", nil), "its version") as? [String: Any]
        guard let major = version?["major"] as? Int, let minor = version?["minor"] as? Int else {
            note("Immich \(server): its version answer has no major and minor; going on as with \(Self.newestTested.major).x")
            return
        }
        let patch = version?["patch"] as? Int ?? 0
        if (major, minor) < Self.oldestTested {
            note("Immich \(server) is \(major).\(minor).\(patch), older than \(Self.oldestTested.major).\(Self.oldestTested.minor), the oldest tested: its answers may differ")
        } else if major > Self.newestTested.major {
            note("Immich \(server) is \(major).\(minor).\(patch), newer than \(Self.newestTested.major).x, the newest tested: its answers may differ")
        }
    }

    /// Every page of `POST /search/metadata` with `filter`.
    private func search(_ filter: [String: Any], fetch: Fetch) throws(ListingError) -> [Asset] {
        var found: [Asset] = []
        var page = 1
        for _ in 0..<Self.maxPages {
            var body = filter
            body["page"] = page
            body["size"] = Self.pageSize
            // When and where each was taken, and who is in it: for captions and --taken.
            body["withExif"] = true
            body["withPeople"] = true
            let answer = try json(fetch(server + "/api/search/metadata", Self.encode(body)), "a search") as? [String: Any]
            guard let assets = answer?["assets"] as? [String: Any] else {
                throw ListingError("Immich \(server): a search answered without 'assets'")
            }
            found += Self.assets(assets["items"] as? [Any] ?? [])
            guard let next = assets["nextPage"], let n = (next as? String).flatMap(Int.init) ?? (next as? Int), n > page else { break }
            page = n
        }
        return found
    }

    /// A picture the server listed.
    struct Asset {
        var id: String
        var name: String?
        var isVideo = false
        /// A Live Photo's motion: its video asset's id.
        var motion: String? = nil
        /// When it was taken, the wall time there (`YYYY-MM-DDTHH:MM:SS`).
        var taken: String? = nil
        /// "City, Country", as Immich placed it.
        var place: String? = nil
        var people: [String] = []
        /// Its checksum and last update, together: what changes when its picture does.
        var version: String? = nil
        /// Its height / width as shown (EXIF's size, turned as its orientation says).
        var aspect: Double? = nil
    }

    /// The assets among `items` that can be shown: an id of a UUID's characters, not in the trash.
    static func assets(_ items: [Any]) -> [Asset] {
        items.compactMap { item in
            guard let a = item as? [String: Any], let id = a["id"] as? String, isID(id) else { return nil }
            if a["isTrashed"] as? Bool == true { return nil }
            let name = (a["originalFileName"] as? String).map { ($0 as NSString).deletingPathExtension }
            let motion = (a["livePhotoVideoId"] as? String).flatMap { isID($0) ? $0 : nil }
            let exif = a["exifInfo"] as? [String: Any]
            let place = [exif?["city"], exif?["country"]].compactMap { ($0 as? String).map(Self.bounded) }.filter { !$0.isEmpty }
            let people = (a["people"] as? [Any] ?? []).compactMap { ($0 as? [String: Any])?["name"] as? String }.map(Self.bounded)
                .filter { !$0.isEmpty }
            return Asset(id: id, name: name, isVideo: a["type"] as? String == "VIDEO", motion: motion,
                         taken: wallTime(a["localDateTime"]) ?? wallTime(exif?["dateTimeOriginal"]),
                         place: place.isEmpty ? nil : place.joined(separator: ", "), people: Array(people.prefix(20)),
                         version: (a["checksum"] as? String).map { $0 + "|" + (a["updatedAt"] as? String ?? "") },
                         aspect: aspect(exif))
        }
    }

    /// Height / width as the picture shows, from its EXIF's `exifImageWidth` and
    /// `exifImageHeight` (the stored pixels) and `orientation` (5 to 8 turn it a quarter);
    /// nil when either is missing or not a size.
    static func aspect(_ exif: [String: Any]?) -> Double? {
        guard let w = (exif?["exifImageWidth"] as? NSNumber)?.doubleValue, let h = (exif?["exifImageHeight"] as? NSNumber)?.doubleValue,
              w >= 1, h >= 1, w <= 1_000_000, h <= 1_000_000 else { return nil }
        let orientation = (exif?["orientation"] as? String).flatMap { Int($0) } ?? (exif?["orientation"] as? NSNumber)?.intValue ?? 1
        return (5...8).contains(orientation) ? w / h : h / w
    }

    /// Immich's `localDateTime` (the wall time where it was taken, written as if it were
    /// UTC) as a wall time without an offset: `2023-07-14T18:22:05.000Z` → `2023-07-14T18:22:05`.
    /// `dateTimeOriginal` (UTC) is the fallback when it is missing: a wall time off by the
    /// zone's offset, but the right day most hours of it.
    static func wallTime(_ value: Any?) -> String? {
        guard let text = value as? String, text.utf8.count >= 19 else { return nil }
        let wall = String(text.prefix(19))
        return PhotoDate(listed: wall) == nil ? nil : wall
    }

    /// A name or place from the server, at most 100 characters, without control characters.
    static func bounded(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F }.prefix(100)))
            .trimmingCharacters(in: .whitespaces)
    }

    /// An id goes into a URL's path: only a UUID's characters, at most 64.
    static func isID(_ s: String) -> Bool {
        !s.isEmpty && s.count <= 64 && s.unicodeScalars.allSatisfy { CharacterSet(charactersIn: "0123456789abcdefABCDEF-").contains($0) }
    }

    /// The id of the entry whose id or `nameKey` is `wanted` (a name compared without case).
    static func find(_ wanted: String, in list: [Any], nameKey: String) -> String? {
        let entries = list.compactMap { $0 as? [String: Any] }
        if isID(wanted), entries.contains(where: { $0["id"] as? String == wanted }) { return wanted }
        return entries.first { ($0[nameKey] as? String)?.caseInsensitiveCompare(wanted) == .orderedSame }
            .flatMap { $0["id"] as? String }.flatMap { isID($0) ? $0 : nil }
    }

    /// `value` as the list it should be; one line when it is not.
    private func list(_ value: Any, _ what: String) throws(ListingError) -> [Any] {
        guard let list = value as? [Any] else { throw ListingError("Immich \(server): its answer for \(what) is not a list") }
        return list
    }

    private func json(_ fetched: Result<[UInt8], ListingError>, _ what: String) throws(ListingError) -> Any {
        let bytes: [UInt8]
        switch fetched {
        case .success(let b): bytes = b
        case .failure(let e): throw ListingError("Immich \(server): asking for \(what): \(e.reason)")
        }
        guard let value = try? JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed]) else {
            throw ListingError("Immich \(server): its answer for \(what) is not JSON")
        }
        return value
    }

    static func encode(_ body: [String: Any]) -> String {
        (try? JSONSerialization.data(withJSONObject: body, options: [.sortedKeys])).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    static let dayFormat: DateFormatter = {
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.dateFormat = "yyyy-MM-dd"
        return f
    }()
}
