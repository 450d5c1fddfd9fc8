import Foundation
import Glibc

/// A fake Immich server on 127.0.0.1 for the tests, its routes and answers shaped as
/// Immich's (1.13x, 2.x and 3.x: `/api/server/version`, `/api/albums` with and without
/// `shared=true`, `/api/people` in pages, `POST /api/search/metadata` with `albumIds`,
/// `personIds`, `isFavorite`, `visibility` and pages, `/api/timeline/buckets` and
/// `/api/timeline/bucket`, `/api/memories?for=`, `POST /api/search/random`, an asset's
/// `thumbnail?size=preview` and `original`), with fields a newer server adds that a reader
/// must pass by. A family's server, modelled on Immich's own code (`server/src/services` and
/// `repositories`), each rule said where it is made:
/// - The key belongs to the user `me` ("u1"); other users own assets too. An album has an
///   owner and members (`album_user`); a partner shares their library with `me`, in `me`'s
///   timeline or not (`partner.inTimeline`).
/// - A search (`search.service.ts`: `getUserIdsToSearch`) answers only assets owned by `me`
///   and by partners in its timeline, whatever album is asked for; without `visibility` it
///   does not filter on it at all (`searchAssetBuilder`: hidden Live Photo motions and the
///   locked folder come back too), with it, only that visibility.
/// - The timeline of an album (`timeline.service.ts`) answers every asset in it, whoever owns
///   it, to a member; without `visibility`, the timeline's and the archive's
///   (`withDefaultVisibility`); since 1.133 a bucket is columns (`TimeBucketAssetResponseDto`),
///   before it a list of assets and `size=MONTH` is required.
/// - `GET /api/albums` (`album.service.ts getAll`) answers the albums `me` owns; with
///   `shared=true`, the shared ones `me` owns or is a member of.
/// - People come 500 to a page (`size`, at most 1000), hidden ones only with `withHidden`.
/// - A permission the key lacks is a 403 naming it (`Missing required permission: tag.read`).
/// Every request needs the key (401 otherwise); a deleted asset is a 404. Counts requests by
/// path, and bytes answered.
public final class FakeImmich: @unchecked Sendable {
    public struct Asset: Sendable {
        public var id: String
        public var name: String
        public var preview: [UInt8]
        public var original: [UInt8]
        public var albums: [String] = []
        public var people: [String] = []
        public var tags: [String] = []
        public var favourite = false
        /// Its owner's user id ("u1" is the key's).
        public var owner = FakeImmich.me
        /// "timeline", "archive", "hidden" (a Live Photo's motion) or "locked".
        public var visibility = "timeline"
        /// Month and day it was taken ("11-27"), for memories; the year, and where.
        public var takenOn = "01-01"
        public var year = 2024
        public var city: String? = "Lisbon"
        public var country: String? = "Portugal"
        /// EXIF's stored size and orientation ("6": turned a quarter to show).
        public var width = 4032, height = 3024
        public var orientation = "1"
        public var deleted = false
        /// Immich's checksum of the original (base64 of its SHA-1); a new one when it is replaced.
        public var checksum = UUID().uuidString
        /// A video's playable stream (its type is then VIDEO; the preview stays a JPEG).
        public var video: [UInt8]? = nil
        /// A Live Photo's motion: the id of its video asset (hidden, as Immich keeps it), and
        /// that video's stream.
        public var livePhoto: (id: String, video: [UInt8])? = nil
        public init(id: String, name: String, preview: [UInt8], original: [UInt8]) {
            self.id = id; self.name = name; self.preview = preview; self.original = original
        }
    }

    /// The user the key belongs to.
    public static let me = "u1"

