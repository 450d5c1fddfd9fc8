import CarouselCore

/// Seeded damage to image files, the kinds fuzzers and broken copies make: bit flips,
/// truncation, a chunk or segment length changed, huge dimensions in the header. The same
/// seed gives the same bytes on every run. The fuzz regression tests and `carousel bench
/// --soak` (which drops such files into the folder it shows) both make them.
public enum ImageDamage: CaseIterable, Sendable {
    case bitFlips, truncation, lengthChange, hugeDimensions

    public func apply(to original: [UInt8], random: inout SeededRandom) -> [UInt8] {
        var b = original
        guard !b.isEmpty else { return b }
        switch self {
        case .bitFlips:
            for _ in 0..<Int.random(in: 1...8, using: &random) {
                let i = Int.random(in: 0..<b.count, using: &random)
                b[i] ^= 1 << UInt8.random(in: 0...7, using: &random)
            }
        case .truncation:
            b.removeLast(Int.random(in: 1...b.count, using: &random))
        case .lengthChange:
            // A 32- or 16-bit field made to run past the end (PNG chunks, RIFF, JPEG
            // segments, GIF blocks all have them): a big-endian length near a marker.
            let at = Int.random(in: 0..<max(1, b.count - 4), using: &random)
            let value = [UInt32(b.count * 2), 0x7FFF_FFFF, 0xFFFF_FFFF, UInt32.random(in: 0...0xFFFF, using: &random)]
                .randomElement(using: &random)!
            for k in 0..<min(4, b.count - at) { b[at + k] = UInt8(truncatingIfNeeded: value >> (24 - 8 * UInt32(k))) }
        case .hugeDimensions:
            // Every header offset a width or height lives at in some format; the ones
            // that do not apply to this file are just more damage.
            for at in [6, 8, 16, 18, 20, 22, 4] where at + 4 <= b.count {
                if Bool.random(using: &random) { b[at] = 0xFF; b[at + 1] = 0xFF }
            }
        }
        return b
    }
}
