import CarouselMedia
import CarouselCore
import Foundation
import Glibc

/// Finds the images to show in the files, folders and manifests given on the command line.
/// Reads names (and, for `mtime` order, modification times) only: scanning decodes nothing.
public struct SourceScanner: Sendable {
    /// Extensions of the formats carousel decodes, lower case (the content decides how).
    public static let imageExtensions: Set<String> = Set<String>([
        "jpg", "jpeg", "jpe", "png", "webp", "gif", "bmp", "dib", "tga", "icb", "vda", "vst", "tif", "tiff", "pnm", "ppm", "pgm",
        "pbm", "qoi", "xpm", "pcx", "lbm", "iff", "xcf", "svg", "avif", "jxl", "heic", "heif", "hif",
    ]).union(ImageSource.clipExtensions)

    public enum Order: Sendable { case name, modificationTime }

    /// A source the carousel cannot start from: a path that does not exist, a bad manifest.
    public struct Problem: Error, CustomStringConvertible {
        public var description: String
    }

    /// Descend into sub-folders, following symbolic links; a folder met twice is a loop.
    public var recursive = false
    /// Order inside each folder (manifests keep their own order).
    public var order: Order = .name
    /// A path that does not exist holds no images, with a note, instead of being an error:
    /// for rescans, where a folder may be gone for a while (a USB stick pulled out).
    public var missingIsEmpty = false
    /// `--taken`, `--on-this-day`: the files kept by when they were taken (their heads read,
    /// each once while it is unchanged); web items by the date their listing gives, those
    /// without one not judged.
    public var taken: TakenFilter?
    /// `--skip screenshots`: pictures `ScreenshotRule` calls screenshots are left out.
    public var skipsScreenshots = false
    /// The local day now, for `--on-this-day`; tests give their own.
    public var today: @Sendable () -> TakenFilter.Day = { TakenFilter.Day.today() }
    /// The items of a web source (an http or https URL): nil while nothing came from it yet.
    public var remote: (@Sendable (String) -> [ImageSource]?)?

    public init() {}

    /// What a scan found: the images, and the folders whose changes would change them.
    public struct Result: Sendable {
        public var sources: [ImageSource] = []
        /// Folders read, and the folders holding the files and manifests given: what to watch.
        public var folders: [String] = []
        /// Sources given that are not there now (tolerant scans only): no folder to watch,
        /// so only a periodic rescan finds them when they come.
        public var missing: [String] = []
    }

    /// Every image in `paths`, in order: files as given, folders' images sorted, manifests'
    /// items as listed. `note` hears one line for each file skipped and why.
    public func scan(_ paths: [String], note: (String) -> Void = { _ in }) throws(Problem) -> [ImageSource] {
        try scanAll(paths, note: note).sources
    }

    /// `scan`, also telling which folders to watch for changes.
    public func scanAll(_ paths: [String], note: (String) -> Void = { _ in }) throws(Problem) -> Result {
        var found: [ImageSource] = []
        var folders: [String] = []
        var missing: [String] = []
        for path in paths {
            if RemoteURL.isRemote(path) {
                guard let remote else { throw Problem(description: "\(path): web sources are not read here") }
                found += remote(path) ?? []
                continue
            }
            var info = stat()
            guard stat(path, &info) == 0 else {
                if missingIsEmpty {
                    note("\(path): not there now; showing what else there is")
                    missing.append(path)
                    continue
                }
                throw Problem(description: errno == ELOOP ? "\(path): is a symbolic link loop"
                                                          : "\(path): no such file or folder")
            }
            if (info.st_mode & S_IFMT) == S_IFDIR {
                var visited = Set<FileID>()
                scanFolder(trimmed(path), id: FileID(info), visited: &visited, into: &found, folders: &folders, note: note)
            } else if path.lowercased().hasSuffix(".toml") {
                let items = try readManifest(path).map { item in
                    var stamped = item
                    stamped.stamp = FileStamp.of(item.path)
                    return stamped
                }
                found += items
                folders.append(Self.folder(of: path))
                folders += items.map { Self.folder(of: $0.path) }
            } else {
                found.append(ImageSource(path: path, stamp: FileStamp(info)))
                folders.append(Self.folder(of: path))
            }
        }
        var seen = Set<String>()
        if let taken { found = Self.keep(found, taken: taken, today: today(), note: note) }
        if skipsScreenshots { found = SkippedPictures.leavingOutScreenshots(found, note: note) }
        return Result(sources: found, folders: folders.filter { seen.insert($0).inserted }, missing: missing)
    }

