import Foundation
import Glibc

/// A fake Immich server on 127.0.0.1 for the tests, its routes and answers shaped as
/// Immich's published API (2.x and 3.x: `/api/server/version`, `/api/albums`, `/api/people`,
/// `POST /api/search/metadata` with `albumIds`, `personIds` or `isFavorite` and pages,
/// `/api/memories?for=`, `POST /api/search/random`, an asset's `thumbnail?size=preview`
/// and `original`), with fields a newer server adds that a reader must pass by. Every
/// request needs the key (401 otherwise); a deleted asset is a 404. Counts requests by path.
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
        /// A Live Photo's motion: the id of its hidden video asset, and that video's stream.
        public var livePhoto: (id: String, video: [UInt8])? = nil
        public init(id: String, name: String, preview: [UInt8], original: [UInt8]) {
            self.id = id; self.name = name; self.preview = preview; self.original = original
        }
    }

    public let port: UInt16
    public let key: String
    private let listener: LoopbackListener
    private let lock = NSLock()
    private var assetsValue: [Asset] = []
    private var albumsValue: [(id: String, name: String)] = []
    private var peopleValue: [(id: String, name: String)] = []
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
    public func addAlbum(id: String, name: String) { lock.withLock { albumsValue.append((id, name)) } }
    public func addPerson(id: String, name: String) { lock.withLock { peopleValue.append((id, name)) } }
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
    private func describe(_ a: Asset, exif: Bool = true, people: Bool = true) -> [String: Any] {
        var d: [String: Any] = ["id": a.id, "type": a.video == nil ? "IMAGE" : "VIDEO", "originalFileName": a.name, "isFavorite": a.favourite,
                                "isTrashed": false, "fileCreatedAt": "\(a.year)-\(a.takenOn)T08:00:00.000Z",
                                "localDateTime": "\(a.year)-\(a.takenOn)T10:00:00.000Z",
                                "checksum": a.checksum, "updatedAt": "2025-01-01T00:00:00.000Z",
                                "someFieldFromTheFuture": ["nested": [1, 2, 3]], "livePhotoVideoId": a.livePhoto?.id as Any? ?? NSNull()]
        if exif {
            d["exifInfo"] = ["city": a.city as Any? ?? NSNull(), "country": a.country as Any? ?? NSNull(), "timeZone": "Europe/Lisbon",
                             "dateTimeOriginal": "\(a.year)-\(a.takenOn)T08:00:00.000Z", "make": "Google",
                             "exifImageWidth": a.width, "exifImageHeight": a.height, "orientation": a.orientation]
        }
        if people {
            let named = peopleValue.filter { a.people.contains($0.id) }
            d["people"] = named.map { ["id": $0.id, "name": $0.name, "isHidden": false] }
        }
        return d
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
        let sentKey = header("x-api-key")
        lock.withLock {
            counts[path, default: 0] += 1
            if let sentKey { keysSeen.insert(sentKey) }
        }
        func send(_ bytes: [UInt8]) { _ = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) } }
        func answer(_ status: String, _ bytes: [UInt8], type: String = "application/json") {
            send(Array("HTTP/1.1 \(status)\r\nContent-Type: \(type)\r\nContent-Length: \(bytes.count)\r\nConnection: close\r\n\r\n".utf8))
            send(bytes)
        }
        guard sentKey == key else {
            answer("401 Unauthorized", json(["message": "Invalid API key", "statusCode": 401, "error": "Unauthorized"]))
            return
        }
        let asked = (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any] ?? [:]
        let (assets, albums, people, version) = lock.withLock { (assetsValue.filter { !$0.deleted }, albumsValue, peopleValue, versionValue) }
        let tags = lock.withLock { tagsValue }
        switch (method, path) {
        case ("GET", "/api/server/version"):
            answer("200 OK", json(["major": version.major, "minor": version.minor, "patch": version.patch, "prerelease": NSNull()]))
        case ("GET", "/api/albums"):
            answer("200 OK", json(albums.map { album in
                ["id": album.id, "albumName": album.name, "assetCount": assets.filter { $0.albums.contains(album.id) }.count,
                 "ownerId": "u1", "order": "desc"] as [String: Any]
            }))
        case ("GET", "/api/people"):
            answer("200 OK", json(["people": people.map { ["id": $0.id, "name": $0.name, "isHidden": false] }, "total": people.count,
                                   "hidden": 0, "hasNextPage": false]))
        case ("GET", "/api/tags"):
            answer("200 OK", json(tags.map { ["id": $0.id, "name": String($0.path.split(separator: "/").last ?? ""), "value": $0.path,
                                              "createdAt": "2025-01-01T00:00:00.000Z"] }))
        case ("POST", "/api/search/metadata"):
            var chosen = assets
            if let ids = asked["tagIds"] as? [String] { chosen = chosen.filter { !Set($0.tags).isDisjoint(with: ids) } }
            if let ids = asked["albumIds"] as? [String] { chosen = chosen.filter { !Set($0.albums).isDisjoint(with: ids) } }
            if let ids = asked["personIds"] as? [String] { chosen = chosen.filter { !Set($0.people).isDisjoint(with: ids) } }
            if let favourite = asked["isFavorite"] as? Bool { chosen = chosen.filter { $0.favourite == favourite } }
            let size = asked["size"] as? Int ?? 250, page = asked["page"] as? Int ?? 1
            let slice = Array(chosen.dropFirst((page - 1) * size).prefix(size))
            let more = page * size < chosen.count
            answer("200 OK", json(["albums": ["total": 0, "count": 0, "items": [], "facets": []],
                                   "assets": ["total": chosen.count, "count": slice.count, "facets": [],
                                              "items": slice.map { describe($0, exif: asked["withExif"] as? Bool == true, people: asked["withPeople"] as? Bool == true) },
                                              "nextPage": more ? "\(page + 1)" as Any : NSNull()]]))
        case ("GET", "/api/memories"):
            // `for=2026-11-27T00:00:00.000Z`: the memories of that month and day.
            let day = query.split(separator: "=").last.map { String($0.dropFirst(5).prefix(5)) } ?? ""
            let matching = assets.filter { $0.takenOn == day }
            answer("200 OK", json(matching.isEmpty ? [] : [["id": UUID().uuidString.lowercased(), "type": "on_this_day",
                                                            "data": ["year": 2024], "assets": matching.map { describe($0) }]]))
        case ("POST", "/api/search/random"):
            answer("200 OK", json(Array(assets.prefix(asked["size"] as? Int ?? 250)).map {
                describe($0, exif: asked["withExif"] as? Bool == true, people: asked["withPeople"] as? Bool == true)
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
