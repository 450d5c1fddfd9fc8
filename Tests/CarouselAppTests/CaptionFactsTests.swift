import Foundation
import Testing
@testable import CarouselApp
import CarouselCore
import CarouselMedia
import TestSupport

/// What a caption says of a picture: its file read only at rest, its place from its GPS once
/// GeoNames' tables are in, a listed place first, and nothing asked that the template does not say.
@Suite struct CaptionFactsTests {
    /// A JPEG taken in Lisbon on 1 May 2023, written by ImageMagick and ExifTool.
    static func lisbon() throws -> String {
        let dir = ScratchRoot.path + "/caption-facts-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let path = dir + "/lisbon.jpg"
        try OutsideProgram.convert.run(["-size", "64x48", "xc:navy", path])
        try OutsideProgram.exiftool.run(["-q", "-overwrite_original", "-DateTimeOriginal=2023:05:01 10:00:00", "-GPSLatitude=38.7076",
                                         "-GPSLatitudeRef=N", "-GPSLongitude=9.1365", "-GPSLongitudeRef=W", path])
        return path
    }

    @Test func aPlaceFromTheFilesGPSAtRestAndAListedOneFirst() throws {
        let path = try Self.lisbon()
        let template = try CaptionTemplate(parsing: "{date} · {place}")
        let facts = CaptionFacts(places: PlaceLookup(say: { _ in }), waits: true)
        let source = ImageSource(path: path)
        // Moving: the file is not read.
        #expect(template.lines(for: facts.of(source, atRest: false, template: template)) == [])
        // At rest: its date and the place of its GPS.
        #expect(template.lines(for: facts.of(source, atRest: true, template: template)) == ["1 May 2023 · Lisbon, Portugal"])
        // Kept: moving again, the same.
        #expect(template.lines(for: facts.of(source, atRest: false, template: template)) == ["1 May 2023 · Lisbon, Portugal"])
        // A listed place wins over the file's.
        let listed = ImageSource(path: path, place: "Belém, Portugal")
        #expect(template.lines(for: facts.of(listed, atRest: true, template: template)).first?.hasSuffix("Belém, Portugal") == true)
    }

    /// Without tables (a file that is no table): listed places only, the file's none.
    @Test func withoutTablesOnlyListedPlaces() throws {
        let path = try Self.lisbon()
        let template = try CaptionTemplate(parsing: "{place}")
        let facts = CaptionFacts(places: PlaceLookup(path: "/etc/hostname", say: { _ in }), waits: true)
        #expect(template.lines(for: facts.of(ImageSource(path: path), atRest: true, template: template)) == [])
        #expect(template.lines(for: facts.of(ImageSource(path: path + "?", place: "Lisbon"), atRest: true, template: template)) == ["Lisbon"])
    }
}
