import Foundation

/// Place names for where a photo was taken, offline, from GeoNames' tables (CC BY 4.0,
/// geonames.org): the cities table (`cities15000.txt`, every place of 15,000 people or more,
/// about 23,000), with the regions (`admin1Codes.txt`) and the countries (`countryInfo.txt`)
/// read from beside it when they are there. Debian's `libtimezonemap-data` carries the three
/// in /usr/share/libtimezonemap/ui (5.2 MB); GeoNames' larger `cities1000.txt` reads too.
///
/// A photo within `cityKm` of a city is that city's (`Lisbon, Portugal`): of those, the one
/// nearest for its size (the distance over a reach growing with the square root of its
/// people), so that the Eiffel Tower is in Paris, not in the suburb whose centre is a little
/// nearer. Farther, within `regionKm`, it is the nearest city's first-order region's
/// (`Tuscany, Italy`); farther still (at sea, in a desert) it has no place. The tables are files from outside like any picture: read
/// with bounds on size, lines and fields; a line that is not a place is skipped.
public struct PlaceNames: Sendable {
    struct City: Sendable {
        var latitude: Double, longitude: Double
        var name: String
        /// How far, in km, the city reaches for choosing among near ones: 1 km, or more for
        /// a larger one (Paris 8.7 km, a town of 20,000 people 1 km).
        var reach: Double
        /// ISO country code and the first-order region's code (`PT`, `14`).
        var country: String, region: String
    }

    /// By latitude, for the band a lookup scans.
    let cities: [City]
    /// `PT.14` → `Lisbon`.
    let regions: [String: String]
    /// `PT` → `Portugal`.
    let countries: [String: String]

    public static let cityKm = 25.0
    public static let regionKm = 150.0
    /// The most read of one table.
    public static let maxFileBytes = 64 << 20
    static let maxLineBytes = 16 << 10
    /// The most places kept (GeoNames' cities500.txt holds about 200,000): a table of short
    /// made-up lines fills no more than about 50 MB.
    public static let maxPlaces = 500_000
    static let maxNameBytes = 200
    static let earthKm = 6371.0

    public var count: Int { cities.count }

    /// From the three tables' bytes (regions and countries may be empty).
    public init(cities table: [UInt8], regions regionTable: [UInt8] = [], countries countryTable: [UInt8] = []) {
        var found: [City] = []
        Self.eachLine(table) { fields in
            guard found.count < Self.maxPlaces else { return }
            // geonameid, name, asciiname, alternatenames, latitude, longitude, feature class,
            // feature code, country code, cc2, admin1 code, ...
            guard fields.count >= 11, let name = Self.text(fields[1]), let country = Self.text(fields[8]), country.utf8.count == 2,
                  let latitude = Double(String(decoding: fields[4], as: UTF8.self)),
                  let longitude = Double(String(decoding: fields[5], as: UTF8.self)),
                  latitude.isFinite, longitude.isFinite, abs(latitude) <= 90, abs(longitude) <= 180 else { return }
            let people = fields.count > 14 ? Double(String(decoding: fields[14], as: UTF8.self)) ?? 0 : 0
            let reach = max(1, 0.006 * max(0, min(people, 1e9)).squareRoot())
            found.append(City(latitude: latitude, longitude: longitude, name: name, reach: reach, country: country,
                              region: Self.text(fields[10]) ?? ""))
        }
        cities = found.sorted { $0.latitude < $1.latitude }
        // code (`PT.14`), name, asciiname, geonameid
        var regions: [String: String] = [:]
        Self.eachLine(regionTable) { fields in
            guard fields.count >= 2, let code = Self.text(fields[0]), let name = Self.text(fields[1]) else { return }
            regions[code] = name
        }
        self.regions = regions
        // ISO, ISO3, ISO-numeric, fips, Country, ...
        var countries: [String: String] = [:]
        Self.eachLine(countryTable) { fields in
            guard fields.count >= 5, let code = Self.text(fields[0]), code.utf8.count == 2, let name = Self.text(fields[4]) else { return }
            countries[code] = name
        }
        self.countries = countries
    }

