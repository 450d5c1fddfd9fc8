import CarouselCore
import CarouselMedia
import Foundation
import Testing

/// The fuzz regression: seeded damaged copies of a small picture of every format, decoded
/// through the helpers as the carousel does. Whatever the bytes, the test process lives,
/// every file ends as an image or as a failure with a reason, within its deadline, and no
/// helper is left behind. `DAMAGED_COPIES=N` and `DAMAGED_SEED=S` run the same test as a
/// larger campaign (README, Developing).
@Suite struct DamagedImagesTests {
    /// Times each decode of the decoder it wraps.
    final class Timed: ImageDecoding, @unchecked Sendable {
        let inner: IsolatedDecoder
        private let lock = NSLock()
        private(set) var longest: Double = 0
        init(_ inner: IsolatedDecoder) { self.inner = inner }
        func decode(_ source: ImageSource, fittingIn box: Size) throws(ImageError) -> PixelImage {
            let start = Date()
            defer { let t = Date().timeIntervalSince(start); lock.withLock { longest = max(longest, t) } }
            return try inner.decode(source, fittingIn: box)
        }
        func stop() { inner.stop() }
    }

    @Test func everyDamagedFileEndsAsAnImageOrAReason() throws {
        let dir = try Fixtures.temporaryFolder("damaged")
        let environment = ProcessInfo.processInfo.environment
        // DAMAGED_ONLY=heic,avif: only the fixtures whose names contain one of these.
        let only = environment["DAMAGED_ONLY"].map { $0.split(separator: ",").map(String.init) }
        let originals = try ImageDamage.cleanFixtures().filter { path in only.map { $0.contains { path.contains($0) } } ?? true }
        #expect(originals.count >= (only == nil ? 15 : 1), "a format's fixture is missing: \(originals)")
        let count = environment["DAMAGED_COPIES"].flatMap { Int($0) } ?? 16 * originals.count
        let seed = environment["DAMAGED_SEED"].flatMap { UInt64($0) } ?? 2026
        var paths = try ImageDamage.copies(of: originals, count: count, seed: seed, into: dir)
        paths += try FileManager.default.contentsOfDirectory(atPath: ImageDamage.hostile).map { ImageDamage.hostile + "/" + $0 }
        #expect(paths.count >= 200)

        let timeout = 2.0
        let isolated = IsolatedDecoder(IsolatedDecoder.Settings(executable: CarouselBinary.url.path, timeout: timeout,
                                                                memoryLimitMB: 256), helpers: 2, warn: { _ in })
        let decoder = Timed(isolated)
        let workers = DecodeWorkers(decoder: decoder, threads: 2)
        let box = Size(width: 160, height: 120)
        workers.want(paths.enumerated().map { DecodeWorkers.Request(item: $0.offset, source: ImageSource(path: $0.element), box: box) })
        var outcomes: [Int: Result<PixelImage, ImageError>] = [:]
        while workers.busy || outcomes.count < paths.count {
            workers.waitForResult()
            for done in workers.take() { outcomes[done.request.item] = done.result }
            if !workers.busy && workers.take().isEmpty && outcomes.count < paths.count { break }
        }
        let helpers = isolated.helperProcesses
        let tally = isolated.helperTally
        workers.stop()

        #expect(outcomes.count == paths.count, "\(paths.count - outcomes.count) files never ended")
        var images = 0, failures = 0
        for (i, outcome) in outcomes {
            switch outcome {
            case .success(let image):
                images += 1
                #expect(image.width <= 160 && image.height <= 120 && image.width > 0, "\(paths[i]) came back \(image.width)x\(image.height)")
            case .failure(let error):
                failures += 1
                #expect(!error.reason.isEmpty, "\(paths[i]) failed without a reason")
            }
        }
        // A decode ends by its deadline, plus what a replacement helper takes to start: a
        // bound, not a speed (beside a build and ThreadSanitizer's suite, 5.3 s once and
        // 14.0 s once; under ThreadSanitizer itself, whose helpers start several times slower,
        // beside a build and a second suite, 16.7 s once). A decode that hangs without the
        // deadline never ends; the deadline itself is IsolatedDecodingTests' (a helper that hangs).
        let bound = timeout + 60
        #expect(decoder.longest < bound, "a decode took \(decoder.longest) s")
        #expect(!helpers.contains(where: IsolatedDecodingTests.isRunning), "a helper outlived the decoder")
        let failed = outcomes.compactMap { i, outcome -> String? in
            guard case .failure(let error) = outcome, error.reason.contains("crashed") || error.reason.contains("longer than") else { return nil }
            return "  \((paths[i] as NSString).lastPathComponent): \(error.reason)"
        }.sorted()
        if !failed.isEmpty { print("damaged files that crashed a helper or ran out of time:\n" + failed.joined(separator: "\n")) }
        print("damaged files: \(paths.count), images \(images), failures \(failures), helpers started \(tally.started), crashed \(tally.crashed), timed out \(tally.timedOut), longest decode \(decoder.longest) s")
        // The kept hostile files are among the failures.
        for name in ["crashes-sdl-image-2.6.3.gif", "hangs-sdl-image-2.6.3.png"] {
            let i = paths.firstIndex { $0.hasSuffix("/" + name) }
            #expect(i.map { if case .failure = outcomes[$0] { true } else { false } } == true, "\(name) was shown")
        }
    }
}