    /// The items of `found` `taken` admits: files as they say, items whose listing dates them
    /// (a manifest's `taken`, Immich's) as it says; web items their listing does not date as
    /// they are. For `--on-this-day` with none of that day, all of them, said once.
    static func keep(_ found: [ImageSource], taken: TakenFilter, today: TakenFilter.Day, note: (String) -> Void) -> [ImageSource] {
        func judged(_ item: ImageSource) -> Bool { item.taken != nil || !RemoteURL.isRemote(item.path) }
        let kept = found.filter { !judged($0) || taken.admits(PhotoDate.of($0), today: today) }
        let local = found.filter(judged).count
        let keptLocal = kept.filter(judged).count
        guard local > 0, keptLocal == 0 else { return kept }
        if taken.onThisDay && taken.from == nil && taken.to == nil {
            note("--on-this-day: nothing was taken on this day (" + String(format: "%02d-%02d", today.month, today.day) + ") in an earlier year; showing everything")
            return found
        }
        note("--taken: none of the \(local) pictures was taken then (or says when)")
        return kept
    }

    static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    private func scanFolder(_ folder: String, id: FileID, visited: inout Set<FileID>,
                            into found: inout [ImageSource], folders watched: inout [String],
                            note: (String) -> Void) {
        guard visited.insert(id).inserted else {
            note("\(folder): skipped, a folder loop (reached again through a symbolic link)")
            return
        }
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else {
            note("\(folder): cannot be read, skipped")
            return
        }
        watched.append(folder)
        var files: [(name: String, mtime: Double, stamp: FileStamp?)] = [], folders: [(String, FileID)] = []
        for name in names where !name.hasPrefix(".") {
            let full = folder + "/" + name
            var info = stat()
            if stat(full, &info) != 0 {
                // A dangling link or a link loop: shown as a placeholder if it looks like an image.
                if Self.isImage(name) { files.append((name, 0, nil)) } else { note("\(full): broken link, skipped") }
                continue
            }
            switch info.st_mode & S_IFMT {
            case S_IFDIR:
                if recursive { folders.append((name, FileID(info))) }
            case S_IFREG:
                if Self.isImage(name) {
                    files.append((name, Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9, FileStamp(info)))
                } else if name.lowercased().hasSuffix(".toml") {
                    // Most likely the folder's own manifest: say how to use its titles.
                    note("\(full): a manifest in a folder is not read (give it as a source for its order and titles), skipped")
                } else {
                    note("\(full): not an image type carousel shows, skipped")
                }
            default:
                note("\(full): not a regular file, skipped")
            }
        }
        switch order {
        case .name: files = files.map { (NaturalOrder.Key($0.name), $0) }.sorted { $0.0 < $1.0 }.map(\.1)
        case .modificationTime: files.sort { ($0.mtime, $0.name) < ($1.mtime, $1.name) }
        }
        // A Live Photo's still and its motion are one item: the still, its motion beside it.
        var live = LivePhotoPairs.pairs(files.map(\.name)) { still, motion in
            if LivePhotoPairs.isMP4(motion) && LivePhotoIdentity.identifier(ofStill: folder + "/" + still) == nil { return false }
            return LivePhotoIdentity.belongTogether(still: folder + "/" + still, motion: folder + "/" + motion)
        }
        // What names did not pair may by Apple's content identifier (a renamed export).
        let paired = Set(live.keys).union(live.values)
        let alone = files.map(\.name).filter { !paired.contains($0) }
        live.merge(LivePhotoPairs.byIdentifier(stills: alone, motions: alone,
                                               stillID: { LivePhotoIdentity.identifier(ofStill: folder + "/" + $0) },
                                               motionID: { LivePhotoIdentity.identifier(ofMotion: folder + "/" + $0) })) { named, _ in named }
        let motions = Set(live.values)
        found += files.filter { !motions.contains($0.name) }.map {
            ImageSource(path: folder + "/" + $0.name, stamp: $0.stamp, motion: live[$0.name].map { folder + "/" + $0 })
        }
        for (name, sub) in folders.map({ (NaturalOrder.Key($0.0), $0) }).sorted(by: { $0.0 < $1.0 }).map(\.1) {
            scanFolder(folder + "/" + name, id: sub, visited: &visited, into: &found, folders: &watched, note: note)
        }
    }

    private func readManifest(_ path: String) throws(Problem) -> [ImageSource] {
        let text: String
        do { text = try String(contentsOfFile: path, encoding: .utf8) } catch {
            throw Problem(description: "\(path): cannot be read as UTF-8 text")
        }
        do { return try Manifest.parse(text, file: path) } catch { throw Problem(description: error.description) }
    }

    private func trimmed(_ path: String) -> String {
        path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
    }

    public static func isImage(_ name: String) -> Bool {
        guard let dot = name.lastIndex(of: ".") else { return false }
        return imageExtensions.contains(name[name.index(after: dot)...].lowercased())
    }
}

/// A file's identity whatever the path it was reached by.
struct FileID: Hashable {
    var device: UInt64
    var inode: UInt64
    init(_ info: stat) {
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
    }
}
