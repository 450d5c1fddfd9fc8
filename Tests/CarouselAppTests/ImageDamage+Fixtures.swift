import CarouselCore
import CarouselMedia
import Foundation

/// The fixtures the damage is done to, and the copies made from them for the tests.
extension ImageDamage {
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
