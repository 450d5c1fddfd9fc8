import CarouselCore
@testable import CarouselMedia
import Foundation
import Testing
import TestSupport

/// Where a Motion Photo's clip lies in its JPEG: each form phones write, and files that
/// lie about it (a length past the file, a clip that is not an MP4, a cut-off file).
@Suite struct MotionPhotoTests {
    static let still = TurboJPEGCodec.encode(PixelImage(width: 64, height: 48, fill: (250, 250, 250, 255)))

    static func clip() throws -> [UInt8] {
        let dir = try MediaFixtures.folder("motion-clip")
        return [UInt8](try Data(contentsOf: URL(fileURLWithPath: try ClipFixtures.make(.h264MP4, seconds: [0], width: 64, height: 48,
                                                                                          rate: 5, in: dir))))
    }

    static func locate(_ bytes: [UInt8]) -> ByteRange? {
        MotionPhoto.locate(size: bytes.count) { offset, count in
            guard offset >= 0, count >= 0, offset <= bytes.count else { return nil }
            return Array(bytes[offset..<min(bytes.count, offset + count)])
        }
    }

    @Test(arguments: ClipFixtures.MotionForm.allCases)
    func theClipIsFoundInEachForm(form: ClipFixtures.MotionForm) throws {
        let clip = try Self.clip()
        let file = ClipFixtures.motionPhoto(still: Self.still, clip: clip, form: form)
        let range = try #require(Self.locate(file), "\(form)")
        #expect(Array(file[range.start..<(range.start + clip.count)]) == clip, "\(form): the clip's own bytes")
        if form != .samsung { #expect(range.end == file.count && range.length == clip.count) }
    }

    @Test func aPlainJPEGHasNone() {
        #expect(Self.locate(Self.still) == nil)
        #expect(Self.locate(Array(Self.still.prefix(10))) == nil)
        #expect(Self.locate([]) == nil)
    }

    @Test func aFileThatLiesAboutItsClipHasNone() throws {
        let clip = try Self.clip()
        let good = ClipFixtures.motionPhoto(still: Self.still, clip: clip, form: .container)
        let text = String(decoding: good, as: UTF8.self)
        #expect(text.contains("Item:Length=\"\(clip.count)\""))
        func with(_ from: String, _ to: String, form: ClipFixtures.MotionForm = .container) -> [UInt8] {
            let file = ClipFixtures.motionPhoto(still: Self.still, clip: clip, form: form)
            let bytes = Array(from.utf8), replacement = Array(to.utf8)
            guard let at = (0..<(file.count - bytes.count)).first(where: { file[$0..<($0 + bytes.count)].elementsEqual(bytes) }) else {
                return file
            }
            return Array(file[..<at]) + replacement + Array(file[(at + bytes.count)...])
        }
        // A length past the file, of the whole file, of nothing, not a number, negative.
        for length in ["99999999", "\(good.count)", "0", "x12", "-5", ""] {
            let bad = with("Item:Length=\"\(clip.count)\"", "Item:Length=\"\(length)\"")
            #expect(Self.locate(bad) == nil, "Length \(length)")
        }
        // A length that lands in the middle of the clip: no ftyp there.
        #expect(Self.locate(with("Item:Length=\"\(clip.count)\"", "Item:Length=\"\(clip.count - 7)\"")) == nil)
        // Not marked as a Motion Photo.
        #expect(Self.locate(with("GCamera:MotionPhoto=\"1\"", "GCamera:MotionPhoto=\"0\"")) == nil)
        // MicroVideo's offset past the file.
        #expect(Self.locate(with("GCamera:MicroVideoOffset=\"\(clip.count)\"", "GCamera:MicroVideoOffset=\"4000000000\"",
                                 form: .microVideo)) == nil)
        // The clip cut short: its ftyp box is still there, the range is still inside the file.
        let cut = Array(good.prefix(good.count - clip.count / 2))
        #expect(Self.locate(cut).map { $0.end <= cut.count } ?? true)
        // Samsung's marker with no MP4 after it.
        let samsung = ClipFixtures.motionPhoto(still: Self.still, clip: Array(repeating: 7, count: 200), form: .samsung)
        #expect(Self.locate(samsung) == nil)
    }

    /// A HEIC Motion Photo (Samsung's and Google's phones): the MP4 in a top-level `mpvd`
    /// box after the picture's, with a 32- or a 64-bit size; one whose box runs past the file,
    /// holds no MP4, or is cut short has none, and neither has a plain HEIC.
    @Test func aHEICsClipIsFoundInItsBox() throws {
        let dir = try MediaFixtures.folder("motion-heic")
        try Data(Self.still).write(to: URL(fileURLWithPath: dir + "/in.jpg"))
        try ReferenceEncoders.run(.heifEnc, ["-o", dir + "/still.heic", dir + "/in.jpg"])
        let heic = [UInt8](try Data(contentsOf: URL(fileURLWithPath: dir + "/still.heic")))
        let clip = try Self.clip()
        func be(_ v: Int, _ bytes: Int) -> [UInt8] { (0..<bytes).map { UInt8(truncatingIfNeeded: v >> (8 * (bytes - 1 - $0))) } }
        let short = heic + be(8 + clip.count, 4) + Array("mpvd".utf8) + clip
        let long = heic + be(1, 4) + Array("mpvd".utf8) + be(16 + clip.count, 8) + clip
        for (name, file, header) in [("32-bit", short, 8), ("64-bit", long, 16)] {
            let range = try #require(Self.locate(file), "\(name)")
            #expect(range.start == heic.count + header && range.length == clip.count, "\(name): \(range)")
        }
        #expect(Self.locate(heic) == nil, "a plain HEIC")
        #expect(Self.locate(heic + be(8 + clip.count + 1, 4) + Array("mpvd".utf8) + clip) == nil, "a box past the file")
        #expect(Self.locate(heic + be(8 + 200, 4) + Array("mpvd".utf8) + Array(repeating: 7, count: 200)) == nil, "no MP4 in it")
        #expect(Self.locate(heic + be(4, 4) + Array("mpvd".utf8) + clip) == nil, "a size smaller than its header")
        #expect(Self.locate(Array(short.prefix(heic.count + 20))) == nil, "cut short")
        // The helper finds it as it decodes the picture.
        try Data(short).write(to: URL(fileURLWithPath: dir + "/mp.heic"))
        let fd = open(dir + "/mp.heic", O_RDONLY)
        defer { close(fd) }
        #expect(MotionPhoto.locate(file: fd)?.length == clip.count)
        // An MP4 appended bare (no `mpvd`) is no HEIC libheif reads: a broken picture, its
        // reason one line (libheif's message ends in a newline).
        do throws(ImageError) {
            _ = try HEIFCodec.decode(heic + clip, fittingIn: Size(width: 64, height: 64), path: "bare.heic") { _, _ throws(ImageError) in }
            Issue.record("decoded")
        } catch {
            #expect(error.reason.contains("not supported") && !error.reason.contains("\n"), "\(error.reason)")
        }
    }

    @Test func theHelperFindsItBesideThePicture() throws {
        let dir = try MediaFixtures.folder("motion-helper")
        let path = dir + "/m.jpg"
        try Data(ClipFixtures.motionPhoto(still: Self.still, clip: try Self.clip(), form: .microVideo)).write(to: URL(fileURLWithPath: path))
        let fd = open(path, O_RDONLY)
        defer { close(fd) }
        #expect(MotionPhoto.locate(file: fd) != nil)
        // A descriptor that is no file is no Motion Photo.
        #expect(MotionPhoto.locate(file: -1) == nil)
    }
}
