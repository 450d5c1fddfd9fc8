import CarouselApp
import ArgumentParser
import CarouselMedia
import CarouselSDL
import Foundation
import CarouselClock

/// `--soak DURATION`: seconds, minutes or hours ("90s", "30m", "8h"; a bare number is seconds).
struct SoakDuration: ExpressibleByArgument, Sendable {
    let seconds: Double

    init?(argument: String) {
        let text = argument.trimmingCharacters(in: .whitespaces).lowercased()
        let units: [(String, Double)] = [("h", 3600), ("m", 60), ("s", 1)]
        let (number, scale) = units.first { text.hasSuffix($0.0) }.map { (String(text.dropLast()), $0.1) } ?? (text, 1)
        guard let value = Double(number), value.isFinite, value >= 1 / scale, value * scale <= 30 * 24 * 3600 else { return nil }
        seconds = value * scale
    }

    var defaultValueDescription: String { "\(seconds)s" }
}

extension BenchCommand {
    /// The soak: the pictures (given or generated) copied by link into a temporary folder,
    /// the program run on it under the seeded mix, the report printed.
    func runSoak(_ seconds: Double) throws {
        let seed = self.seed ?? UInt64(SystemClock.wall)
        let workspace = NSTemporaryDirectory() + "carousel-soak-\(UUID().uuidString)"
        let stop = StopFlag()
        SignalWatcher.onInterrupt { stop.set() }
        try FileManager.default.createDirectory(atPath: workspace, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: workspace) }
        var pool: [String]
        let sourcesText: String
        if let spec = synthetic {
            let dir = workspace + "/generated"
            try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
            if !json { Log.info("generating \(spec.count) photo-like \(spec.width)x\(spec.height) \(spec.format.rawValue.uppercased()) files") }
            do { pool = try SyntheticPhotos.write(spec, into: dir) } catch { throw Failure("cannot generate the images: \(error)") }
            sourcesText = "\(spec.count) synthetic \(spec.width)x\(spec.height) \(spec.format.rawValue.uppercased())"
        } else {
            pool = try source.resolve().map(\.path)
            guard !pool.isEmpty else { throw Failure("\(source.emptyMessage): nothing to soak") }
            sourcesText = "\(pool.count) images from \(source.paths.isEmpty ? "the bundled Assets/" : source.paths.joined(separator: ", "))"
        }
        // Damaged files are made from the pictures and from small PNGs (whose chunk lengths
        // once hung a decoder) as well as JPEGs.
        let small = workspace + "/small"
        try FileManager.default.createDirectory(atPath: small, withIntermediateDirectories: true)
        let damageable = (try? SyntheticPhotos.write(.init(count: 2, width: 320, height: 240, format: .png), into: small)) ?? []
        if stop.isSet { throw ExitCode(130) }
        if !json { Log.info("soaking for \(Int(seconds)) s with seed \(seed) (replay with --seed \(seed)); Ctrl+C ends it early with the report") }
        var runner = SoakRunner(seed: seed, duration: seconds, width: size.width, height: size.height, window: window,
                                pool: pool, damageable: damageable, workspace: workspace, sources: sourcesText, interrupted: { stop.isSet })
        runner.imageOptions = ["--order", (source.order ?? .name).rawValue, "--prefetch", String(source.prefetch),
                               "--max-megapixels", String(source.maxMegapixels),
                               "--decode-timeout", String(source.decodeTimeout),
                               "--decode-memory", String(source.decodeMemory)] + (source.recursive ? ["--recursive"] : [])
        runner.controlLoad = controlLoad
        let report = try runner.run()
        print(json ? report.json() : report.table(), terminator: json ? "\n" : "")
        if !report.faults.isEmpty { throw ExitCode(1) }
    }
}

/// Set once, from any thread.
final class StopFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    func set() { lock.lock(); value = true; lock.unlock() }
    var isSet: Bool { lock.lock(); defer { lock.unlock() }; return value }
}
