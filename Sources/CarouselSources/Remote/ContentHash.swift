import CarouselMedia
import Glibc

/// A 64-bit digest of a file's bytes, read 1 MB at a time (a 64 MB download is never held
/// in memory): FNV-1a taken over 8-byte words (the tail byte by byte), about 1 ms per
/// 6 MB photo. It finds damage (a file cut short, a sector gone bad, an edit by hand), not
/// an attacker: the bytes came from the server we trust with the pictures anyway.
public enum ContentHash {
    /// What the digests are, written before them: a cache written with another kind is
    /// not damaged, only unknown (its entries are dropped without a warning).
    public static let kind = "fnv64w-"

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

    /// FNV-1a over little-endian 8-byte words, added in pieces; a piece's tail that does
    /// not fill a word waits for the next piece, so how a file is cut into pieces does not
    /// change its digest.
    public struct Digest {
        private var value: UInt64 = 0xcbf2_9ce4_8422_2325
        private var pending: [UInt8] = []
        private static let prime: UInt64 = 0x0000_0100_0000_01b3

        public init() {}

        public mutating func add(_ bytes: UnsafeRawBufferPointer) {
            var rest = bytes[...]
            while !pending.isEmpty && pending.count < 8, let b = rest.first {
                pending.append(b)
                rest = rest.dropFirst()
            }
            if pending.count == 8 {
                pending.withUnsafeBytes { mix($0.loadUnaligned(as: UInt64.self)) }
                pending.removeAll()
            }
            let words = rest.count / 8
            var h = value
            let base = UnsafeRawBufferPointer(rebasing: rest)
            for i in 0..<words { h = (h ^ UInt64(littleEndian: base.loadUnaligned(fromByteOffset: i * 8, as: UInt64.self))) &* Self.prime }
            value = h
            pending += base[(words * 8)...]
        }

        private mutating func mix(_ word: UInt64) { value = (value ^ UInt64(littleEndian: word)) &* Self.prime }

        /// The digest of everything added; the tail (under 8 bytes) byte by byte.
        public var hex: String {
            var h = value
            for b in pending { h = (h ^ UInt64(b)) &* Self.prime }
            let digits = String(h, radix: 16)
            return ContentHash.kind + String(repeating: "0", count: 16 - digits.count) + digits
        }
    }
}

