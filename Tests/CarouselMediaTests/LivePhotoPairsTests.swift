import CarouselCore
@testable import CarouselMedia
import Foundation
import Testing
import TestSupport
@testable import CarouselSources

/// A Live Photo's still and its `.MOV` in one folder are one item: the still, with the clip
/// as its motion; a MOV on its own stays a clip.
@Suite struct LivePhotoPairsTests {
    @Test func aStillAndItsMotionPairByName() {
        let pairs = LivePhotoPairs.pairs(["IMG_0001.HEIC", "IMG_0001.MOV", "IMG_0002.JPG", "IMG_0002.mov", "IMG_0003.MOV",
                                          "IMG_0004.HEIC", "img_0005.heic", "IMG_0005.MOV", "clip.mp4", "IMG_0006.mp4",
                                          "IMG_0006.JPG", ".MOV"])
        #expect(pairs == ["IMG_0001.HEIC": "IMG_0001.MOV", "IMG_0002.JPG": "IMG_0002.mov"])
    }

    /// An MP4 pairs only where the still was seen to be a Live Photo's (asked of `together`):
    /// a phone's IMG_0006.JPG and IMG_0006.mp4 stay two items unless so.
    @Test func anMP4PairsOnlyWithAStillShownToBeALivePhotos() {
        let names = ["IMG_0006.JPG", "IMG_0006.mp4", "IMG_0007.HEIC", "IMG_0007.MP4", "IMG_0008.JPG", "IMG_0008.MP4", "IMG_0008.MOV"]
        #expect(LivePhotoPairs.pairs(names) == ["IMG_0008.JPG": "IMG_0008.MOV"])
        let shown = LivePhotoPairs.pairs(names) { still, _ in still != "IMG_0006.JPG" }
        #expect(shown == ["IMG_0007.HEIC": "IMG_0007.MP4", "IMG_0008.JPG": "IMG_0008.MOV"], "a MOV before an MP4 of its name")
    }

    @Test func twoStillsOfOneNamePairTheFirstWhateverTheListingOrder() {
        let a = LivePhotoPairs.pairs(["IMG_7.MOV", "IMG_7.JPG", "IMG_7.HEIC"])
        let b = LivePhotoPairs.pairs(["IMG_7.HEIC", "IMG_7.JPG", "IMG_7.MOV"])
        #expect(a == b && a == ["IMG_7.HEIC": "IMG_7.MOV"])
    }

    @Test func aFolderListsTheStillWithItsMotionAndNotTheMotion() throws {
        let dir = try MediaFixtures.folder("live")
        for n in ["IMG_0001.HEIC", "IMG_0001.MOV", "IMG_0002.JPG", "IMG_0003.MOV"] {
            try Data([0]).write(to: URL(fileURLWithPath: dir + "/" + n))
        }
        let found = try SourceScanner().scan([dir])
        #expect(found.map(\.path) == ["IMG_0001.HEIC", "IMG_0002.JPG", "IMG_0003.MOV"].map { dir + "/" + $0 })
        #expect(found.map(\.motion) == [dir + "/IMG_0001.MOV", nil, nil])
    }
}

/// Two phones both number from IMG_0001: a still and a clip of one name are one Live Photo
/// unless both carry Apple's content identifier and they differ. The identifier as an
/// iPhone writes it: in a JPEG's maker note, in a HEIC's Exif item (heif-enc carries the
/// JPEG's Exif over), in a clip's QuickTime metadata (ffmpeg's mdta keys).
@Suite struct LivePhotoIdentityTests {
    static let jpeg = TurboJPEGCodec.encode(PixelImage(width: 32, height: 24, fill: (200, 40, 40, 255)))

    static func folder() throws -> (String, [String: String]) {
        let dir = try MediaFixtures.folder("live-id")
        func still(_ name: String, _ id: String?) throws {
            let bytes = id.map { MediaFixtures.withAppleIdentifier(Self.jpeg, $0) } ?? Self.jpeg
            if name.hasSuffix(".HEIC") {
                try Data(bytes).write(to: URL(fileURLWithPath: dir + "/in.jpg"))
                try ReferenceEncoders.run(.heifEnc, ["-o", dir + "/" + name, dir + "/in.jpg"])
                try FileManager.default.removeItem(atPath: dir + "/in.jpg")
            } else {
                try Data(bytes).write(to: URL(fileURLWithPath: dir + "/" + name))
            }
        }
        // Mum's and Dad's IMG_0001: other identifiers. IMG_0002 one Live Photo (HEIC).
        // IMG_0003: the still without an identifier (edited, exported): paired by name.
        try still("IMG_0001.JPG", "4A1F-MUM")
        _ = try ClipFixtures.liveMotion(identifier: "77C2-DAD", in: dir, name: "IMG_0001.MOV")
        try still("IMG_0002.HEIC", "9B0E-SAME")
        _ = try ClipFixtures.liveMotion(identifier: "9B0E-SAME", in: dir, name: "IMG_0002.MOV")
        try still("IMG_0003.JPG", nil)
        _ = try ClipFixtures.liveMotion(identifier: "D00D-ONLY", in: dir, name: "IMG_0003.MOV")
        return (dir, ["IMG_0001.JPG": "4A1F-MUM", "IMG_0001.MOV": "77C2-DAD", "IMG_0002.HEIC": "9B0E-SAME", "IMG_0002.MOV": "9B0E-SAME",
                      "IMG_0003.MOV": "D00D-ONLY"])
    }

