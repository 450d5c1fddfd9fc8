import Glibc

/// A file's size and modification time: what changes when a file is replaced or still
/// being written, read with one `stat` and no file contents.
public struct FileStamp: Hashable, Sendable {
    public var size: Int64
    /// Nanoseconds since 1970.
    public var modified: Int64

    public init(size: Int64, modified: Int64) {
        self.size = size
        self.modified = modified
    }

    init(_ info: stat) {
        size = Int64(info.st_size)
        modified = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
    }

    /// The stamp of the file at `path` (following links); nil when it cannot be read.
    public static func of(_ path: String) -> FileStamp? {
        var info = stat()
        return stat(path, &info) == 0 ? FileStamp(info) : nil
    }
}
