import Glibc

/// A 64-bit FNV-1a digest of a file's bytes, read 1 MB at a time (a 64 MB download is never
/// held in memory). It finds damage (a file cut short, a sector gone bad, an edit by hand),
/// not an attacker: the bytes came from the server we trust with the pictures anyway.
public enum ContentHash {
    /// The digest of the file at `path` as 16 hex digits, and its length; nil if unreadable.
    public static func of(file path: String) -> (hash: String, bytes: Int64)? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var state = Digest()
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        var total: Int64 = 0
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n >= 0 else { return nil }
            if n == 0 { break }
            buffer.withUnsafeBytes { state.add(UnsafeRawBufferPointer(rebasing: $0[0..<n])) }
            total += Int64(n)
        }
        return (state.hex, total)
    }

    /// FNV-1a over bytes, added in pieces.
    public struct Digest {
        private var value: UInt64 = 0xcbf2_9ce4_8422_2325

        public init() {}

        public mutating func add(_ bytes: UnsafeRawBufferPointer) {
            var h = value
            for b in bytes { h = (h ^ UInt64(b)) &* 0x0000_0100_0000_01b3 }
            value = h
        }

        public var hex: String {
            let digits = String(value, radix: 16)
            return String(repeating: "0", count: 16 - digits.count) + digits
        }
    }
}
