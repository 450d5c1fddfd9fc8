@testable import CarouselMedia
import CarouselCore
import Foundation
import Testing
import TestSupport

/// Where a picture or clip was taken, as its file says (EXIF's GPS in every format that
/// carries EXIF, XMP's, a clip's ISO 6709), and the place GeoNames' tables give it.
@Suite struct PhotoLocationTests {
    /// Lisbon's Praça do Comércio, as ExifTool writes it.
    static let lisbon = (latitude: 38.7076, longitude: -9.1365)

    static func near(_ found: PhotoLocation?, _ want: (latitude: Double, longitude: Double)) -> Bool {
        guard let found else { return false }
        return abs(found.latitude - want.latitude) < 1e-4 && abs(found.longitude - want.longitude) < 1e-4
    }

    @Test(arguments: ["a.jpg", "a.png", "a.webp", "a.tif", "a.heic"])
    func exifsGPSInEveryFormat(name: String) throws {
        let dir = try MediaFixtures.folder("photo-location")
        let path = try PhotoDateTests.picture(name, in: dir, tags: ["-GPSLatitude=38.7076", "-GPSLatitudeRef=N",
                                                                   "-GPSLongitude=9.1365", "-GPSLongitudeRef=W"])
        let found = PhotoLocation.read(path: path)
        #expect(Self.near(found, Self.lisbon), "\(name): \(String(describing: found))")
    }

    /// South and west are negative; XMP's `41,24.5N` form; a picture without GPS, and one
    /// with a camera's 0° 0° (no fix), have none.
    @Test func hemispheresXMPAndNone() throws {
        let dir = try MediaFixtures.folder("photo-location-forms")
        let sydney = try PhotoDateTests.picture("sydney.jpg", in: dir, tags: ["-GPSLatitude=33.8568", "-GPSLatitudeRef=S",
                                                                              "-GPSLongitude=151.2153", "-GPSLongitudeRef=E"])
        #expect(Self.near(PhotoLocation.read(path: sydney), (-33.8568, 151.2153)))
        // ExifTool writes 11.6° as 11° 35' 60": a whole minute of seconds.
        let siena = try PhotoDateTests.picture("siena.jpg", in: dir, tags: ["-GPSLatitude=43.1", "-GPSLatitudeRef=N",
                                                                            "-GPSLongitude=11.6", "-GPSLongitudeRef=E"])
        #expect(Self.near(PhotoLocation.read(path: siena), (43.1, 11.6)), "\(String(describing: PhotoLocation.read(path: siena)))")
        let xmp = try PhotoDateTests.picture("xmp.png", in: dir, tags: ["-XMP-exif:GPSLatitude=64.1466 N", "-XMP-exif:GPSLongitude=21.9426 W"])
        #expect(Self.near(PhotoLocation.read(path: xmp), (64.1466, -21.9426)), "\(String(describing: PhotoLocation.read(path: xmp)))")
        let none = try PhotoDateTests.picture("none.jpg", in: dir, tags: ["-DateTimeOriginal=2024:07:14 21:30:05"])
        #expect(PhotoLocation.read(path: none) == nil)
        let nowhere = try PhotoDateTests.picture("nowhere.jpg", in: dir, tags: ["-GPSLatitude=0", "-GPSLatitudeRef=N",
                                                                                "-GPSLongitude=0", "-GPSLongitudeRef=E"])
        #expect(PhotoLocation.read(path: nowhere) == nil)
    }

    /// A real photo from a Debian package: libjxl-testdata's flower, taken on Madeira, its EXIF
    /// kept by exiv2 as a zTXt `Raw profile type exif` (hex in deflated text): where ExifTool
    /// reads it, named, and its date.
    @Test func aRealPhotosPlace() throws {
        let path = "/usr/share/libjxl-testdata/jxl/flower/flower.png"
        try #require(FileManager.default.fileExists(atPath: path), "kiosk/setup installs libjxl-testdata")
        let found = PhotoLocation.read(path: path)
        #expect(Self.near(found, (32.653419, -16.888161)), "\(String(describing: found))")
        let names = try PlaceNames.load(path: PlaceLookup.defaultTable)
        #expect(found.flatMap(names.name(of:)) == "Funchal, Portugal", "\(String(describing: found.flatMap(names.name(of:))))")
        // Its only date is IFD0's DateTime (ExifTool's Modify Date, 2022:04:25 15:33:57).
        #expect(PhotoDate.read(path: path) == PhotoDate(year: 2022, month: 4, day: 25, hour: 15, minute: 33, second: 57))
    }

