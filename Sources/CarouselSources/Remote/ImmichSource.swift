import CarouselMedia
import CarouselCore
import Foundation

/// A family's Immich library as a source: what to show (albums, people, favourites, "on
/// this day" memories, a random selection) is asked of the server's API with its key (sent
/// as `x-api-key`, never logged, never in a reason), and becomes a list of picture URLs
/// (previews, or originals) that the web cache downloads, keeps and shows offline like any
/// web picture. As a family shares it (read against Immich's server code, `server/src`):
/// - albums are those the account owns (`GET /albums`) and those shared with it
///   (`GET /albums?shared=true`: without it a shared album is not listed);
/// - an album's pictures are listed with `POST /search/metadata` and `albumIds` (3.0's
///   `GET /albums/{id}` no longer lists them), once per visibility asked for (`timeline`, and
///   `archive` unless skipped: without a visibility a search does not filter on it, and a Live
///   Photo's hidden motion and the locked folder would come back); a search answers only the
///   account's and its partners' pictures, so those other members added are found through the
///   album's timeline (`/timeline/buckets` and `/timeline/bucket`, every asset in the album),
///   asking only for the months where the search found fewer than the timeline counts;
/// - people are read page after page, hidden ones included (found by name);
/// - a part of the selection refused (403: a permission the key lacks, said by name; 404 or
///   400: not on this version) is one line and the rest still shows; a part failing otherwise
///   (the network, 401, 5xx) fails the listing, so the last one is kept.
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
        /// Partners' timelines (users who share their library with the account), by name or id.
        public var partners: [String] = []
        /// Leave out the pictures archived in Immich (shown by default, as an album shows them).
        public var skipArchived = false
        public init() {}

        public var isEmpty: Bool { albums.isEmpty && partners.isEmpty && people.isEmpty && tags.isEmpty && !favourites && !memories && random == nil }
    }

    /// The versions this was tested with (the fake server's 1.13x, 2.x and 3.x shapes).
    public static let oldestTested = (major: 1, minor: 130)
    public static let newestTested = (major: 3, minor: 0)
    /// Pages of a search read at most, and their size: 25,000 pictures.
    static let maxPages = 100
    static let pageSize = 250
    /// People are asked for 500 to a page (Immich's own page), at most 100 pages.
    static let peoplePageSize = 500
    /// Months of an album's timeline asked for at most (50 years).
    static let maxBuckets = 600

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
        /// The HTTP status the server refused with, when it answered.
        public var status: Int?
        public init(_ reason: String, status: Int? = nil) {
            self.reason = reason
            self.status = status ?? Self.status(in: reason)
        }

        /// `HTTP 403 …` → 403.
        static func status(in reason: String) -> Int? {
            guard reason.hasPrefix("HTTP "), let code = Int(reason.dropFirst(5).prefix(3)), (100...599).contains(code) else { return nil }
            return code
        }

        /// A refusal of one request that leaves the others standing: a permission the key lacks
        /// (403), or a route or parameter this version does not have (404, 400).
        var isRefusal: Bool { [400, 403, 404].contains(status ?? 0) }
    }

    /// Lists the pictures to show, in order, each once; `note` hears what is worth a line
    /// (a version not tested, an album not found, a part refused), `today` is the day memories
    /// are for; `version` hears each picture's URL with what changes when its content does (its
    /// checksum and when it was last updated), so an unchanged one need not be asked for again.
    public func list(fetch: Fetch, today: Date, note: (String) -> Void,
                     version: (_ url: String, _ version: String) -> Void = { _, _ in }) throws(ListingError) -> [ImageSource] {
        let serverVersion = try checkVersion(fetch: fetch, note: note)
        var found = Found()
        var refusals: [ListingError] = []
        var parts = 0
        /// One part of the selection: refused, it is one line and the rest goes on.
        func part(_ body: () throws(ListingError) -> Void) throws(ListingError) {
            parts += 1
            do { try body() } catch where error.isRefusal {
                refusals.append(error)
                note(error.reason)
            }
        }
        /// Each of `wanted` found among `entries` by id or one of `keys` (one line for one not
        /// found, `missing`), and listed by `body` as a part of its own.
        func each(_ wanted: [String], in entries: [Any], keys: [String], missing: (String) -> String,
                  _ body: (String) throws(ListingError) -> Void) throws(ListingError) {
            for w in wanted {
                guard let id = keys.lazy.compactMap({ Self.find(w, in: entries, nameKey: $0) }).first else { note(missing(w)); continue }
                try part { () throws(ListingError) in try body(id) }
            }
        }
        if !selection.albums.isEmpty {
            try part { () throws(ListingError) in
                try each(selection.albums, in: try albums(fetch: fetch, note: note), keys: ["albumName"],
                         missing: { "Immich \(self.server): no album named or numbered \($0) among those it owns or that are shared with it" }) {
                    (id: String) throws(ListingError) in try albumAssets(id, server: serverVersion, fetch: fetch, into: &found)
                }
            }
        }
        if !selection.partners.isEmpty {
            try part { () throws(ListingError) in
                try each(selection.partners, in: try partners(fetch: fetch), keys: ["name", "email"],
                         missing: { "Immich \(self.server): no partner named or numbered \($0) shares their library with this account" }) {
                    (id: String) throws(ListingError) in try partnerAssets(id, server: serverVersion, fetch: fetch, into: &found)
                }
            }
        }
        if !selection.people.isEmpty {
            try part { () throws(ListingError) in
                let people = try people(fetch: fetch)
                for wanted in selection.people {
                    guard let id = Self.find(wanted, in: people, nameKey: "name") else {
                        note("Immich \(self.server): no person named or numbered \(wanted)"); continue
                    }
                    for filter in visibilities(serverVersion) { found.add(try search(filter.merging(["personIds": [id]]) { a, _ in a }, fetch: fetch)) }
                }
            }
        }
        if !selection.tags.isEmpty {
            try part { () throws(ListingError) in
                // Tags by name (their full path, "Family/Grandma", or their last part) or id.
                let tags = try list(json(fetch(self.server + "/api/tags", nil), "the tags"), "the tags")
                for wanted in selection.tags {
                    guard let id = Self.find(wanted, in: tags, nameKey: "value") ?? Self.find(wanted, in: tags, nameKey: "name") else {
                        note("Immich \(self.server): no tag named or numbered \(wanted)"); continue
                    }
                    for filter in visibilities(serverVersion) { found.add(try search(filter.merging(["tagIds": [id]]) { a, _ in a }, fetch: fetch)) }
                }
            }
        }
        if selection.favourites {
            try part { () throws(ListingError) in
                for filter in visibilities(serverVersion) { found.add(try search(filter.merging(["isFavorite": true]) { a, _ in a }, fetch: fetch)) }
            }
        }
        if selection.memories {
            try part { () throws(ListingError) in
                let day = Self.dayFormat.string(from: today)
                let memories = try list(json(fetch(self.server + "/api/memories?for=" + day + "T00:00:00.000Z", nil), "the memories"), "the memories")
                for memory in memories {
                    found.add(Self.assets((memory as? [String: Any])?["assets"] as? [Any] ?? []).filter { !(selection.skipArchived && $0.archived) })
                }
            }
        }
        if let n = selection.random {
            try part { () throws(ListingError) in
                // One visibility: the timeline's (archived pictures are not drawn at random).
                var body = visibilities(serverVersion)[0]
                body["size"] = n
                body["withExif"] = true
                body["withPeople"] = true
                found.add(Self.assets(try list(json(fetch(self.server + "/api/search/random", Self.encode(body)), "a random selection"), "a random selection")))
            }
        }
        // Every part refused: nothing was listed, which must not replace the last listing.
        if let first = refusals.first, refusals.count == parts { throw first }
        return found.sources(self, version: version)
    }

    /// What was found, in order, each once; a Live Photo's motion never as a picture of its own.
    struct Found {
        var assets: [Asset] = []
        var seen: Set<String> = []

        mutating func add(_ list: [Asset]) {
            for a in list where seen.insert(a.id).inserted { assets.append(a) }
        }

        func sources(_ source: ImmichSource, version: (_ url: String, _ version: String) -> Void) -> [ImageSource] {
            let motions = Set(assets.compactMap(\.motion))
            return assets.filter { !motions.contains($0.id) }.map { a in
                // A video plays as a clip: the stream Immich made to play everywhere (H.264), its
                // kind said to the views by a fragment (never sent to the server).
                let path = a.isVideo ? source.playback(a.id)
                    : source.server + "/api/assets/" + a.id + (source.selection.originals ? "/original" : "/thumbnail?size=preview")
                if let v = a.version { version(path, v) }
                // A Live Photo's motion: the video asset Immich keeps beside the still.
                var item = ImageSource(path: path, title: a.name ?? "", motion: a.motion.map(source.playback),
                                       taken: a.taken, place: a.place, people: a.people)
                item.aspect = a.isVideo ? nil : a.aspect
                return item
            }
        }
    }

    /// The stream Immich makes of a video to play everywhere (H.264), marked a clip for the
    /// views by a fragment (never sent to the server).
    private func playback(_ id: String) -> String { server + "/api/assets/" + id + "/video/playback#clip.mp4" }

    /// A server's version, as far as the listing needs it.
    struct ServerVersion {
        var major: Int, minor: Int
        /// Since 1.133 an asset has a visibility (`timeline`, `archive`, `hidden`, `locked`)
        /// and a timeline bucket is columns; before it, `isArchived` and a list of assets.
        var hasVisibility: Bool { (major, minor) >= (1, 133) }
    }

    /// The searches one selection makes: one per visibility shown (the timeline's, then the
    /// archive's unless skipped); before 1.133, by `isArchived`.
    private func visibilities(_ version: ServerVersion) -> [[String: Any]] {
        let shown = selection.skipArchived ? [false] : [false, true]
        return shown.map { archived in
            version.hasVisibility ? ["visibility": archived ? "archive" : "timeline"] : ["isArchived": archived]
        }
    }

    /// Says in one line when the server's version is older or newer than those tested.
    private func checkVersion(fetch: Fetch, note: (String) -> Void) throws(ListingError) -> ServerVersion {
        let version = try json(fetch(server + "/api/server/version", nil), "its version") as? [String: Any]
        guard let major = version?["major"] as? Int, let minor = version?["minor"] as? Int else {
            note("Immich \(server): its version answer has no major and minor; going on as with \(Self.newestTested.major).x")
            return ServerVersion(major: Self.newestTested.major, minor: Self.newestTested.minor)
        }
        let patch = version?["patch"] as? Int ?? 0
        if (major, minor) < Self.oldestTested {
            note("Immich \(server) is \(major).\(minor).\(patch), older than \(Self.oldestTested.major).\(Self.oldestTested.minor), the oldest tested: its answers may differ")
        } else if major > Self.newestTested.major {
            note("Immich \(server) is \(major).\(minor).\(patch), newer than \(Self.newestTested.major).x, the newest tested: its answers may differ")
        }
        return ServerVersion(major: major, minor: minor)
    }

    /// The albums the account owns and those shared with it, each once. One of the two
    /// refused is one line; both, the part's refusal.
    private func albums(fetch: Fetch, note: (String) -> Void) throws(ListingError) -> [Any] {
        var albums: [Any] = []
        var ids: Set<String> = []
        var refused: [ListingError] = []
        for (query, what) in [("", "the albums"), ("?shared=true", "the albums shared with it")] {
            do {
                for album in try list(json(fetch(server + "/api/albums" + query, nil), what), what) {
                    guard let id = (album as? [String: Any])?["id"] as? String, ids.insert(id).inserted else { continue }
                    albums.append(album)
                }
            } catch where error.isRefusal { refused.append(error) }
        }
        if refused.count == 2 { throw refused[0] }
        refused.forEach { note($0.reason) }
        return albums
    }

    /// An album's pictures: searched for (the account's and its partners', with when, where
    /// and who), then those the album's timeline counts beyond what the search found (other
    /// members'), from the timeline's months that have more.
    private func albumAssets(_ id: String, server version: ServerVersion, fetch: Fetch, into found: inout Found) throws(ListingError) {
        var album: [Asset] = []
        for filter in visibilities(version) { album += try search(filter.merging(["albumIds": [id]]) { a, _ in a }, fetch: fetch) }
        found.add(album)
        // The timeline's own rule: the timeline's and the archive's unless one is asked for.
        var query = "albumId=" + id
        if selection.skipArchived { query += version.hasVisibility ? "&visibility=timeline" : "&isArchived=false" }
        if !version.hasVisibility { query += "&size=MONTH" }
        let counted: [(month: String, count: Int)]
        do { counted = try timelineMonths(query, fetch: fetch) } catch where error.isRefusal {
            throw ListingError(error.reason + " (only the album's pictures the account and its partners own are shown)", status: error.status)
        }
        guard counted.reduce(0, { $0 + $1.count }) > album.count else { return }
        var ours: [String: Int] = [:]
        for a in album { ours[String((a.taken ?? "").prefix(7)), default: 0] += 1 }
        var added = 0
        for bucket in counted where ours[String(bucket.month.prefix(7)), default: 0] < bucket.count {
            let before = found.assets.count
            found.add(try timelineMonth(query, bucket.month, fetch: fetch).filter { !(selection.skipArchived && $0.archived) })
            added += found.assets.count - before
            if added > Self.maxPages * Self.pageSize { break }
        }
    }

    /// A partner's timeline (a user who shares their library with the account): every month
    /// of it, the timeline's pictures only (their archive is theirs).
    private func partnerAssets(_ id: String, server version: ServerVersion, fetch: Fetch, into found: inout Found) throws(ListingError) {
        var query = "userId=" + id + (version.hasVisibility ? "&visibility=timeline" : "&isArchived=false")
        if !version.hasVisibility { query += "&size=MONTH" }
        var added = 0
        for bucket in try timelineMonths(query, fetch: fetch) {
            let before = found.assets.count
            found.add(try timelineMonth(query, bucket.month, fetch: fetch))
            added += found.assets.count - before
            if added > Self.maxPages * Self.pageSize { break }
        }
    }

    /// The months of a timeline (`query`: an album's, a user's) and how many pictures each holds.
    private func timelineMonths(_ query: String, fetch: Fetch) throws(ListingError) -> [(month: String, count: Int)] {
        let buckets = try list(json(fetch(server + "/api/timeline/buckets?" + query, nil), "the timeline"), "the timeline")
        return buckets.prefix(Self.maxBuckets).compactMap { bucket -> (month: String, count: Int)? in
            guard let b = bucket as? [String: Any], let month = b["timeBucket"] as? String, Self.isBucket(month) else { return nil }
            return (month, (b["count"] as? NSNumber)?.intValue ?? 0)
        }
    }

    /// One month of a timeline: columns since 1.133, a list of assets before.
    private func timelineMonth(_ query: String, _ month: String, fetch: Fetch) throws(ListingError) -> [Asset] {
        let encoded = month.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-."))) ?? ""
        let answer = try json(fetch(server + "/api/timeline/bucket?" + query + "&timeBucket=" + encoded, nil), "a month of the timeline")
        return (answer as? [Any]).map(Self.assets) ?? (answer as? [String: Any]).map(Self.columns) ?? []
    }

    /// The partners who share their library with the account (`GET /partners?direction=shared-with`).
    private func partners(fetch: Fetch) throws(ListingError) -> [Any] {
        try list(json(fetch(server + "/api/partners?direction=shared-with", nil), "the partners"), "the partners")
    }

    /// Everyone Immich knows, page after page, hidden ones included (a name is a name).
    private func people(fetch: Fetch) throws(ListingError) -> [Any] {
        var people: [Any] = []
        for page in 1...Self.maxPages {
            let answer = try json(fetch(server + "/api/people?withHidden=true&page=\(page)&size=\(Self.peoplePageSize)", nil), "the people")
            guard let object = answer as? [String: Any] else {
                people += answer as? [Any] ?? []
                break
            }
            people += object["people"] as? [Any] ?? []
            guard object["hasNextPage"] as? Bool == true else { break }
        }
        return people
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
        /// Archived in Immich (hidden from its timeline, still in its albums).
        var archived = false
    }

    /// Visibilities never shown: a Live Photo's motion (shown with its still) and the locked folder.
    static let neverShown: Set<String> = ["hidden", "locked"]

    /// The assets among `items` that can be shown: an id of a UUID's characters, not in the
    /// trash, not hidden (a Live Photo's motion: `visibility`, or `isVisible` before 1.133) nor locked.
    static func assets(_ items: [Any]) -> [Asset] {
        items.compactMap { item in
            guard let a = item as? [String: Any], let id = a["id"] as? String, isID(id) else { return nil }
            if a["isTrashed"] as? Bool == true || a["isVisible"] as? Bool == false { return nil }
            if let visibility = a["visibility"] as? String, neverShown.contains(visibility) { return nil }
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
                         aspect: aspect(exif), archived: a["visibility"] as? String == "archive" || a["isArchived"] as? Bool == true)
        }
    }

    /// The assets of a timeline bucket as Immich 1.133 and later write it: one array per field
    /// (`id`, `visibility`, `isImage`, …), the n-th of each the n-th asset's. Less is known of
    /// them than a search says: no file name, nor who is in them.
    static func columns(_ bucket: [String: Any]) -> [Asset] {
        guard let ids = bucket["id"] as? [Any] else { return [] }
        var column: [String: [Any]] = [:]
        for key in ["isTrashed", "visibility", "isImage", "livePhotoVideoId", "city", "country", "fileCreatedAt", "localOffsetHours", "ratio"] {
            column[key] = bucket[key] as? [Any] ?? []
        }
        func at(_ key: String, _ i: Int) -> Any? { column[key].flatMap { i < $0.count ? $0[i] : nil } }
        return ids.prefix(maxPages * pageSize).enumerated().compactMap { i, value in
            guard let id = value as? String, isID(id), at("isTrashed", i) as? Bool != true else { return nil }
            let visibility = at("visibility", i) as? String
            if let visibility, neverShown.contains(visibility) { return nil }
            let place = [at("city", i), at("country", i)].compactMap { ($0 as? String).map(bounded) }.filter { !$0.isEmpty }
            let ratio = (at("ratio", i) as? NSNumber)?.doubleValue ?? 0
            return Asset(id: id, name: nil, isVideo: at("isImage", i) as? Bool == false,
                         motion: (at("livePhotoVideoId", i) as? String).flatMap { isID($0) ? $0 : nil },
                         taken: wallTime(utc: at("fileCreatedAt", i), offsetHours: at("localOffsetHours", i)),
                         place: place.isEmpty ? nil : place.joined(separator: ", "),
                         aspect: ratio >= 0.001 && ratio <= 1000 ? 1 / ratio : nil, archived: visibility == "archive")
        }
    }

    /// A UTC time (`2024-07-14T08:00:00.000Z`) moved by the offset where it was taken (hours,
    /// perhaps fractional, at most 18 either way) to that place's wall time.
    static func wallTime(utc: Any?, offsetHours: Any?) -> String? {
        guard let text = utc as? String, let wall = wallTime(text), let date = listedFormat.date(from: wall) else { return nil }
        let offset = (offsetHours as? NSNumber)?.doubleValue ?? 0
        guard abs(offset) <= 18 else { return wall }
        return listedFormat.string(from: date.addingTimeInterval(offset * 3600))
    }

    /// `YYYY-MM-DDTHH:MM:SS` as UTC, both ways.
    static let listedFormat: DateFormatter = {
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = TimeZone(identifier: "UTC")
        f.dateFormat = "yyyy-MM-dd'T'HH:mm:ss"
        return f
    }()

    /// A timeline bucket's name goes into a URL's query: a date's characters only.
    static func isBucket(_ s: String) -> Bool {
        !s.isEmpty && s.count <= 32 && s.unicodeScalars.allSatisfy { CharacterSet(charactersIn: "0123456789-T:.Z+").contains($0) }
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
        case .failure(let e):
            if e.status == 403, let permission = Self.permission(for: what) {
                throw ListingError("Immich \(server): asking for \(what): refused (HTTP 403): the API key lacks the permission \(permission); give it in Immich, Account Settings, API Keys", status: 403)
            }
            throw ListingError("Immich \(server): asking for \(what): \(e.reason)", status: e.status)
        }
        guard let value = try? JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed]) else {
            throw ListingError("Immich \(server): its answer for \(what) is not JSON")
        }
        return value
    }

    /// The API-key permission each request needs (Immich's controllers, `@Authenticated`), by
    /// what it asks for; README lists them.
    static func permission(for what: String) -> String? {
        if what.hasPrefix("the albums") { return "album.read" }
        if what == "the people" { return "person.read" }
        if what == "the partners" { return "partner.read" }
        if what == "the tags" { return "tag.read" }
        if what == "the memories" { return "memory.read" }
        if what == "a search" || what == "a random selection" || what.contains("timeline") { return "asset.read" }
        return nil
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