    /// The cities table at `path`, with `admin1Codes.txt` and `countryInfo.txt` from its
    /// folder when they are there. Throws a line naming the file and what is wrong.
    public static func load(path: String) throws(PlaceNamesError) -> PlaceNames {
        let folder = (path as NSString).deletingLastPathComponent
        let names = PlaceNames(cities: try read(path), regions: (try? read(folder + "/admin1Codes.txt")) ?? [],
                               countries: (try? read(folder + "/countryInfo.txt")) ?? [])
        guard names.count > 0 else { throw PlaceNamesError(description: "\(path): no places in it (GeoNames' cities table expected: tab-separated, one place a line)") }
        return names
    }

    private static func read(_ path: String) throws(PlaceNamesError) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw PlaceNamesError(description: "\(path): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { throw PlaceNamesError(description: "\(path): not a file") }
        guard Int(info.st_size) <= maxFileBytes else { throw PlaceNamesError(description: "\(path): larger than \(maxFileBytes >> 20) MB") }
        return LivePhotoIdentity.read(fd, at: 0, count: Int(info.st_size))
    }

    /// The place's name at `location`: the city's within `cityKm`, else its region's within
    /// `regionKm`, each with its country's; nil farther away.
    public func name(of location: PhotoLocation) -> String? {
        let near = around(location, within: Self.regionKm)
        let local: String?, country: String?
        if let city = near.filter({ $0.km <= Self.cityKm }).min(by: { $0.km / $0.city.reach < $1.km / $1.city.reach })?.city {
            (local, country) = (city.name, countries[city.country])
        } else if let city = near.min(by: { $0.km < $1.km })?.city {
            (local, country) = (regions["\(city.country).\(city.region)"], countries[city.country])
        } else {
            return nil
        }
        return [local, country].compactMap { $0 }.joined(separator: ", ").nilIfEmpty
    }

    /// The cities within `km` and their distances: a band of latitudes, searched from its
    /// first city on.
    func around(_ p: PhotoLocation, within km: Double) -> [(city: City, km: Double)] {
        let band = km / (Self.earthKm * .pi / 180)
        var low = 0, high = cities.count
        while low < high {
            let mid = (low + high) / 2
            if cities[mid].latitude < p.latitude - band { low = mid + 1 } else { high = mid }
        }
        // And of longitudes, as wide as the band's highest latitude asks (all of them near a pole).
        let highest = min(90, abs(p.latitude) + band)
        let across = highest >= 89 ? 360 : band / cos(highest * .pi / 180)
        var found: [(city: City, km: Double)] = []
        for city in cities[low...] {
            if city.latitude > p.latitude + band { break }
            let apart = abs(city.longitude - p.longitude)
            if min(apart, 360 - apart) > across { continue }
            let d = Self.distance(p.latitude, p.longitude, city.latitude, city.longitude)
            if d <= km { found.append((city, d)) }
        }
        return found
    }

    /// Great-circle distance in km (haversine).
    static func distance(_ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double) -> Double {
        let r = Double.pi / 180
        let a = sin((lat2 - lat1) * r / 2), b = sin((lon2 - lon1) * r / 2)
        let h = a * a + cos(lat1 * r) * cos(lat2 * r) * b * b
        return 2 * earthKm * asin(min(1, h.squareRoot()))
    }

    /// Each line's tab-separated fields (a line longer than `maxLineBytes` and a `#` comment
    /// are skipped).
    static func eachLine(_ bytes: [UInt8], _ visit: ([ArraySlice<UInt8>]) -> Void) {
        var start = 0
        while start < bytes.count {
            let end = bytes[start...].firstIndex(of: 0x0A) ?? bytes.count
            defer { start = end + 1 }
            let line = bytes[start..<end]
            guard !line.isEmpty, line.count <= maxLineBytes, line.first != UInt8(ascii: "#") else { continue }
            visit(line.split(separator: 0x09, maxSplits: 20, omittingEmptySubsequences: false))
        }
    }

    /// A field as text: UTF-8, no control characters, at most `maxNameBytes`; nil when empty.
    static func text(_ field: ArraySlice<UInt8>) -> String? {
        let trimmed = field.last == 0x0D ? field.dropLast() : field
        guard !trimmed.isEmpty, trimmed.count <= maxNameBytes, !trimmed.contains(where: { $0 < 0x20 || $0 == 0x7F }),
              let text = String(validating: trimmed, as: UTF8.self) else { return nil }
        return text
    }
}

/// A GeoNames table that cannot be read: its path and what is wrong.
public struct PlaceNamesError: Error, CustomStringConvertible {
    public var description: String
}

private extension String {
    var nilIfEmpty: String? { isEmpty ? nil : self }
}
