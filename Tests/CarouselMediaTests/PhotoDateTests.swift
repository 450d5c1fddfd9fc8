@testable import CarouselMedia
import Foundation
import Testing
import TestSupport

/// When a picture or clip was taken, as its file says: EXIF's DateTimeOriginal and its offset
/// in every format that carries EXIF, a phone's QuickTime creation date, a clip's `mvhd`;
/// the fallbacks; and never a date from nothing.
@Suite struct PhotoDateTests {
    static let taken = PhotoDate(year: 2024, month: 7, day: 14, hour: 21, minute: 30, second: 5, offsetMinutes: 120)!

    /// A red picture written by ImageMagick as `name`, its date then written by ExifTool.
    static func picture(_ name: String, in dir: String, tags: [String]) throws -> String {
        let path = dir + "/" + name
        if name.hasSuffix(".heic") {
            try ReferenceEncoders.run(.convert, ["-size", "64x48", "xc:red", dir + "/for-heic.png"])
            try ReferenceEncoders.run(.heifEnc, ["-q", "50", "-o", path, dir + "/for-heic.png"])
        } else {
            try ReferenceEncoders.run(.convert, ["-size", "64x48", "xc:red", path])
        }
        try ReferenceEncoders.run(.exiftool, ["-q", "-overwrite_original"] + tags + [path])
        return path
    }

    @Test(arguments: ["a.jpg", "a.png", "a.webp", "a.tif", "a.heic"])
    func exifsDateAndOffsetInEveryFormat(name: String) throws {
        let dir = try MediaFixtures.folder("photo-date")
        let path = try Self.picture(name, in: dir, tags: ["-DateTimeOriginal=2024:07:14 21:30:05", "-OffsetTimeOriginal=+02:00"])
        #expect(PhotoDate.read(path: path) == Self.taken, "\(name): \(String(describing: PhotoDate.read(path: path)))")
    }

    /// A date kept only in the XMP packet (an edited or scanned photo): EXIF's, or
    /// Photoshop's, or the XMP's creation date; EXIF's still first when both say one.
    @Test(arguments: [("a.jpg", "-XMP-exif:DateTimeOriginal=2024:07:14 21:30:05+02:00"),
                      ("a.png", "-XMP-photoshop:DateCreated=2024:07:14 21:30:05+02:00"),
                      ("a.webp", "-XMP-xmp:CreateDate=2024:07:14 21:30:05+02:00")])
    func aDateOnlyInXMPIsRead(name: String, tag: String) throws {
        let dir = try MediaFixtures.folder("photo-date-xmp")
        let path = try Self.picture(name, in: dir, tags: [tag])
        #expect(PhotoDate.read(path: path) == Self.taken, "\(name): \(String(describing: PhotoDate.read(path: path)))")
        try ReferenceEncoders.run(.exiftool, ["-q", "-overwrite_original", "-DateTimeOriginal=2019:01:02 03:04:05", path])
        #expect(PhotoDate.read(path: path)?.year == 2019, "EXIF's before the XMP's")
    }

    /// A date kept only in IPTC (Photo Mechanic's, a news agency's): Date Created with Time
    /// Created and its offset, or the day alone.
    @Test func aDateOnlyInIPTCIsRead() throws {
        let dir = try MediaFixtures.folder("photo-date-iptc")
        let both = try Self.picture("both.jpg", in: dir, tags: ["-IPTC:DateCreated=2024:07:14", "-IPTC:TimeCreated=21:30:05+02:00"])
        #expect(PhotoDate.read(path: both) == Self.taken, "\(String(describing: PhotoDate.read(path: both)))")
        let day = try Self.picture("day.jpg", in: dir, tags: ["-IPTC:DateCreated=2005:12:23", "-IPTC:Keywords=harbour"])
        #expect(PhotoDate.read(path: day) == PhotoDate(year: 2005, month: 12, day: 23))
    }

