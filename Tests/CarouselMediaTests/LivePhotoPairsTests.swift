import CarouselCore
@testable import CarouselMedia
import Foundation
import Testing

/// A Live Photo's still and its `.MOV` in one folder are one item: the still, with the clip
/// as its motion; a MOV on its own stays a clip.
@Suite struct LivePhotoPairsTests {
    @Test func aStillAndItsMotionPairByName() {
        let pairs = LivePhotoPairs.pairs(["IMG_0001.HEIC", "IMG_0001.MOV", "IMG_0002.JPG", "IMG_0002.mov", "IMG_0003.MOV",
                                          "IMG_0004.HEIC", "img_0005.heic", "IMG_0005.MOV", "clip.mp4", "IMG_0006.mp4",
                                          "IMG_0006.JPG", ".MOV"])
        #expect(pairs == ["IMG_0001.HEIC": "IMG_0001.MOV", "IMG_0002.JPG": "IMG_0002.mov"])
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
