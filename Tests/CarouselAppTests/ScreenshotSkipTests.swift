import CarouselCore
@testable import CarouselMedia
import Foundation
import Testing
import TestSupport

/// `--skip screenshots` (issue 63): each rule told from files made for it as phones,
/// desktops and ExifTool write them; camera pictures kept; the running show leaves them
/// out, says each once and counts them in /status.
@Suite struct ScreenshotSkipTests {
    /// Files for each rule, and camera pictures that must stay, in `dir`: name → (is a screenshot).
    static func fixtures(in dir: String) throws -> [String: Bool] {
        func png(_ name: String, _ w: Int, _ h: Int, _ exif: [String] = []) throws {
            try PNGCodec.write(PixelImage(width: w, height: h, fill: (200, 210, 220, 255)), to: dir + "/" + name)
            if !exif.isEmpty { try OutsideProgram.exiftool.run(["-q", "-q", "-overwrite_original"] + exif + [dir + "/" + name]) }
        }
        func jpeg(_ name: String, _ w: Int, _ h: Int, _ exif: [String] = []) throws {
            let path = dir + "/" + name
            try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try Data(TurboJPEGCodec.encode(PixelImage(width: w, height: h, fill: (90, 120, 60, 255)), quality: 80)).write(to: URL(fileURLWithPath: path))
            if !exif.isEmpty { try OutsideProgram.exiftool.run(["-q", "-q", "-overwrite_original"] + exif + [path]) }
        }
        try png("IMG_0101.PNG", 600, 400, ["-UserComment=Screenshot"])            // 1: iOS's EXIF comment
        try png("IMG_0102.PNG", 600, 400, ["-XMP-exif:UserComment=Screenshot"])   // 1: macOS's XMP comment
        try jpeg("Screenshot_20240101-101010_Chrome.jpg", 720, 1600)              // 2: Android's name (a JPEG: rule 4 does not apply)
        try jpeg("Screenshot 2024-03-02 at 10.11.12.jpg", 800, 500)               // 2: macOS's and Windows' name
        try jpeg("Screenshots/IMG_20240101.jpg", 800, 500)                        // 2: in a Screenshots folder
        try png("export.png", 500, 300, ["-Software=Spectacle 23.08"])            // 3: KDE's grabber
        try png("IMG_0103.PNG", 1170, 2532)                                       // 4: an iPhone's screen, no camera
        try png("IMG_0104.PNG", 1170, 2532, ["-Make=Apple", "-Model=iPhone 13"])  // a camera's PNG at that size: kept
        try jpeg("IMG_0105.JPG", 1170, 2532)                                      // a JPEG at that size: kept
        try jpeg("DSC_0001.JPG", 600, 400, ["-Make=NIKON CORPORATION", "-Software=Ver.1.10", "-UserComment=Holiday"])
        try png("drawing.png", 640, 480)                                          // a PNG at no phone's size: kept
        return ["IMG_0101.PNG": true, "IMG_0102.PNG": true, "Screenshot_20240101-101010_Chrome.jpg": true,
                "Screenshot 2024-03-02 at 10.11.12.jpg": true, "Screenshots/IMG_20240101.jpg": true, "export.png": true,
                "IMG_0103.PNG": true, "IMG_0104.PNG": false, "IMG_0105.JPG": false, "DSC_0001.JPG": false, "drawing.png": false]
    }

    @Test func eachRuleTellsItsScreenshotsAndCamerasPicturesStay() throws {
        let dir = try Fixtures.temporaryFolder("screenshots")
        for (name, expected) in try Self.fixtures(in: dir) {
            let reason = ScreenshotRule.facts(of: dir + "/" + name).flatMap(ScreenshotRule.reason)
            #expect((reason != nil) == expected, "\(name): \(reason ?? "not a screenshot")")
        }
    }

    /// Damaged metadata never crashes the rule and never reads past the head.
    @Test func damagedHeadsAreReadSafely() throws {
        let dir = try Fixtures.temporaryFolder("screenshots-damaged")
        _ = try Self.fixtures(in: dir)
        var rng = SystemRandomNumberGenerator()
        for name in ["IMG_0101.PNG", "DSC_0001.JPG", "IMG_0102.PNG"] {
            let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: dir + "/" + name))).prefix(4096)
            for _ in 0..<2000 {
                var damaged = Array(bytes)
                for _ in 0..<3 { damaged[Int.random(in: 0..<damaged.count, using: &rng)] = UInt8.random(in: 0...255, using: &rng) }
                _ = ScreenshotRule.reason(ScreenshotRule.facts(name: name, folder: "x", head: damaged, exifItem: damaged))
                _ = ScreenshotRule.reason(ScreenshotRule.facts(name: name, folder: "x", head: Array(damaged.prefix(Int.random(in: 0...damaged.count, using: &rng))), exifItem: nil))
            }
        }
    }

    /// The show leaves them out: /status counts the pictures shown and those left out, and
    /// the log names each left out once, with why.
    @Test func theShowLeavesThemOutSaysEachOnceAndCountsThem() throws {
        let dir = try Fixtures.temporaryFolder("screenshots-show")
        let expected = try Self.fixtures(in: dir)
        let screenshots = expected.filter { $0.value }.count, kept = expected.count - screenshots
        let control = try ControlAPITests.Kiosk([dir, "--recursive", "--skip", "screenshots", "--size", "320x180"])
        defer { control.stop() }
        let app = control.app
        let status = control.status(within: 20) { $0["count"] as? Int == kept }
        #expect(status?["count"] as? Int == kept, "\(String(describing: status))")
        #expect(status?["pictures_skipped"] as? Int == screenshots, "\(String(describing: status))")
        for (name, isShot) in expected where isShot {
            #expect(app.log.components(separatedBy: "/" + name + ": left out (--skip screenshots)").count == 2, "\(name) said once:\n\(app.log)")
        }
        #expect(!app.log.contains("DSC_0001.JPG: left out"))
    }

    @Test func aKindItCannotTellIsRefusedByName() throws {
        for (value, said) in [("bursts", "bursts cannot be left out yet"), ("selfies", "'selfies' is not a kind of picture")] {
            let run = try CarouselBinary.run(["--skip", value, "/nonexistent"])
            #expect(run.status != 0 && run.stderr.contains(said), "\(run.stderr)")
        }
    }
}