    @Test func theFallbacksAndNothingFromNothing() throws {
        let dir = try MediaFixtures.folder("photo-date-fallback")
        let digitized = try Self.picture("digitized.jpg", in: dir, tags: ["-CreateDate=2019:02:03 04:05:06"])
        #expect(PhotoDate.read(path: digitized) == PhotoDate(year: 2019, month: 2, day: 3, hour: 4, minute: 5, second: 6))
        let modified = try Self.picture("modified.jpg", in: dir, tags: ["-IFD0:ModifyDate=2018:01:02 03:04:05"])
        #expect(PhotoDate.read(path: modified) == PhotoDate(year: 2018, month: 1, day: 2, hour: 3, minute: 4, second: 5))
        // A camera whose clock was never set writes zeros, or blanks (ExifTool will not write them).
        #expect(PhotoDate.exifDate("0000:00:00 00:00:00", offset: nil) == nil && PhotoDate.exifDate("    :  :     :  :  ", offset: nil) == nil)
        #expect(PhotoDate.exifDate("2024:02:30 10:00:00", offset: "+01:00")?.day == 30, "as written; only impossible numbers are refused")
        #expect(PhotoDate.exifDate("2024:13:01 10:00:00", offset: nil) == nil)
        let none = try Self.picture("none.png", in: dir, tags: ["-Comment=nothing"])
        #expect(PhotoDate.read(path: none) == nil)
        #expect(PhotoDate.read(path: dir + "/missing.jpg") == nil)
        #expect(PhotoDate.read(path: dir) == nil, "a folder")
    }

    @Test func aClipsDateFromItsPhonesKeyElseItsMovieHeader() throws {
        let dir = try MediaFixtures.folder("clip-date")
        let mp4 = dir + "/a.mp4", mov = dir + "/b.mov"
        for path in [mp4, mov] {
            try ReferenceEncoders.run(.ffmpeg, ["-v", "error", "-f", "lavfi", "-i", "color=c=red:size=64x48:rate=10:duration=1", "-c:v", "libx264",
                                                 "-metadata", "creation_time=2021-03-04T05:06:07Z", path])
        }
        #expect(PhotoDate.read(path: mp4) == PhotoDate(year: 2021, month: 3, day: 4, hour: 5, minute: 6, second: 7, offsetMinutes: 0), "mvhd, UTC")
        try ReferenceEncoders.run(.exiftool, ["-q", "-overwrite_original", "-Keys:CreationDate=2023:06:01 12:34:56+05:30", mov])
        #expect(PhotoDate.read(path: mov) == PhotoDate(year: 2023, month: 6, day: 1, hour: 12, minute: 34, second: 56, offsetMinutes: 330),
                "the phone's own wall time and offset: \(String(describing: PhotoDate.read(path: mov)))")
    }

    /// Real photos nobody here made: libjxl's test data (a Wesaturate photo's PNG, its
    /// EXIF as the camera wrote it), against what ExifTool reads there.
    @Test func realPhotosAsExifToolReadsThem() throws {
        let dir = "/usr/share/libjxl-testdata/external/wesaturate/64px"
        let files = ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).filter { $0.hasSuffix("srgb8.png") }.sorted()
        try #require(!files.isEmpty, "libjxl-testdata is missing: run kiosk/setup")
        var dated = 0
        for file in files {
            let path = dir + "/" + file
            let p = Process(), out = Pipe()
            p.executableURL = try OutsideProgram.exiftool.url
            p.arguments = ["-s3", "-d", "%Y %m %d %H %M %S", "-ExifIFD:DateTimeOriginal", path]
            p.standardOutput = out
            try p.run()
            p.waitUntilExit()
            let said = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).split(separator: " ").compactMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
            let ours = PhotoDate.read(path: path)
            if said.count == 6 {
                dated += 1
                #expect(ours.map { [$0.year, $0.month, $0.day, $0.hour, $0.minute, $0.second] } == said, "\(file): ours \(String(describing: ours)), ExifTool \(said)")
            } else {
                #expect(ours == nil, "\(file): ExifTool reads no date, ours \(String(describing: ours))")
            }
        }
        #expect(dated >= 2, "\(dated) of \(files.count) real files dated")
    }

    @Test func utcFromSecondsAsFoundationSaysIt() {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        for seconds in [1, 86_399, 951_782_400, 1_709_164_800, 1_795_772_490, 4_107_542_399] {
            let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: Date(timeIntervalSince1970: Double(seconds)))
            let d = PhotoDate.utc(seconds)
            #expect(d.map { [$0.year, $0.month, $0.day, $0.hour, $0.minute, $0.second] } == [c.year!, c.month!, c.day!, c.hour!, c.minute!, c.second!],
                    "\(seconds): \(String(describing: d))")
        }
    }
}
