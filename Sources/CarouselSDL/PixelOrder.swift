/// Byte orders of 32-bit pixels: ours (`PixelImage`: R, G, B, A in memory) and the
/// textures' (ARGB8888: B, G, R, A in memory on a little-endian machine).
public enum PixelOrder {
    /// `rgba` (R, G, B, A bytes) as ARGB8888 words: red and blue swapped.
    public static func argb(fromRGBA rgba: [UInt8]) -> [UInt32] {
        let count = rgba.count / 4
        // Never with 0: the empty array is one storage shared by every thread, and setting
        // its count (to 0) is a write ThreadSanitizer rightly calls a race.
        guard count > 0 else { return [] }
        return [UInt32](unsafeUninitializedCapacity: count) { out, initialized in
            rgba.withUnsafeBytes { raw in
                for i in 0..<count {
                    // Loaded as a little-endian word: 0xAABBGGRR; wanted 0xAARRGGBB.
                    let p = UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: i &* 4, as: UInt32.self))
                    out[i] = (p & 0xFF00_FF00) | ((p & 0xFF) << 16) | ((p >> 16) & 0xFF)
                }
            }
            initialized = count
        }
    }
}

import CarouselCore