import CarouselCore
@testable import CarouselMedia
import Foundation
import Testing
import TestSupport

/// A JPEG that ends early (a copy cut off, a download stopped) shows what arrived under
/// `--broken show`, as djpeg and browsers do: a baseline file its rows down to where the
/// data ended, the rest transparent, said once in a note; a progressive one the whole
/// picture as coarse as its scans so far. Without it (`--broken skip`) it fails, as one cut
/// before its first row always does.
@Suite struct TruncatedJPEGTests {
    static let box = Size(width: 320, height: 240)
    static let partial: FittingDecoder = { var d = FittingDecoder(); d.showsPartial = true; return d }()

    /// The alpha of each row's middle pixel.
    static func alphas(_ image: PixelImage) -> [UInt8] {
        (0..<image.height).map { image.pixels[(($0 * image.width) + image.width / 2) * 4 + 3] }
    }

    @Test func aBaselineFileShowsTheRowsThatArrivedAndSaysHowMuch() throws {
        let whole = TurboJPEGCodec.encode(MediaFixtures.noisy(320, 240))
        let cut = Array(whole.prefix(whole.count * 6 / 10))
        let image = try Self.partial.decode(cut, name: "cut.jpg", fittingIn: Self.box)
        #expect(image.width == 320 && image.height == 240 && !image.isOpaque)
        let alphas = Self.alphas(image)
        let firstGone = try #require(alphas.firstIndex(of: 0), "rows after the cut are transparent")
        #expect(alphas[..<max(0, firstGone - 16)].allSatisfy { $0 == 255 }, "the rows that arrived are whole")
        #expect(alphas[firstGone...].allSatisfy { $0 == 0 }, "nothing of libjpeg's filling shows")
        #expect((90...190).contains(firstGone), "about 60 % of the bytes: row \(firstGone) of 240")
        let note = try #require(image.note)
        #expect(note.hasPrefix("is truncated (the JPEG data ends early): the top "), "\(note)")
        let percent = Int(note.split(separator: " ").dropLast(2).last ?? "") ?? -1
        #expect(abs(percent - firstGone * 100 / 240) <= 8, "\(note), row \(firstGone)")
        // Without --broken show, as before.
        #expect(throws: ImageError.self) { try FittingDecoder().decode(cut, name: "cut.jpg", fittingIn: Self.box) }
        do { _ = try FittingDecoder().decode(cut, name: "cut.jpg", fittingIn: Self.box) } catch {
            #expect(error.reason == "is truncated (the JPEG data ends early)")
        }
    }

    @Test func aProgressiveFileShowsWholeAsCoarseAsItCame() throws {
        let whole = try ReferenceEncoders.cjpeg(MediaFixtures.noisy(320, 240), ["-progressive"])
        let cut = Array(whole.prefix(whole.count * 7 / 10))
        let image = try Self.partial.decode(cut, name: "cut.jpg", fittingIn: Self.box)
        #expect(image.isOpaque && Self.alphas(image).allSatisfy { $0 == 255 })
        #expect(image.note == "is truncated (the JPEG data ends early): shown as far as it came")
    }

    @Test func aFileCutBeforeItsFirstRowStillFails() {
        let whole = TurboJPEGCodec.encode(MediaFixtures.noisy(320, 240))
        for n in [20, 300, 700] {
            do {
                _ = try Self.partial.decode(Array(whole.prefix(n)), name: "cut.jpg", fittingIn: Self.box)
                Issue.record("\(n) bytes showed")
            } catch {
                #expect(error.reason.hasPrefix("is truncated") || error.reason.hasPrefix("is not a readable JPEG"), "\(n): \(error.reason)")
            }
        }
        // Every cut either fails or shows opaque rows over transparent ones: nothing traps.
        for n in stride(from: 0, to: whole.count, by: max(1, whole.count / 97)) {
            _ = try? Self.partial.decode(Array(whole.prefix(n)), name: "cut.jpg", fittingIn: Self.box)
        }
    }
}