    @Test func theIdentifierIsReadFromEachKindOfFile() throws {
        let (dir, ids) = try Self.folder()
        for (name, id) in ids {
            let read = name.hasSuffix(".MOV") ? LivePhotoIdentity.identifier(ofMotion: dir + "/" + name)
                : LivePhotoIdentity.identifier(ofStill: dir + "/" + name)
            #expect(read == id, "\(name)")
        }
        #expect(LivePhotoIdentity.identifier(ofStill: dir + "/IMG_0003.JPG") == nil)
    }

    /// Google Takeout's Live Photo: the still and an `.MP4` carrying the same identifier are
    /// one; an MP4 beside a still without an identifier (an Android phone's photo and clip
    /// of one name) or with another stays a clip of its own.
    @Test func aTakeoutMP4PairsByItsIdentifier() throws {
        let dir = try MediaFixtures.folder("takeout")
        try Data(MediaFixtures.withAppleIdentifier(Self.jpeg, "C0DE-TAKEOUT")).write(to: URL(fileURLWithPath: dir + "/IMG_0010.JPG"))
        _ = try ClipFixtures.liveMotion(identifier: "C0DE-TAKEOUT", in: dir, name: "IMG_0010.MP4")
        try Data(Self.jpeg).write(to: URL(fileURLWithPath: dir + "/IMG_0011.jpg"))
        _ = try ClipFixtures.liveMotion(identifier: nil, in: dir, name: "IMG_0011.mp4")
        try Data(MediaFixtures.withAppleIdentifier(Self.jpeg, "AAAA-ONE")).write(to: URL(fileURLWithPath: dir + "/IMG_0012.JPG"))
        _ = try ClipFixtures.liveMotion(identifier: "BBBB-OTHER", in: dir, name: "IMG_0012.MP4")
        #expect(LivePhotoIdentity.identifier(ofMotion: dir + "/IMG_0010.MP4") == "C0DE-TAKEOUT")
        let found = try SourceScanner().scan([dir])
        #expect(found.map { ($0.path as NSString).lastPathComponent }
                == ["IMG_0010.JPG", "IMG_0011.jpg", "IMG_0011.mp4", "IMG_0012.JPG", "IMG_0012.MP4"])
        #expect(found.first?.motion == dir + "/IMG_0010.MP4")
        #expect(found.dropFirst().allSatisfy { $0.motion == nil })
    }

    /// A renamed export (`IMG_0020 (1).MOV`, `Live.MP4`) pairs with the one still of its
    /// content identifier; two motions of one identifier, or a motion without one, pair with
    /// nothing by it; and a folder whose clips carry no identifier is never looked into for
    /// its stills'.
    @Test func aRenamedExportPairsByItsIdentifierAlone() throws {
        var looked: [String] = []
        let found = LivePhotoPairs.byIdentifier(
            stills: ["IMG_0020.JPG", "Trip.jpg", "Lone.HEIC", "notes.txt"],
            motions: ["IMG_0020 (1).MOV", "a.MOV", "b.mov", "Live.MP4", "clip.mov", "IMG_0020.JPG"],
            stillID: { looked.append($0); return ["IMG_0020.JPG": "RENAMED-1", "Trip.jpg": "TWIN", "Lone.HEIC": "ALONE"][$0] },
            motionID: { ["IMG_0020 (1).MOV": "RENAMED-1", "a.MOV": "TWIN", "b.mov": "TWIN", "Live.MP4": "ALONE"][$0] })
        #expect(found == ["IMG_0020.JPG": "IMG_0020 (1).MOV", "Lone.HEIC": "Live.MP4"])
        #expect(Set(looked) == ["IMG_0020.JPG", "Trip.jpg", "Lone.HEIC"], "only stills and motions by their extension: \(looked)")
        looked = []
        let none = LivePhotoPairs.byIdentifier(stills: ["IMG_1.JPG", "IMG_2.JPG"], motions: ["VID_1.mp4", "VID_2.mp4"],
                                               stillID: { looked.append($0); return "X" }, motionID: { _ in nil })
        #expect(none.isEmpty && looked.isEmpty, "stills looked into: \(looked)")

        let dir = try MediaFixtures.folder("renamed")
        try Data(MediaFixtures.withAppleIdentifier(Self.jpeg, "RENAMED-1")).write(to: URL(fileURLWithPath: dir + "/IMG_0020.JPG"))
        _ = try ClipFixtures.liveMotion(identifier: "RENAMED-1", in: dir, name: "IMG_0020 (1).MOV")
        try Data(MediaFixtures.withAppleIdentifier(Self.jpeg, "TWIN")).write(to: URL(fileURLWithPath: dir + "/Trip.jpg"))
        _ = try ClipFixtures.liveMotion(identifier: "TWIN", in: dir, name: "a.MOV")
        _ = try ClipFixtures.liveMotion(identifier: "TWIN", in: dir, name: "b.MOV")
        _ = try ClipFixtures.liveMotion(identifier: nil, in: dir, name: "VID_1.mp4")
        let scanned = try SourceScanner().scan([dir])
        #expect(scanned.map { ($0.path as NSString).lastPathComponent } == ["a.MOV", "b.MOV", "IMG_0020.JPG", "Trip.jpg", "VID_1.mp4"])
        #expect(scanned.map { $0.motion.map { ($0 as NSString).lastPathComponent } } == [nil, nil, "IMG_0020 (1).MOV", nil, nil])
    }

    @Test func differentIdentifiersAreTwoItemsAndTheSameOrOneAloneIsOne() throws {
        let (dir, _) = try Self.folder()
        let found = try SourceScanner().scan([dir])
        let names = found.map { ($0.path as NSString).lastPathComponent }
        #expect(names == ["IMG_0001.JPG", "IMG_0001.MOV", "IMG_0002.HEIC", "IMG_0003.JPG"], "\(names)")
        #expect(found.map { $0.motion.map { ($0 as NSString).lastPathComponent } } == [nil, nil, "IMG_0002.MOV", "IMG_0003.MOV"])
    }

    /// An iPhone writes QuickTime's `meta` (no version and flags) straight into `moov`;
    /// ffmpeg writes a full box into `moov/udta`: both are read.
    @Test func anIPhonesMetaInMoovIsReadToo() {
        func u32(_ v: Int) -> [UInt8] { [UInt8(v >> 24 & 255), UInt8(v >> 16 & 255), UInt8(v >> 8 & 255), UInt8(v & 255)] }
        func atom(_ type: String, _ body: [UInt8]) -> [UInt8] { u32(body.count + 8) + Array(type.utf8) + body }
        let key = Array("com.apple.quicktime.content.identifier".utf8)
        let keys = atom("keys", u32(0) + u32(2) + u32(8 + 4) + Array("mdtaabcd".utf8) + u32(8 + key.count) + Array("mdta".utf8) + key)
        let ilst = atom("ilst", atom("\u{0}\u{0}\u{0}\u{2}", atom("data", u32(1) + u32(0) + Array("E1F0-IPHONE".utf8))))
        let hdlr = atom("hdlr", u32(0) + u32(0) + Array("mdta".utf8) + [UInt8](repeating: 0, count: 12))
        let moov = atom("mvhd", [UInt8](repeating: 0, count: 100)) + atom("meta", hdlr + keys + ilst)
        #expect(LivePhotoIdentity.motion(moov: moov) == "E1F0-IPHONE")
        // The same as a full box inside udta.
        #expect(LivePhotoIdentity.motion(moov: atom("udta", atom("meta", u32(0) + hdlr + keys + ilst))) == "E1F0-IPHONE")
        // Another key's value is not taken for it.
        let other = atom("ilst", atom("\u{0}\u{0}\u{0}\u{1}", atom("data", u32(1) + u32(0) + Array("NOT-IT".utf8))))
        #expect(LivePhotoIdentity.motion(moov: atom("meta", hdlr + keys + other)) == nil)
    }

    /// Every cut of each file gives its identifier or none, never a trap (the fuzz target
    /// live-photo-identity goes further).
    @Test func cutAndDamagedFilesGiveNoneOrTheirOwn() throws {
        let (dir, ids) = try Self.folder()
        let jpeg = try [UInt8](Data(contentsOf: URL(fileURLWithPath: dir + "/IMG_0001.JPG")))
        let heic = try [UInt8](Data(contentsOf: URL(fileURLWithPath: dir + "/IMG_0002.HEIC")))
        for n in 0..<jpeg.count {
            let id = LivePhotoIdentity.still(jpeg: Array(jpeg.prefix(n)))
            #expect(id == nil || id == ids["IMG_0001.JPG"])
        }
        for n in 0..<heic.count {
            _ = LivePhotoIdentity.exifItem(heif: Array(heic.prefix(n)))
        }
        var random = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            var bytes = heic
            for _ in 0..<4 { bytes[Int.random(in: 0..<bytes.count, using: &random)] = UInt8.random(in: 0...255, using: &random) }
            if let place = LivePhotoIdentity.exifItem(heif: bytes), place.offset >= 0, place.length > 0, place.offset + place.length <= bytes.count {
                _ = LivePhotoIdentity.still(exifItem: Array(bytes[place.offset..<(place.offset + place.length)]))
            }
        }
    }
}