    public let port: UInt16
    public let key: String
    private let listener: LoopbackListener
    private let lock = NSLock()
    private var assetsValue: [Asset] = []
    private var albumsValue: [(id: String, name: String, owner: String, members: [String])] = []
    private var peopleValue: [(id: String, name: String, hidden: Bool)] = []
    private var partnersValue: [(id: String, name: String, inTimeline: Bool)] = []
    private var refusedValue: Set<String> = []
    private var bytesValue = 0
    private var tagsValue: [(id: String, path: String)] = []
    private var counts: [String: Int] = [:]
    private var keysSeen: Set<String> = []
    /// The version it says it is.
    public var version: (major: Int, minor: Int, patch: Int) {
        get { lock.withLock { versionValue } }
        set { lock.withLock { versionValue = newValue } }
    }
    private var versionValue = (major: 2, minor: 3, patch: 1)

    public init(key: String) throws {
        self.key = key
        listener = try LoopbackListener()
        port = listener.port
        listener.start { [self] fd in serve(fd) }
    }

    public var url: String { "http://127.0.0.1:\(port)" }
    public func requests(_ path: String) -> Int { lock.withLock { counts[path] ?? 0 } }
    /// Every x-api-key it was sent, right or wrong.
    public var keys: Set<String> { lock.withLock { keysSeen } }

    public func add(_ asset: Asset) { lock.withLock { assetsValue.append(asset) } }
    /// An album owned by `owner`, shared with `members` (none: not shared).
    public func addAlbum(id: String, name: String, owner: String = FakeImmich.me, members: [String] = []) {
        lock.withLock { albumsValue.append((id, name, owner, members)) }
    }
    public func addPerson(id: String, name: String, hidden: Bool = false) { lock.withLock { peopleValue.append((id, name, hidden)) } }
    /// A user who shares their library with `me` (`partner.sharedById`), in `me`'s timeline or not.
    public func addPartner(_ id: String, name: String = "", inTimeline: Bool) { lock.withLock { partnersValue.append((id, name, inTimeline)) } }
    /// Permissions the key was not given (`tag.read`, `asset.read`, …): those requests are a 403.
    public func refuse(_ permission: String) { lock.withLock { _ = refusedValue.insert(permission) } }
    /// Bytes of every answer so far, headers and bodies.
    public var bytesAnswered: Int { lock.withLock { bytesValue } }
    /// Requests so far, all paths.
    public var allRequests: Int { lock.withLock { counts.values.reduce(0, +) } }
    /// A tag by its full path ("Family/Grandma"): Immich names it by the last part, values it by the path.
    public func addTag(id: String, path: String) { lock.withLock { tagsValue.append((id, path)) } }
    /// Changes asset `id` as `change` says (a picture replaced: new bytes, a new checksum).
    public func update(_ id: String, _ change: (inout Asset) -> Void) {
        lock.withLock { if let i = assetsValue.firstIndex(where: { $0.id == id }) { change(&assetsValue[i]) } }
    }
    public func delete(_ id: String) { lock.withLock { if let i = assetsValue.firstIndex(where: { $0.id == id }) { assetsValue[i].deleted = true } } }

    public func stop() { listener.stop() }

