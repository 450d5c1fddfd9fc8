import CarouselCore
@testable import CarouselMedia
import Foundation
import Testing
import TestSupport

/// Decoding in helper processes: what a hostile file can do to a helper stays there.
@Suite struct IsolatedDecodingTests {
    static let box = Size(width: 200, height: 150)

    static func decoder(timeout: Double = 10, memoryMB: Int = 256, helpers: Int = 1,
                        executable: String = CarouselBinary.url.path) -> IsolatedDecoder {
        IsolatedDecoder(IsolatedDecoder.Settings(executable: executable, timeout: timeout,
                                                 memoryLimitMB: memoryMB), helpers: helpers, warn: { _ in })
    }

    static func source(_ path: String) -> ImageSource { ImageSource(path: path, stamp: FileStamp.of(path)) }

    static func reason(_ decoder: IsolatedDecoder, _ path: String) -> String? {
        do { _ = try decoder.decode(source(path), fittingIn: box); return nil } catch { return error.reason }
    }

    /// A zoom's parts of a format decoded only whole are cut from one whole decode its
    /// helper keeps: a file rewritten under the same inode, size and time still gives the
    /// picture kept, a decode of another picture in between goes to the other helper and
    /// leaves it be, and a file whose time changed is decoded again.
    @Test func aZoomsPartsAreCutFromTheWholePictureItsHelperKeeps() throws {
        let dir = NSTemporaryDirectory() + "whole-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        func ppm(_ rgb: (UInt8, UInt8, UInt8)) -> Data {
            Data(Array("P6\n400 300\n255\n".utf8) + (0..<(400 * 300)).flatMap { _ in [rgb.0, rgb.1, rgb.2] })
        }
        let path = dir + "/p.ppm", other = dir + "/q.ppm"
        try ppm((200, 0, 0)).write(to: URL(fileURLWithPath: path))
        try ppm((0, 200, 0)).write(to: URL(fileURLWithPath: other))
        var info = stat()
        stat(path, &info)
        let written = info.st_mtim
        let decoder = Self.decoder(helpers: 2)
        defer { decoder.stop() }
        let part = Rect(x: 0.25, y: 0.25, width: 0.5, height: 0.5)
        func partColour() throws -> (UInt8, UInt8, UInt8) {
            let image = try decoder.decode(Self.source(path), part: part, fittingIn: Size(width: 100, height: 100))
            return (image.pixels[0], image.pixels[1], image.pixels[2])
        }
        #expect(try partColour() == (200, 0, 0))
        // Rewritten in place (same inode and size), its time put back: the helper's key.
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.write(contentsOf: ppm((0, 0, 200)))
        try handle.close()
        var times = [written, written]
        #expect(utimensat(AT_FDCWD, path, &times, 0) == 0)
        _ = try decoder.decode(Self.source(other), fittingIn: Self.box)
        #expect(try partColour() == (200, 0, 0), "the part is cut from the whole picture kept")
        times[1].tv_sec += 5
        #expect(utimensat(AT_FDCWD, path, &times, 0) == 0)
        #expect(try partColour() == (0, 0, 200), "a changed file is decoded again")
    }

    static func isRunning(_ pid: pid_t) -> Bool {
        // A zombie still has a /proc entry: only a running process counts.
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return false }
        return !stat[stat.index(close, offsetBy: 2)...].hasPrefix("Z")
    }

    /// `body`'s result, run on a thread of its own; nil if it has not returned after
    /// `seconds`, in which case the decoder is stopped so that the thread can end.
    static func withinSeconds(_ seconds: Double, stopping decoder: IsolatedDecoder,
                              _ body: @escaping @Sendable () -> String?) -> String?? {
        final class Box: @unchecked Sendable { var value: String?? }
        let box = Box(), done = DispatchSemaphore(value: 0)
        Thread { box.value = body(); done.signal() }.start()
        if done.wait(timeout: .now() + seconds) == .timedOut {
            decoder.stop()
            done.wait()
            return nil
        }
        return box.value ?? nil
    }

    @Test func aHelperAskedToOpenAPathIsRefused() throws {
        let dir = try Fixtures.temporaryFolder("probe")
        let secret = dir + "/secret.txt"
        try "not for decoders".write(toFile: secret, atomically: true, encoding: .utf8)
        #expect(FileManager.default.isReadableFile(atPath: secret), "the test itself can read it")
        let decoder = Self.decoder()
        let answer = decoder.probeOpen(secret)
        #expect(answer == "refused: " + String(cString: strerror(EPERM)), "the filter refuses it, nothing else: \(answer)")
        decoder.stop()
    }

    /// Nor reach the network: a syscall off the sandbox's allow list fails.
    @Test func aHelperCannotMakeASocket() throws {
        let decoder = Self.decoder()
        defer { decoder.stop() }
        let answer = decoder.probeOpen(HelperMessage.socketProbe)
        #expect(answer == "refused: " + String(cString: strerror(EPERM)), "the filter refuses it, nothing else: \(answer)")
    }

    @Test func helperPixelsAreThoseOfDecodingInProcess() throws {
        let decoder = Self.decoder()
        defer { decoder.stop() }
        for name in ["baseline.jpg", "alpha.png", "plain.bmp", "lossy.webp", "phone.heic", "web.avif", "camera.jxl",
                     "cmyk.jpg", "subsampled-440.jpg", "arithmetic.jpg", "deep16.ppm", "prophoto.jpg", "linear16.png"] {
            let path = ImageDamage.fixtures + "/" + name
            let isolated = try decoder.decode(Self.source(path), fittingIn: Self.box)
            let local = try FittingDecoder().decode(Self.source(path), fittingIn: Self.box)
            #expect(isolated == local, "\(name) differs through the helper")
        }
    }

    /// `--fill`'s backdrop is made in the helper, from the picture it fitted: the same as
    /// one made in-process from the same picture; none when not asked for.
    @Test func theBackdropIsMadeInTheHelper() throws {
        let decoder = Self.decoder()
        defer { decoder.stop() }
        for name in ["baseline.jpg", "phone.heic", "alpha.png"] {
            let source = Self.source(ImageDamage.fixtures + "/" + name)
            let image = try decoder.decode(source, fittingIn: Self.box, withBackdrop: true)
            #expect(image.backdrop != nil && image.backdrop == BlurredBackdrop.make(from: image), "\(name)")
            #expect(try decoder.decode(source, fittingIn: Self.box).backdrop == nil)
        }
    }

    /// prophoto.jpg and prophoto.webp are baseline.jpg converted to ProPhoto RGB with the
    /// profile embedded: through the helper they show baseline's colours again, where
    /// their raw values are far off.
    @Test func taggedPicturesShowTheirTrueColoursThroughTheHelper() throws {
        let decoder = Self.decoder()
        defer { decoder.stop() }
        func meanDifference(_ a: PixelImage, _ b: PixelImage) -> Double {
            guard a.width == b.width, a.height == b.height else { return .infinity }
            var sum = 0
            for i in 0..<a.pixels.count where i % 4 != 3 { sum += abs(Int(a.pixels[i]) - Int(b.pixels[i])) }
            return Double(sum) / Double(a.width * a.height * 3)
        }
        let baseline = try decoder.decode(Self.source(ImageDamage.fixtures + "/baseline.jpg"), fittingIn: Self.box)
        for name in ["prophoto.jpg", "prophoto.webp"] {
            let shown = try decoder.decode(Self.source(ImageDamage.fixtures + "/" + name), fittingIn: Self.box)
            let raw = try FittingDecoder(colour: ColourConverter.ignoringProfiles).decode(Self.source(ImageDamage.fixtures + "/" + name), fittingIn: Self.box)
            #expect(meanDifference(shown, baseline) < 7, "\(name): \(meanDifference(shown, baseline))")
            #expect(meanDifference(raw, baseline) > 2 * meanDifference(shown, baseline) + 8, "\(name) untransformed: \(meanDifference(raw, baseline))")
        }
    }

    /// libjxl's own fuzzing finds (oss-fuzz's minimised crash and hang cases, as Debian's
    /// libjxl-testdata ships them) and real JPEGs and deep PNGs, through the sandboxed helper
    /// as the show decodes them: each shows as it does in process or fails with a reason
    /// (within the helper's deadline), and a helper is there for the next.
    @Test func realContentAndLibjxlsCrashCasesThroughTheHelper() throws {
        let root = "/usr/share/libjxl-testdata/"
        let crashes = try FileManager.default.contentsOfDirectory(atPath: root + "oss-fuzz").sorted().map { root + "oss-fuzz/" + $0 }
        #expect(crashes.count >= 40, "kiosk/setup installs libjxl-testdata")
        let real = ["jxl/flower/flower.png.im_q85_asymmetric.jpg", "jxl/flower/flower.png.im_q85_rgb.jpg",
                    "external/raw.pixls/Nikon-D300-12bit_2020_g1_dt.png", "jxl/blending/cropped_traffic_light.jxl"].map { root + $0 }
        let decoder = Self.decoder()
        defer { decoder.stop() }
        var failed = 0
        for path in crashes + real {
            do {
                let isolated = try decoder.decode(Self.source(path), fittingIn: Self.box)
                let local = try FittingDecoder().decode(Self.source(path), fittingIn: Self.box)
                #expect(isolated == local, "\(path) differs through the helper")
            } catch {
                failed += 1
                #expect(!error.reason.isEmpty && !real.contains(path), "\(path): \(error.reason)")
            }
        }
        #expect(failed >= 13, "most of libjxl's crash cases are not pictures")
        #expect(decoder.helperProcesses.allSatisfy(Self.isRunning))
    }

    @Test func aCrashFailsItsFileOnceAndTheHelperIsReplaced() throws {
        let decoder = Self.decoder(executable: try StandInHelper.crashes.script())
        defer { decoder.stop() }
        let crasher = ImageDamage.fixtures + "/still.gif"
        let first = decoder.helperProcesses
        #expect(Self.reason(decoder, crasher) == "the decoder crashed on this file (SIGSEGV)")
        #expect(decoder.helperTally.crashed == 1)
        #expect(!first.contains(where: Self.isRunning), "the crashed helper is still there")
        #expect(decoder.helperProcesses.count == 1 && decoder.helperProcesses.allSatisfy(Self.isRunning), "no replacement")
        #expect(decoder.helperTally.started == 2)
        // Never retried in this run: no second crash, no new helper.
        #expect(Self.reason(decoder, crasher)?.contains("not tried again") == true)
        #expect(decoder.helperTally.crashed == 1 && decoder.helperTally.started == 2)
        // Another file is tried (and crashes this stand-in too).
        #expect(Self.reason(decoder, ImageDamage.fixtures + "/rgb.png") == "the decoder crashed on this file (SIGSEGV)")
    }

    @Test func aHelperInheritsNoDescriptorButItsSocket() throws {
        // A pipe opened without close-on-exec, as libdbus opens one inside SDL_Init while
        // the helpers start: a helper that kept a copy of its write end kept SDL waiting for
        // an end of file that never came, and the program never showed its window.
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        defer { close(ends[0]); close(ends[1]) }
        var info = stat()
        fstat(ends[1], &info)
        let list = try Fixtures.temporaryFolder("fds") + "/list"
        let decoder = Self.decoder(executable: try StandInHelper.listsDescriptors(into: list).script())
        defer { decoder.stop() }
        var text: String?
        for _ in 0..<200 where text == nil {
            text = try? String(contentsOfFile: list, encoding: .utf8)
            if text == nil { Thread.sleep(forTimeInterval: 0.05) }
        }
        guard let text else { Issue.record("the stand-in never listed its descriptors"); return }
        #expect(!text.contains("pipe:[\(info.st_ino)]"), "the helper inherited the program's pipe: \(text)")
        // Its socket (3) is there: the list is real.
        #expect(text.contains("socket:["), "no socket in \(text)")
    }

    /// A helper that cannot install its system-call filter is refused before it is given a
    /// file (said once, with how to allow it); with `--decoder-filter optional` it is given
    /// work, and that is said once too.
    @Test(arguments: [DecoderFilter.required, .optional])
    func aHelperWithoutItsFilterDecodesOnlyWhenAllowed(filter: DecoderFilter) throws {
        final class Said: @unchecked Sendable { let lock = NSLock(); var lines: [String] = [] }
        let said = Said()
        let decoder = IsolatedDecoder(IsolatedDecoder.Settings(executable: try StandInHelper.unfiltered.script(), timeout: 1,
                                                               memoryLimitMB: 256, filter: filter),
                                      helpers: 1, warn: { line in said.lock.withLock { said.lines.append(line) } })
        defer { decoder.stop() }
        let answers = (0..<2).map { _ in Self.withinSeconds(60, stopping: decoder) { Self.reason(decoder, ImageDamage.fixtures + "/rgb.png") } }
        let lines = said.lock.withLock { said.lines }
        switch filter {
        case .required:
            #expect(answers.allSatisfy { $0??.contains("not started without their system-call filter") == true }, "\(answers)")
            #expect(lines.count == 1 && lines[0].contains("seccomp is not available (Invalid argument)")
                    && lines[0].contains("--decoder-filter optional"), "\(lines)")
            #expect(decoder.helperProcesses.allSatisfy { !Self.isRunning($0) }, "a refused helper lives on")
        case .optional:
            // The stand-in sleeps on what it is given: the decode runs out its second.
            #expect(answers[0] == .some(.some("took longer than 1 s to decode")), "\(answers)")
            #expect(lines.filter { $0.contains("without their system-call filter") }.count == 1, "\(lines)")
        }
    }

    @Test func aDecodeThatHangsIsStoppedAtItsDeadline() throws {
        let decoder = Self.decoder(timeout: 1, executable: try StandInHelper.hangs.script())
        defer { decoder.stop() }
        let hung = decoder.helperProcesses
        // This helper never answers: a returned call is the deadline's doing. Without one
        // the call would never return; the test gives up after 60 s.
        let answer = Self.withinSeconds(60, stopping: decoder) {
            Self.reason(decoder, ImageDamage.fixtures + "/rgb.png")
        }
        #expect(answer == .some(.some("took longer than 1 s to decode")), "the deadline did not stop the decode")
        #expect(decoder.helperTally.timedOut == 1)
        #expect(!hung.contains(where: Self.isRunning), "the hung helper was not killed")
        #expect(decoder.helperProcesses.count == 1 && decoder.helperProcesses.allSatisfy(Self.isRunning), "no replacement")
    }

    @Test func aHelperThatHangsUpAndLivesOnIsKilledNotAwaited() throws {
        let decoder = Self.decoder(timeout: 600, executable: try StandInHelper.hangsUp.script())
        defer { decoder.stop() }
        let first = decoder.helperProcesses
        let answer = Self.withinSeconds(60, stopping: decoder) { Self.reason(decoder, ImageDamage.fixtures + "/rgb.png") }
        #expect(answer != nil, "waited for a helper that closed its socket but kept running")
        #expect(answer??.hasPrefix("the decoder crashed on this file") == true)
        #expect(!first.contains(where: Self.isRunning))
    }

    /// Hostile files once found to crash or hang SDL_image now reach hardened libraries
    /// (giflib, libspng): each fails with a reason, and the helper lives on.
    @Test func theFilesThatBrokeSDLImageFailCleanly() throws {
        let decoder = Self.decoder(timeout: 5)
        defer { decoder.stop() }
        let gif = Self.reason(decoder, ImageDamage.hostile + "/crashes-sdl-image-2.6.3.gif")
        let png = Self.reason(decoder, ImageDamage.hostile + "/hangs-sdl-image-2.6.3.png")
        #expect(gif?.hasPrefix("is a corrupt GIF") == true, "\(gif ?? "shown")")
        #expect(png?.hasPrefix("is truncated") == true || png?.hasPrefix("is a corrupt PNG") == true, "\(png ?? "shown")")
        #expect(decoder.helperTally.crashed == 0 && decoder.helperTally.timedOut == 0 && decoder.helperTally.started == 1)
    }

    /// Whether this test binary runs under a sanitizer, whose helpers have no memory limit.
    static var sanitized: Bool {
        let handle = dlopen(nil, RTLD_NOW)
        defer { if let handle { dlclose(handle) } }
        return dlsym(handle, "__asan_init") != nil || dlsym(handle, "__tsan_init") != nil
    }

    /// A TGA (whose header is not read before decoding) claiming 9000x9000 pixels in 3 MB of
    /// run-length packets: 324 MB once decoded. Within `--max-megapixels`, so only the
    /// memory limit stops it.
    @Test(.disabled(if: IsolatedDecodingTests.sanitized, "sanitized helpers run without an address-space limit"))
    func aDecompressionBombStopsAtTheMemoryLimit() throws {
        let dir = try Fixtures.temporaryFolder("bomb")
        var tga: [UInt8] = [0, 0, 10, 0, 0, 0, 0, 0, 0, 0, 0, 0]
        let side = 9000
        tga += [UInt8(side & 0xFF), UInt8(side >> 8), UInt8(side & 0xFF), UInt8(side >> 8), 32, 0x28]
        let packets = (side * side + 127) / 128
        tga.reserveCapacity(tga.count + packets * 5)
        for _ in 0..<packets { tga += [0xFF, 30, 90, 160, 255] }  // 128 pixels each
        let path = dir + "/bomb.tga"
        try Data(tga).write(to: URL(fileURLWithPath: path))
        let decoder = Self.decoder(memoryMB: 256)
        defer { decoder.stop() }
        let reason = Self.reason(decoder, path)
        #expect(reason?.contains("--decode-memory") == true, "the bomb gave: \(reason ?? "an image")")
        #expect(decoder.helperTally.crashed == 0, "running out of memory crashed the helper")
    }

    /// The budget counts what the helper itself maps (code and libraries, about 145 MB):
    /// a PNG claiming 5000x5000 (100 MB decoded) is refused up front under a 220 MB limit.
    /// Read after the sandbox closed /proc, the helper's own mapping was taken as 0 and the
    /// claim passed the check, to fail later as a damaged PNG.
    @Test(.disabled(if: IsolatedDecodingTests.sanitized, "sanitized helpers run without an address-space limit"))
    func theMemoryBudgetCountsTheHelpersOwnMapping() throws {
        let dir = try Fixtures.temporaryFolder("budget")
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8)
        png += [0, 0, 0x13, 0x88, 0, 0, 0x13, 0x88, 8, 6, 0, 0, 0] + [0, 0, 0, 0] + [UInt8](repeating: 0, count: 64)
        try Data(png).write(to: URL(fileURLWithPath: dir + "/claims.png"))
        let decoder = Self.decoder(memoryMB: 220)
        defer { decoder.stop() }
        let reason = Self.reason(decoder, dir + "/claims.png") ?? "an image"
        #expect(reason.hasPrefix("needs about") && reason.contains("of its 220 MB (--decode-memory)"), "\(reason)")
    }

    /// A header claiming billions of pixels is over `--max-megapixels` before it is over the
    /// memory: it gets the megapixel limit's own message from the helper, whatever the
    /// format (a PNM and a HEIF the main process does not read the size of), not "needs about
    /// 389259005434 MB".
    @Test func aHeaderOfBillionsOfPixelsGetsTheMegapixelMessage() throws {
        let dir = try Fixtures.temporaryFolder("billions")
        try Data(Array("P6 999999999 999999999 255\n".utf8) + [1, 2, 3]).write(to: URL(fileURLWithPath: dir + "/claims.ppm"))
        let decoder = Self.decoder(memoryMB: 384)
        defer { decoder.stop() }
        let reason = Self.reason(decoder, dir + "/claims.ppm") ?? "an image"
        #expect(reason == "claims 999999999x999999999 pixels, over the 100 megapixel limit", "\(reason)")
    }

    /// Helpers started in the background: the first decode waits for the one being started
    /// instead of starting another.
    @Test func aDecodeWaitsForTheHelperStartedInTheBackground() throws {
        let decoder = IsolatedDecoder(IsolatedDecoder.Settings(executable: CarouselBinary.url.path),
                                      helpers: 1, inBackground: true, warn: { _ in })
        defer { decoder.stop() }
        let image = try decoder.decode(Self.source(ImageDamage.fixtures + "/baseline.jpg"), fittingIn: Self.box)
        #expect(image.width > 0)
        decoder.waitUntilStarted()
        #expect(decoder.helperTally.started == 1, "a second helper was started while the first was starting")
        #expect(decoder.helperProcesses.count == 1)
    }

    /// The carousel opened from the wall borrows the wall's helpers: stopping its workers
    /// leaves them to the wall.
    @Test func workersThatBorrowHelpersLeaveThemRunning() throws {
        let decoder = Self.decoder()
        defer { decoder.stop() }
        let borrowed = DecodeWorkers(decoder: decoder, threads: 1, stopsDecoder: false)
        borrowed.stop()
        #expect(decoder.helperProcesses.count == 1 && decoder.helperProcesses.allSatisfy(Self.isRunning))
        #expect(Self.reason(decoder, ImageDamage.fixtures + "/baseline.jpg") == nil, "the helpers still decode")
        let owned = DecodeWorkers(decoder: decoder, threads: 1)
        owned.stop()
        #expect(decoder.helperProcesses.isEmpty, "the owner's workers stop them")
    }

    /// A clip's poster is made in a video helper, which ends once idle for
    /// `clipHelperIdleSeconds` (a clip then plays in a helper of its own, alone); the picture
    /// helpers stay. Another poster after that starts one anew.
    @Test func thePostersHelperEndsOnceIdle() throws {
        let decoder = IsolatedDecoder(IsolatedDecoder.Settings(executable: CarouselBinary.url.path), helpers: 1, warn: { _ in })
        defer { decoder.stop() }
        let pictures = Set(decoder.helperProcesses)
        let dir = try Fixtures.temporaryFolder("poster-idle")
        let clip = try ClipFixtures.make(.h264MP4, seconds: [0, 1], in: dir, name: "clip")
        #expect(try decoder.decode(Self.source(clip), fittingIn: Self.box).width > 0)
        let posters = Set(decoder.helperProcesses).subtracting(pictures)
        #expect(posters.count == 1 && posters.allSatisfy(Self.isRunning), "a video helper made the poster")
        Thread.sleep(forTimeInterval: IsolatedDecoder.clipHelperIdleSeconds * 0.5)
        #expect(posters.allSatisfy(Self.isRunning), "not before it has been idle its time")
        for _ in 0..<60 where posters.contains(where: Self.isRunning) { Thread.sleep(forTimeInterval: 0.1) }
        #expect(!posters.contains(where: Self.isRunning), "ended once idle")
        #expect(Set(decoder.helperProcesses) == pictures, "the picture helpers stay")
        #expect(try decoder.decode(Self.source(clip), fittingIn: Self.box).width > 0, "a poster after it starts one anew")
    }

    @Test func stoppingLeavesNoHelperRunning() throws {
        let decoder = Self.decoder(helpers: 3)
        let pids = decoder.helperProcesses
        #expect(pids.count == 3 && pids.allSatisfy(Self.isRunning))
        decoder.stop()
        #expect(!pids.contains(where: Self.isRunning))
        #expect(decoder.helperProcesses.isEmpty)
    }

    @Test func aHelperThatCannotStartFailsEachFileAndIsSaidOnce() {
        final class Lines: @unchecked Sendable { let lock = NSLock(); var all: [String] = [] }
        let lines = Lines()
        let decoder = IsolatedDecoder(IsolatedDecoder.Settings(executable: "/nonexistent/carousel"), helpers: 2,
                                      warn: { line in lines.lock.withLock { lines.all.append(line) } })
        defer { decoder.stop() }
        for name in ["baseline.jpg", "rgb.png", "lossy.webp"] {
            let reason = Self.reason(decoder, ImageDamage.fixtures + "/" + name)
            #expect(reason?.hasPrefix("cannot be decoded: no decoder helper could be started") == true, "\(reason ?? "shown")")
        }
        #expect(lines.lock.withLock { lines.all.count } == 1, "\(lines.all)")
    }
}