    /// ImageMagick's raw profile text, and what is not one.
    @Test func rawProfileText() {
        #expect(MetadataBytes.rawProfile(Array("\nexif\n       4\n45786966\n".utf8)) == Array("Exif".utf8))
        #expect(MetadataBytes.rawProfile(Array("\nexif\n 3\n4578\n69".utf8)) == Array("Exi".utf8), "across lines")
        for bad in ["\nexif\n 4\n4578\n", "\nexif\n 2\n45zz\n", "\nexif\n 0\n", "\nexif\n 99999999\n00", ""] {
            #expect(MetadataBytes.rawProfile(Array(bad.utf8)) == nil, "\(bad)")
        }
    }

    /// A phone's clip: an iPhone's `com.apple.quicktime.location.ISO6709`, an Android
    /// phone's `©xyz` (ffmpeg writes each as the phones do).
    @Test func aClipsLocation() throws {
        let dir = try MediaFixtures.folder("photo-location-clips")
        let apple = dir + "/iphone.mov", android = dir + "/android.mov"
        let clip = ["-loglevel", "error", "-f", "lavfi", "-i", "testsrc=size=64x48:rate=10", "-t", "0.5"]
        try ReferenceEncoders.run(.ffmpeg, clip + ["-movflags", "use_metadata_tags",
                                                    "-metadata", "com.apple.quicktime.location.ISO6709=+37.7749-122.4194+010.000/", "-y", apple])
        try ReferenceEncoders.run(.ffmpeg, clip + ["-metadata", "location=+48.8584+002.2945/", "-y", android])
        #expect(Self.near(PhotoLocation.read(path: apple), (37.7749, -122.4194)), "\(String(describing: PhotoLocation.read(path: apple)))")
        #expect(Self.near(PhotoLocation.read(path: android), (48.8584, 2.2945)), "\(String(describing: PhotoLocation.read(path: android)))")
    }

    @Test func iso6709() {
        #expect(PhotoLocation(iso6709: "+38.7139-009.1394/").map { Self.near($0, (38.7139, -9.1394)) } == true)
        #expect(PhotoLocation(iso6709: "-33.86+151.21+012.5/").map { Self.near($0, (-33.86, 151.21)) } == true)
        for bad in ["", "/", "+91.0+010.0/", "+10.0+181.0/", "38.7-9.1/", "+nan+0/", "+1.0", "++1-2/"] {
            #expect(PhotoLocation(iso6709: bad) == nil, "\(bad)")
        }
    }

    /// A table of three lines as GeoNames writes them (fields cut short where unused).
    static let table = PlaceNames(
        cities: Array("""
        2267057\tLisbon\tLisbon\tLisboa\t38.71667\t-9.13333\tP\tPPLC\tPT\t\t14\t\t\t\t517802\t\t45\tEurope/Lisbon\t2022-03-01
        3176959\tFlorence\tFlorence\tFirenze\t43.77925\t11.24626\tP\tPPLA\tIT\t\t16\t\t\t\t349296\t\t50\tEurope/Rome\t2022-03-01
        # a comment
        bad line
        1\tNowhere\tNowhere\t\t95.0\t0.0\tP\tPPL\tXX\t\t01\t\t\t\t20000\t\t0\tEtc/UTC\t2022-03-01
        2\tNo country\tNo country\t\t10.0\t10.0\tP\tPPL\tXYZ\t\t01\t\t\t\t20000\t\t0\tEtc/UTC\t2022-03-01

        """.utf8),
        regions: Array("PT.14\tLisbon\tLisbon\t2267056\nIT.16\tTuscany\tTuscany\t3165361\n".utf8),
        countries: Array("#ISO\tISO3\tnum\tfips\tCountry\nPT\tPRT\t620\tPO\tPortugal\tLisbon\nIT\tITA\t380\tIT\tItaly\tRome\n".utf8))

