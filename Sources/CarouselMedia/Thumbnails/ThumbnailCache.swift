import CarouselCore
import Foundation
import Glibc

/// Thumbnails kept on disk by the freedesktop Thumbnail Managing Standard, so that a
/// restart, a second pass over the wall or the machine's file manager reuse them: PNGs in
/// `large` (256 px), `x-large` (512) and `xx-large` (1024) under the thumbnails folder, each
/// named by the MD5 of the picture's file URI, holding Thumb::URI and Thumb::MTime; one whose
/// MTime differs from the picture's is stale and made again. Written atomically (a
/// temporary file in the same folder, then a rename), folders 0700 and files 0600 as the
/// standard asks. A folder that cannot be written is said once, and the cache is then only
/// read. Thread-safe: the decode workers use it.
public final class ThumbnailCache: @unchecked Sendable {
    /// The standard's sizes: the largest side of a thumbnail in each folder.
    public enum Size: Int, CaseIterable, Sendable {
        case large = 256, xLarge = 512, xxLarge = 1024
        public var folder: String {
            switch self {
            case .large: "large"
            case .xLarge: "x-large"
            case .xxLarge: "xx-large"
            }
        }
        /// The smallest size whose thumbnails are at least `pixels` on their longer side.
        public static func atLeast(_ pixels: Double) -> Size {
            allCases.first { Double($0.rawValue) >= pixels } ?? .xxLarge
        }
    }

    public let directory: String
    private let lock = NSLock()
    private var writable = true
    private let warn: @Sendable (String) -> Void
    /// Hits and misses so far (the bench reports them).
    public private(set) var hits = 0
    public private(set) var misses = 0

    public init(directory: String, warn: @escaping @Sendable (String) -> Void = { _ in }) {
        self.directory = directory
        self.warn = warn
    }

    /// The standard's folder: `$XDG_CACHE_HOME/thumbnails`, else `~/.cache/thumbnails`.
    public static func standardDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") { return xdg + "/thumbnails" }
        if let home = environment["HOME"], home.hasPrefix("/") { return home + "/.cache/thumbnails" }
        return nil
    }

    /// `file://` and the absolute path, escaped as GLib escapes it (what file managers hash).
    public static func uri(for path: String) -> String {
        let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789!$&'()*+,-./:=@_~".utf8)
        var out = "file://"
        for b in (URL(fileURLWithPath: absolute).standardized.path).utf8 {
            if allowed.contains(b) { out.append(Character(Unicode.Scalar(b))) }
            else { out += "%" + String(b, radix: 16, uppercase: true).leftPadded(to: 2) }
        }
        return out
    }

    /// Where the thumbnail of `path` at `size` is or would be.
    public func path(for path: String, size: Size) -> String { file(forURI: Self.uri(for: path), size: size) }

    private func file(forURI uri: String, size: Size) -> String {
        directory + "/" + size.folder + "/" + MD5.hex(Array(uri.utf8)) + ".png"
    }

    /// The modification time the standard records: whole seconds.
    static func mtime(_ stamp: FileStamp) -> String { String(stamp.modified / 1_000_000_000) }

    /// A thumbnail found: its file, and whether the picture it was made from moves (an
    /// animation: the wall may play it).
    public struct Found: Sendable, Equatable {
        public var file: String
        public var animated: Bool
    }

    /// The key marking a thumbnail made from an animated picture (freedesktop's keys are
    /// Thumb::; this one is ours, and other readers pass it by).
    static let animatedKey = "X-KioskCarousel-Animated"

    /// The thumbnail of `path` at `size` if there is one made from the file as it is now
    /// (its URI and MTime match); nil otherwise. `counting`: whether the look-up counts
    /// as a hit or a miss (the wall's look-ups do; the carousel's previews do not).
    public func lookUp(_ path: String, stamp: FileStamp, size: Size, counting: Bool = true) -> String? {
        find(path, stamp: stamp, size: size, counting: counting)?.file
    }

    /// `lookUp`, saying also whether the picture moves.
    public func find(_ path: String, stamp: FileStamp, size: Size, counting: Bool = true) -> Found? {
        let uri = Self.uri(for: path)
        let file = self.file(forURI: uri, size: size)
        guard let bytes = Self.prefix(of: file), let texts = PNGText.read(bytes),
              texts["Thumb::MTime"] == Self.mtime(stamp), texts["Thumb::URI"] == uri
        else {
            if counting {
                lock.withLock { misses += 1 }
                MediaCounters.count { $0.thumbnailMisses += 1 }
            }
            return nil
        }
        if counting {
            lock.withLock { hits += 1 }
            MediaCounters.count { $0.thumbnailHits += 1 }
        }
        return Found(file: file, animated: texts[Self.animatedKey] == "1")
    }

    /// Keeps `image` (already at most `size` on its longer side) as the thumbnail of `path`.
    /// Failing to write is said once; then the cache is only read.
    public func store(_ image: PixelImage, for path: String, stamp: FileStamp, size: Size) {
        guard lock.withLock({ writable }) else { return }
        let uri = Self.uri(for: path)
        let file = self.file(forURI: uri, size: size)
        let folder = (file as NSString).deletingLastPathComponent
        do throws(ImageError) {
            try Self.makeFolder(folder)
            var texts = [("Thumb::URI", uri), ("Thumb::MTime", Self.mtime(stamp)), ("Software", "KioskCarousel")]
            if image.motion == .frames { texts.append((Self.animatedKey, "1")) }
            let png = PNGText.inserting(texts, into: try PNGCodec.encode(image, path: file, effort: .quick))
            let temporary = folder + "/.kiosk-carousel-\(getpid())-\(UInt64.random(in: 0...UInt64.max)).png"
            try PNGCodec.write(png, to: temporary, mode: 0o600)
            guard rename(temporary, file) == 0 else {
                let reason = String(cString: strerror(errno))
                unlink(temporary)
                throw ImageError(path: file, reason: "cannot be written (\(reason))")
            }
        } catch {
            let first = lock.withLock { () -> Bool in defer { writable = false }; return writable }
            if first { warn("thumbnail cache \(directory) cannot be written (\(error.reason)); thumbnails are made each time") }
        }
    }

    private static func makeFolder(_ folder: String) throws(ImageError) {
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue { return }
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        } catch {
            throw ImageError(path: folder, reason: "cannot be made")
        }
    }

    /// The first 64 KB of a file: its text chunks come before the pixels.
    private static func prefix(of file: String) -> [UInt8]? {
        let fd = open(file, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: 64 << 10)
        let n = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress!, $0.count, 0) }
        guard n > 8 else { return nil }
        return Array(bytes[0..<n])
    }
}
