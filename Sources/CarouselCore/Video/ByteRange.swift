/// A run of bytes inside a file: where a clip embedded in a picture lies (a Motion Photo's
/// MP4 after its JPEG).
public struct ByteRange: Hashable, Sendable {
    public var start: Int
    public var length: Int

    public init(start: Int, length: Int) {
        self.start = start
        self.length = length
    }

    public var end: Int { start + length }
}