    /// The nearest city within 25 km, else its region within 150 km, with the country; nothing
    /// farther; the lines that are no place skipped.
    @Test func aCityARegionOrNothing() {
        #expect(Self.table.count == 2)
        #expect(Self.table.name(of: PhotoLocation(latitude: 38.7076, longitude: -9.1365)!) == "Lisbon, Portugal")
        // Siena's hills, 50 km south of Florence: Tuscany.
        #expect(Self.table.name(of: PhotoLocation(latitude: 43.35, longitude: 11.0)!) == "Tuscany, Italy")
        // Mid-Atlantic.
        #expect(Self.table.name(of: PhotoLocation(latitude: 38.0, longitude: -30.0)!) == nil)
        // Without the regions and countries: the city alone, and no region to name.
        let bare = PlaceNames(cities: Array("2267057\tLisbon\tLisbon\t\t38.71667\t-9.13333\tP\tPPLC\tPT\t\t14\n".utf8))
        #expect(bare.name(of: PhotoLocation(latitude: 38.7076, longitude: -9.1365)!) == "Lisbon")
        #expect(bare.name(of: PhotoLocation(latitude: 38.0, longitude: -9.0)!) == nil)
        // Across the 180th meridian, and near the pole, where a degree of longitude is short.
        let far = PlaceNames(cities: Array("1\tEast\tEast\t\t-16.5\t179.95\tP\tPPL\tFJ\t\t01\n2\tNorth\tNorth\t\t78.22\t15.64\tP\tPPL\tSJ\t\t21\n".utf8))
        #expect(far.name(of: PhotoLocation(latitude: -16.5, longitude: -179.98)!) == "East")
        #expect(far.name(of: PhotoLocation(latitude: 78.3, longitude: 16.3)!) == "North")
        // A table of more places than are kept: the first `maxPlaces`.
        let line = Array("1\tA\tA\t\t10.0\t10.0\tP\tPPL\tAA\t\t01\n".utf8)
        let many = PlaceNames(cities: Array([[UInt8]](repeating: line, count: PlaceNames.maxPlaces + 10).joined()))
        #expect(many.count == PlaceNames.maxPlaces)
    }

    /// Debian's libtimezonemap-data (kiosk/setup installs it): GeoNames' 23,000 cities.
    @Test func debiansTable() throws {
        let path = PlaceLookup.defaultTable
        try #require(FileManager.default.fileExists(atPath: path), "kiosk/setup installs libtimezonemap-data")
        let names = try PlaceNames.load(path: path)
        #expect(names.count > 20_000)
        #expect(names.name(of: PhotoLocation(latitude: 38.7076, longitude: -9.1365)!) == "Lisbon, Portugal")
        #expect(names.name(of: PhotoLocation(latitude: -33.8568, longitude: 151.2153)!) == "Sydney, Australia")
        // The Eiffel Tower: nearer Neuilly-sur-Seine's centre than Paris's, but in Paris.
        #expect(names.name(of: PhotoLocation(latitude: 48.8584, longitude: 2.2945)!) == "Paris, France")
        // Neuilly's own town hall: Neuilly.
        #expect(names.name(of: PhotoLocation(latitude: 48.8847, longitude: 2.2685)!) == "Neuilly-sur-Seine, France")
        #expect(names.name(of: PhotoLocation(latitude: 43.1, longitude: 11.6)!)?.hasSuffix(", Italy") == true)
        #expect(names.name(of: PhotoLocation(latitude: 0.5, longitude: -30)!) == nil, "mid-Atlantic")
        #expect(throws: PlaceNamesError.self) { try PlaceNames.load(path: "/nonexistent/cities15000.txt") }
        #expect(throws: PlaceNamesError.self) { try PlaceNames.load(path: "/etc/hostname") }
    }

    /// A web picture's listed place wins; a local file's GPS is named once the tables are in.
    @Test func aListedPlaceElseTheFilesGPS() throws {
        let dir = try MediaFixtures.folder("photo-location-lookup")
        let path = try PhotoDateTests.picture("lisbon.jpg", in: dir, tags: ["-GPSLatitude=38.7076", "-GPSLatitudeRef=N",
                                                                            "-GPSLongitude=9.1365", "-GPSLongitudeRef=W"])
        let lookup = PlaceLookup(say: { _ in })
        lookup.waitUntilRead()
        #expect(lookup.place(of: ImageSource(path: path)) == "Lisbon, Portugal")
        #expect(lookup.place(of: ImageSource(path: path, place: "Belém")) == "Belém")
        let said = SaidLines()
        let missing = PlaceLookup(path: dir + "/no-such-table.txt", say: { said.add($0) })
        missing.waitUntilRead()
        #expect(missing.place(of: ImageSource(path: path)) == nil && !missing.pending)
        #expect(said.lines.count == 1 && said.lines[0].contains("no-such-table.txt"), "\(said.lines)")
    }
}

/// Lines said from another thread.
final class SaidLines: @unchecked Sendable {
    private let lock = NSLock()
    private var kept: [String] = []
    func add(_ line: String) { lock.lock(); kept.append(line); lock.unlock() }
    var lines: [String] { lock.lock(); defer { lock.unlock() }; return kept }
}
