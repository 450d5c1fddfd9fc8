import CarouselCore
import Glibc

extension FileStamp {
    public init(_ info: stat) {
        self.init(size: Int64(info.st_size),
                  modified: Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec))
    }

    /// The stamp of the file at `path` (following links); nil when it cannot be read.
    public static func of(_ path: String) -> FileStamp? {
        var info = stat()
        return stat(path, &info) == 0 ? FileStamp(info) : nil
    }
}
