@testable import CarouselApp
import CarouselCore
import CarouselMedia
import Foundation
import Testing
import TestSupport

/// `--prefer recent:W` on a folder (issue 60): a picture is as recent as its file says it
/// was taken (EXIF), not as its copy onto the frame is: a family copies ten years of photos
/// onto the card today, and only last month's are recent.
@Suite struct FairPreferenceDateTests {
    @Test func aPictureIsAsRecentAsItWasTakenNotAsItWasCopied() throws {
        let dir = try Fixtures.temporaryFolder("prefer-dates")
        let month = Date().addingTimeInterval(-30 * 86_400)
        let f = DateFormatter()
        f.dateFormat = "yyyy:MM:dd HH:mm:ss"
        f.locale = Locale(identifier: "en_US_POSIX")
        for (name, taken) in [("old.jpg", "2015:06:01 10:00:00"), ("last-month.jpg", f.string(from: month)), ("undated.jpg", nil)] {
            try OutsideProgram.convert.run(["-size", "64x48", "xc:teal", dir + "/" + name])
            if let taken { try OutsideProgram.exiftool.run(["-q", "-overwrite_original", "-DateTimeOriginal=" + taken, dir + "/" + name]) }
        }
        // Every file was written just now: its modification day is today.
        let sources = ["old.jpg", "last-month.jpg", "undated.jpg"].map { ImageSource(path: dir + "/" + $0, stamp: FileStamp.of(dir + "/" + $0)) }
        let round = FairRoundFile(path: dir + "/round")
        round.prefer = try FairPreference(parsing: "recent:10")
        let weight = try #require(round.weight(of: sources))
        #expect(weight(sources[0].path) == 1, "taken in 2015, copied today: not recent")
        #expect(weight(sources[1].path) == 10, "taken last month")
        #expect(weight(sources[2].path) == 10, "no date in the file: its modification day (today)")
    }
}