    private func json(_ value: Any) -> [UInt8] {
        [UInt8]((try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys])) ?? Data())
    }

    /// An asset as Immich describes it, with a field a later version might add: taken at
    /// 10:00 where it was (`localDateTime`, written as if UTC), 08:00 UTC; its EXIF and its
    /// people only when asked for (`withExif`, `withPeople`), as a search answers.
    private func describe(_ a: Asset, exif: Bool = true, people: Bool = true, version: (major: Int, minor: Int, patch: Int)) -> [String: Any] {
        var d: [String: Any] = ["id": a.id, "type": a.video == nil && a.visibility != "hidden" ? "IMAGE" : "VIDEO", "originalFileName": a.name,
                                "isFavorite": a.favourite, "ownerId": a.owner,
                                "isTrashed": false, "fileCreatedAt": "\(a.year)-\(a.takenOn)T08:00:00.000Z",
                                "localDateTime": "\(a.year)-\(a.takenOn)T10:00:00.000Z",
                                "checksum": a.checksum, "updatedAt": "2025-01-01T00:00:00.000Z",
                                "someFieldFromTheFuture": ["nested": [1, 2, 3]], "livePhotoVideoId": a.livePhoto?.id as Any? ?? NSNull()]
        // Since 1.133 a visibility; before it, `isArchived` and `isVisible`.
        if Self.hasVisibility(version) { d["visibility"] = a.visibility } else {
            d["isArchived"] = a.visibility == "archive"
            d["isVisible"] = a.visibility != "hidden"
        }
        if exif {
            d["exifInfo"] = ["city": a.city as Any? ?? NSNull(), "country": a.country as Any? ?? NSNull(), "timeZone": "Europe/Lisbon",
                             "dateTimeOriginal": "\(a.year)-\(a.takenOn)T08:00:00.000Z", "make": "Google",
                             "exifImageWidth": a.width, "exifImageHeight": a.height, "orientation": a.orientation]
        }
        if people {
            let named = peopleValue.filter { a.people.contains($0.id) }
            d["people"] = named.map { ["id": $0.id, "name": $0.name, "isHidden": $0.hidden] }
        }
        return d
    }

    /// Whether a server of `version` speaks of visibility (1.133 and later) rather than `isArchived`.
    static func hasVisibility(_ version: (major: Int, minor: Int, patch: Int)) -> Bool { (version.major, version.minor) >= (1, 133) }

    /// Every asset the server keeps, a Live Photo's motion among them as an asset of its own,
    /// hidden (as Immich stores it: `visibility: hidden`, its own id), with the still's owner.
    private func everyAsset(_ assets: [Asset]) -> [Asset] {
        assets + assets.compactMap { still in
            guard let live = still.livePhoto else { return nil }
            var motion = Asset(id: live.id, name: still.name + ".MOV", preview: still.preview, original: live.video)
            motion.owner = still.owner
            motion.visibility = "hidden"
            motion.albums = []
            motion.year = still.year
            motion.takenOn = still.takenOn
            motion.video = live.video
            return motion
        }
    }

    /// The permission each route needs (the controllers' `@Authenticated({ permission })`).
    private static func permission(_ method: String, _ path: String) -> String? {
        switch (method, path) {
        case ("GET", "/api/albums"): return "album.read"
        case ("GET", "/api/partners"): return "partner.read"
        case ("GET", "/api/people"): return "person.read"
        case ("GET", "/api/tags"): return "tag.read"
        case ("GET", "/api/memories"): return "memory.read"
        case ("POST", "/api/search/metadata"), ("POST", "/api/search/random"),
             ("GET", "/api/timeline/buckets"), ("GET", "/api/timeline/bucket"): return "asset.read"
        default:
            if path.hasSuffix("/thumbnail") || path.hasSuffix("/playback") { return "asset.view" }
            if path.hasSuffix("/original") { return "asset.download" }
            return nil
        }
    }

    private func serve(_ fd: Int32) {
        defer { close(fd) }
        var request = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 8192)
        while request.firstRange(of: Array("\r\n\r\n".utf8)) == nil {
            let n = read(fd, &buffer, buffer.count)
            guard n > 0 else { return }
            request += buffer[0..<n]
        }
        let split = request.firstRange(of: Array("\r\n\r\n".utf8))!
        let head = String(decoding: request[..<split.lowerBound], as: UTF8.self)
        var body = Array(request[split.upperBound...])
        let lines = head.split(separator: "\r\n").map(String.init)
        let parts = lines.first?.split(separator: " ").map(String.init) ?? []
        let method = parts.first ?? "GET", target = parts.count > 1 ? parts[1] : "/"
        func header(_ name: String) -> String? {
            lines.dropFirst().first { $0.lowercased().hasPrefix(name + ":") }.map { String($0.dropFirst(name.count + 1)).trimmingCharacters(in: .whitespaces) }
        }
        let length = header("content-length").flatMap(Int.init) ?? 0
        while body.count < length {
            let n = read(fd, &buffer, buffer.count)
            guard n > 0 else { return }
            body += buffer[0..<n]
        }
        let path = String(target.split(separator: "?").first ?? "")
        let query = target.contains("?") ? String(target.split(separator: "?", maxSplits: 1)[1]) : ""
        var parameters: [String: String] = [:]
        for pair in query.split(separator: "&") {
            let kv = pair.split(separator: "=", maxSplits: 1).map { String($0).removingPercentEncoding ?? String($0) }
            if kv.count == 2 { parameters[kv[0]] = kv[1] }
        }
        let sentKey = header("x-api-key")
        lock.withLock {
            counts[path, default: 0] += 1
            if let sentKey { keysSeen.insert(sentKey) }
        }
        func send(_ bytes: [UInt8]) {
            lock.withLock { bytesValue += bytes.count }
            _ = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        }
        func answer(_ status: String, _ bytes: [UInt8], type: String = "application/json") {
            send(Array("HTTP/1.1 \(status)\r\nContent-Type: \(type)\r\nContent-Length: \(bytes.count)\r\nConnection: close\r\n\r\n".utf8))
            send(bytes)
        }
        guard sentKey == key else {
            answer("401 Unauthorized", json(["message": "Invalid API key", "statusCode": 401, "error": "Unauthorized"]))
            return
        }
        if let needed = Self.permission(method, path), lock.withLock({ refusedValue.contains(needed) }) {
            answer("403 Forbidden", json(["message": "Missing required permission: \(needed)", "statusCode": 403, "error": "Forbidden"]))
            return
        }
        let asked = (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any] ?? [:]
        let (stored, albums, people, version, partners) = lock.withLock {
            (assetsValue.filter { !$0.deleted }, albumsValue, peopleValue, versionValue, partnersValue)
        }
        let assets = everyAsset(stored)
        let tags = lock.withLock { tagsValue }
        let modern = Self.hasVisibility(version)
        func bad(_ message: String) { answer("400 Bad Request", json(["message": [message], "statusCode": 400, "error": "Bad Request"])) }
        /// `search.service.ts`: `me` and the partners in its timeline, whatever else is asked.
        let searched = Set([Self.me] + partners.filter(\.inTimeline).map(\.id))
        /// A visibility asked for (since 1.133), or `isArchived` before it (unknown fields are
        /// dropped by the validation's whitelist, as the server does).
        func visible(_ a: Asset, _ options: [String: Any], timelineDefault: Bool) -> Bool {
            if modern {
                if let v = options["visibility"] as? String { return a.visibility == v }
                return timelineDefault ? ["timeline", "archive"].contains(a.visibility) : true
            }
            if a.visibility == "hidden" || a.visibility == "locked" { return false }
            // A body's `true`, or a query's "true".
            if let archived = options["isArchived"] as? Bool ?? (options["isArchived"] as? String).map({ $0 == "true" }) {
                return (a.visibility == "archive") == archived
            }
            return true
        }
        switch (method, path) {
        case ("GET", "/api/server/version"):
            answer("200 OK", json(["major": version.major, "minor": version.minor, "patch": version.patch, "prerelease": NSNull()]))
        case ("GET", "/api/albums"):
            // `getOwned`, or with shared=true `getShared`: shared albums owned or joined.
            let shared = parameters["shared"] == "true"
            let listed = albums.filter { album in
                shared ? !album.members.isEmpty && (album.owner == Self.me || album.members.contains(Self.me)) : album.owner == Self.me
            }
            answer("200 OK", json(listed.map { album in
                ["id": album.id, "albumName": album.name, "assetCount": assets.filter { $0.albums.contains(album.id) }.count,
                 "ownerId": album.owner, "shared": !album.members.isEmpty, "order": "desc",
                 "albumUsers": album.members.map { ["role": "editor", "user": ["id": $0, "name": $0]] }] as [String: Any]
            }))
        case ("GET", "/api/people"):
            // `person.service.ts getAll`: pages of `size` (500 unless asked, at most 1000), hidden ones with `withHidden`.
            let withHidden = parameters["withHidden"] == "true"
            let listed = people.filter { withHidden || !$0.hidden }
            let size = min(1000, max(1, Int(parameters["size"] ?? "") ?? 500)), page = max(1, Int(parameters["page"] ?? "") ?? 1)
            let slice = Array(listed.dropFirst((page - 1) * size).prefix(size))
            answer("200 OK", json(["people": slice.map { ["id": $0.id, "name": $0.name, "isHidden": $0.hidden] }, "total": listed.count,
                                   "hidden": people.filter(\.hidden).count, "hasNextPage": page * size < listed.count]))
        case ("GET", "/api/tags"):
            answer("200 OK", json(tags.map { ["id": $0.id, "name": String($0.path.split(separator: "/").last ?? ""), "value": $0.path,
                                              "createdAt": "2025-01-01T00:00:00.000Z"] }))
        case ("POST", "/api/search/metadata"):
            var chosen = assets.filter { searched.contains($0.owner) && visible($0, asked, timelineDefault: false) }
            if let ids = asked["tagIds"] as? [String] { chosen = chosen.filter { !Set($0.tags).isDisjoint(with: ids) } }
            if let ids = asked["albumIds"] as? [String] { chosen = chosen.filter { !Set($0.albums).isDisjoint(with: ids) } }
            if let ids = asked["personIds"] as? [String] { chosen = chosen.filter { !Set($0.people).isDisjoint(with: ids) } }
            if let favourite = asked["isFavorite"] as? Bool { chosen = chosen.filter { $0.favourite == favourite } }
            let size = asked["size"] as? Int ?? 250, page = asked["page"] as? Int ?? 1
            let slice = Array(chosen.dropFirst((page - 1) * size).prefix(size))
            let more = page * size < chosen.count
            answer("200 OK", json(["albums": ["total": 0, "count": 0, "items": [], "facets": []],
                                   "assets": ["total": chosen.count, "count": slice.count, "facets": [],
                                              "items": slice.map { describe($0, exif: asked["withExif"] as? Bool == true,
                                                                            people: asked["withPeople"] as? Bool == true, version: version) },
                                              "nextPage": more ? "\(page + 1)" as Any : NSNull()]]))
        case ("GET", "/api/partners"):
            // `partner.service.ts search`: with direction=shared-with, the users sharing with `me`.
            guard parameters["direction"] == "shared-with" else { return bad("direction must be one of: shared-by, shared-with") }
            answer("200 OK", json(partners.map { ["id": $0.id, "name": $0.name, "email": $0.name.lowercased() + "@example.com",
                                                  "inTimeline": $0.inTimeline, "profileImagePath": ""] as [String: Any] }))
        case ("GET", "/api/timeline/buckets"), ("GET", "/api/timeline/bucket"):
            // An album's timeline, to a member: every asset in it whoever owns it; a user's,
            // to that user and to those the user shares with (`TimelineRead`).
            if !modern, parameters["size"] != "MONTH" { return bad("size must be one of the following values: DAY, MONTH") }
            let inAlbum: [Asset]
            if let albumID = parameters["albumId"] {
                guard let album = albums.first(where: { $0.id == albumID }), album.owner == Self.me || album.members.contains(Self.me) else {
                    return bad("Not found or no album.read access")
                }
                inAlbum = assets.filter { $0.albums.contains(albumID) && visible($0, parameters, timelineDefault: true) }
            } else {
                let user = parameters["userId"] ?? Self.me
                guard user == Self.me || partners.contains(where: { $0.id == user }) else { return bad("Not found or no timeline.read access") }
                inAlbum = assets.filter { $0.owner == user && visible($0, parameters, timelineDefault: true) }
            }
            func month(_ a: Asset) -> String { "\(a.year)-\(a.takenOn.prefix(2))-01" }
            if path.hasSuffix("/buckets") {
                let months = Set(inAlbum.map(month)).sorted(by: >)
                answer("200 OK", json(months.map { m in ["timeBucket": modern ? m : m + "T00:00:00.000Z", "count": inAlbum.filter { month($0) == m }.count] }))
                return
            }
            guard let wanted = parameters["timeBucket"]?.prefix(10) else { return bad("timeBucket must be a string") }
            let chosen = inAlbum.filter { month($0) == wanted }
            if !modern {
                answer("200 OK", json(chosen.map { describe($0, version: version) }))
                return
            }
            answer("200 OK", json([
                "id": chosen.map(\.id), "ownerId": chosen.map(\.owner),
                "ratio": chosen.map { (["5", "6", "7", "8"].contains($0.orientation) ? Double($0.height) / Double($0.width) : Double($0.width) / Double($0.height)) },
                "isFavorite": chosen.map(\.favourite), "visibility": chosen.map(\.visibility), "isTrashed": chosen.map { _ in false },
                "isImage": chosen.map { $0.video == nil }, "thumbhash": chosen.map { _ in NSNull() },
                "fileCreatedAt": chosen.map { "\($0.year)-\($0.takenOn)T08:00:00.000Z" }, "localOffsetHours": chosen.map { _ in 2 },
                "duration": chosen.map { $0.video == nil ? NSNull() as Any : 3000 as Any },
                "projectionType": chosen.map { _ in NSNull() }, "livePhotoVideoId": chosen.map { $0.livePhoto?.id as Any? ?? NSNull() },
                "city": chosen.map { $0.city as Any? ?? NSNull() }, "country": chosen.map { $0.country as Any? ?? NSNull() },
                "aFutureColumn": chosen.map { _ in 1 }] as [String: Any]))
        case ("GET", "/api/memories"):
            // `for=2026-11-27T00:00:00.000Z`: the memories of that month and day.
            let day = query.split(separator: "=").last.map { String($0.dropFirst(5).prefix(5)) } ?? ""
            let matching = stored.filter { $0.takenOn == day && $0.owner == Self.me }
            answer("200 OK", json(matching.isEmpty ? [] : [["id": UUID().uuidString.lowercased(), "type": "on_this_day",
                                                            "data": ["year": 2024], "assets": matching.map { describe($0, version: version) }]]))
        case ("POST", "/api/search/random"):
            let chosen = assets.filter { searched.contains($0.owner) && visible($0, asked, timelineDefault: false) }
            answer("200 OK", json(Array(chosen.prefix(asked["size"] as? Int ?? 250)).map {
                describe($0, exif: asked["withExif"] as? Bool == true, people: asked["withPeople"] as? Bool == true, version: version)
            }))
        default:
            let pieces = path.split(separator: "/")
            if pieces.count == 5, pieces[1] == "assets", pieces[3] == "video", pieces[4] == "playback" {
                let all = lock.withLock { assetsValue }
                let video = all.first { $0.id == pieces[2] && !$0.deleted }?.video
                    ?? all.first { $0.livePhoto?.id == String(pieces[2]) && !$0.deleted }?.livePhoto?.video
                if let video { answer("200 OK", video, type: "video/mp4"); return }
            }
            if pieces.count == 4, pieces[0] == "api", pieces[1] == "assets", let a = lock.withLock({ assetsValue.first { $0.id == pieces[2] } }) {
                guard !a.deleted else { answer("404 Not Found", json(["message": "Not found or no asset.read access", "statusCode": 404])); return }
                if pieces[3] == "thumbnail" { answer("200 OK", a.preview, type: "image/jpeg"); return }
                if pieces[3] == "original" { answer("200 OK", a.original, type: "image/jpeg"); return }
            }
            answer("404 Not Found", json(["message": "Cannot \(method) \(path)", "statusCode": 404]))
        }
    }
}
