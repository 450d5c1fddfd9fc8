import CarouselCore
import Foundation

/// Seeded damage to image files, the kinds fuzzers and broken copies make: bit flips,
/// truncation, a chunk or segment length changed, huge dimensions in the header. The same
/// seed gives the same bytes on every run.
enum ImageDamage: CaseIterable {
    case bitFlips, truncation, lengthChange, hugeDimensions

    /// The fixture images every supported format is represented by, and the damaged copies
    /// once kept because they crashed or hung a decoder (in hostile/).
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("ImageFixtures").path
    static var hostile: String { fixtures + "/hostile" }

    /// The clean fixtures: one small picture per format and variant.
    static func cleanFixtures() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: fixtures).sorted()
            .filter { !$0.hasPrefix(".") && $0 != "hostile" && !$0.hasSuffix(".md") }
            .map { fixtures + "/" + $0 }
    }

    func apply(to original: [UInt8], random: inout SeededRandom) -> [UInt8] {
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

    /// `count` damaged copies spread over `originals` and every kind of damage, written into
    /// `folder` as `NNNN-kind-name`; their paths.
    static func copies(of originals: [String], count: Int, seed: UInt64, into folder: String) throws -> [String] {
        var random = SeededRandom(seed: seed)
        let bytes = try originals.map { [UInt8](try Data(contentsOf: URL(fileURLWithPath: $0))) }
        var paths: [String] = []
        for n in 0..<count {
            let i = n % originals.count
            let kind = allCases[(n / originals.count) % allCases.count]
            let name = String(format: "%04d", n) + "-\(kind)-" + (originals[i] as NSString).lastPathComponent
            let path = folder + "/" + name
            try Data(kind.apply(to: bytes[i], random: &random)).write(to: URL(fileURLWithPath: path))
            paths.append(path)
        }
        return paths
    }
}
