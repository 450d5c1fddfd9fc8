import Glibc

/// The device nodes a hardware video decoder works through: V4L2's (`/dev/video*`: a Pi 4's
/// stateful H.264 decoder, a Pi 5's stateless HEVC one), the media controller's that a
/// stateless decoder's requests go through (`/dev/media*`), and DRM's render nodes, which
/// VA-API opens (`/dev/dri/renderD*`). The video helper hands these, and only these,
/// through its sandbox (`HelperSandbox`'s broker): character devices, found at its start.
public enum HardwareDevices {
    /// At most this many (the broker's table).
    static let limit = 64

    /// The machine's, sorted: character devices only.
    public static func present() -> [String] {
        var found: [String] = []
        for (folder, prefix) in [("/dev", "video"), ("/dev", "media"), ("/dev/dri", "renderD")] {
            guard let directory = opendir(folder) else { continue }
            defer { closedir(directory) }
            while let entry = readdir(directory) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
                guard name.hasPrefix(prefix), name.dropFirst(prefix.count).allSatisfy(\.isNumber) else { continue }
                let path = folder + "/" + name
                if isCharacterDevice(path) { found.append(path) }
            }
        }
        return Array(found.sorted().prefix(limit))
    }

    /// Whether `path` is a character device (not a link to one elsewhere: a node is taken as
    /// the kernel made it).
    public static func isCharacterDevice(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFCHR
    }
}
