/// A file's size and modification time: what changes when a file is replaced or still
/// being written, read with one `stat` and no file contents (`FileStamp.of`, in the media
/// part, which reads files).
public struct FileStamp: Hashable, Sendable {
    public var size: Int64
    /// Nanoseconds since 1970.
    public var modified: Int64

    public init(size: Int64, modified: Int64) {
        self.size = size
        self.modified = modified
    }
}
