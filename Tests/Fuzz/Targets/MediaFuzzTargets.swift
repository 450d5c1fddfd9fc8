// The parsers are internal to their modules: reached with @testable imports, which only
// a debug build allows (Tests/Fuzz/run and the tests build debug). A release build of the
// whole package gets the targets without bodies.
import Foundation
#if DEBUG
@testable import CarouselCore
@testable import CarouselMedia
@testable import CarouselSources
#else
import CarouselCore
import CarouselMedia
import CarouselSources
#endif

/// Every parser here that reads bytes from outside, by name, each taking any bytes at all:
/// the fuzz targets (Tests/Fuzz) and the replay of their corpus in the tests call them. A
/// parser may reject its input; it must never crash, hang or read out of bounds.
public enum MediaFuzzTargets {
    #if DEBUG
    public static let all: [String: @Sendable ([UInt8]) -> Void] = [
        // The first bytes of a picture: format, size (sizes before pixels), HEIF/AVIF boxes
        // and JPEG XL's bit-packed header among them.
        "image-header": { _ = ImageHeader.read($0) },
        // A JPEG's APP2 markers, joined into its ICC profile.
        "icc-jpeg": { _ = ICCExtraction.jpeg($0) },
        // A WebP's chunks, to its ICCP profile.
        "icc-webp": { _ = ICCExtraction.webp($0) },
        // A Netpbm picture, header and samples (decoded in the helper, in Swift).
        "pnm": { _ = try? PNMCodec.decode($0, path: "fuzz.pnm") },
        // A TIFF through libtiff, from memory: RGBA, CMYK through its profile, float rows.
        "tiff": { bytes in
            _ = try? TIFFCodec.decode(bytes, path: "fuzz.tif", colour: ColourConverter()) { w, h throws(ImageError) in
                guard w * h <= 4_000_000 else { throw ImageError(path: "fuzz.tif", reason: "too large") }
            }
        },
        // A BMP or a headerless DIB (decoded in the helper, in Swift): headers, palettes, bit
        // fields, RLE4/RLE8 escapes.
        "bmp": { bytes in
            _ = try? BMPCodec.decode(bytes, path: "fuzz.bmp") { w, h throws(ImageError) in
                guard w * h <= 4_000_000 else { throw ImageError(path: "fuzz.bmp", reason: "too large") }
            }
        },
        // A TGA (decoded in the helper, in Swift): colour maps, origins, run-length packets.
        "tga": { bytes in
            _ = try? TGACodec.decode(bytes, path: "fuzz.tga") { w, h throws(ImageError) in
                guard w * h <= 4_000_000 else { throw ImageError(path: "fuzz.tga", reason: "too large") }
            }
        },
        // An Immich server answering every request of a listing (version, albums, people,
        // searches page after page, memories, random) with these bytes.
        "immich-answer": { bytes in
            var selection = ImmichSource.Selection()
            selection.albums = ["Garden", "00000000-0000-4000-8000-000000000001"]
            selection.people = ["Grandma"]
            selection.favourites = true
            selection.memories = true
            selection.random = 3
            let source = ImmichSource(server: "http://127.0.0.1:9", key: "k", selection: selection)
            _ = try? source.list(fetch: { _, _ in .success(bytes) }, today: Date(timeIntervalSince1970: 1_795_780_800)) { _ in }
        },
        // A month of an album's timeline as an Immich server answers it (columns since 1.133,
        // a list of assets before), and an album listing whose every answer is these bytes
        // (the timeline's months, then each month, read with the bounds met).
        "immich-timeline": { bytes in
            if let value = try? JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed]) {
                if let columns = value as? [String: Any] { _ = ImmichSource.columns(columns) }
                if let list = value as? [Any] { _ = ImmichSource.assets(list) }
            }
            var selection = ImmichSource.Selection()
            selection.albums = ["00000000-0000-4000-8000-000000000001"]
            let source = ImmichSource(server: "http://127.0.0.1:9", key: "k", selection: selection)
            let albums = Array(#"[{"id": "00000000-0000-4000-8000-000000000001", "albumName": "Garden"}]"#.utf8)
            let buckets = Array(#"[{"timeBucket": "2024-07-01", "count": 5}, {"timeBucket": "2024-06-01", "count": 2}]"#.utf8)
            let empty = Array(#"{"assets": {"items": [], "nextPage": null}}"#.utf8)
            _ = try? source.list(fetch: { url, _ in
                if url.hasSuffix("/version") { return .success(Array(#"{"major": 2, "minor": 3}"#.utf8)) }
                if url.contains("/api/albums") { return .success(albums) }
                if url.contains("/search/") { return .success(empty) }
                if url.contains("/timeline/buckets") { return .success(buckets) }
                return .success(bytes)
            }, today: Date(timeIntervalSince1970: 1_795_780_800)) { _ in }
        },
        // A JPEG's APP1 segment, or a WebP's EXIF chunk, for the orientation.
        "exif": { _ = ExifOrientation.read(jpeg: $0); _ = ExifOrientation.read(webp: $0) },
        // A picture's head (and as a HEIF's Exif item), to what tells a screenshot: EXIF's
        // Make, Software and UserComment, XMP's, a PNG's text chunks.
        "screenshot-facts": { bytes in
            _ = ScreenshotRule.reason(ScreenshotRule.facts(name: "fuzz.png", folder: "fuzz", head: bytes, exifItem: bytes))
        },
        // A JPEG's head, to the thumbnail EXIF's IFD1 points at: it must lie inside the bytes
        // (the helper then decodes it as any JPEG: "image-header", libjpeg).
        "embedded-thumbnail": { bytes in
            guard let found = EmbeddedThumbnail.locate(jpeg: bytes) else { return }
            precondition(found.range.lowerBound >= 0 && found.range.upperBound <= bytes.count, "a thumbnail outside the bytes")
            _ = ImageHeader.read(Array(bytes[found.range]))
        },
        // A manifest (TOML) from a folder, a USB stick, later a web server.
        "manifest": { _ = try? Manifest.parse(String(decoding: $0, as: UTF8.self), file: "/nonexistent/fuzz/manifest.toml") },
        // A manifest from a web server: every path resolved against its URL.
        "remote-manifest": { _ = try? Manifest.parse(String(decoding: $0, as: UTF8.self), url: "https://content.example/kiosks/lobby/show.toml") },
        // A WebDAV server's PROPFIND answer, read and walked as a folder's (every folder the
        // answer names is answered with the same bytes: the walk's bounds are met).
        "dav-listing": { bytes in
            _ = try? DAVListing(parsing: bytes)
            _ = try? DAVSource("davs://cloud.example/remote.php/dav/files/anna/Photos").list(fetch: { _ in .success(bytes) }) { _ in }
        },
        // Response header lines from a web server, one per line of the input.
        "http-headers": { bytes in
            var headers = ResponseHeaders()
            for line in bytes.split(separator: 0x0A, omittingEmptySubsequences: false) { line.withUnsafeBytes { headers.add($0) } }
        },
        // The download cache's index, from a disk that may have been damaged.
        "cache-index": { _ = RemoteCache.index(from: $0) },
        // What a decoder helper, perhaps taken over by a hostile file, says back.
        "helper-message": { _ = HelperMessage(decoding: $0) },
        // A Live Photo's content identifier, read while a folder is scanned: the same bytes as
        // a JPEG's head, a HEIF's head and its Exif item, and a clip's moov.
        "live-photo-identity": { bytes in
            _ = LivePhotoIdentity.still(jpeg: bytes)
            _ = LivePhotoIdentity.still(exifItem: bytes)
            if let place = LivePhotoIdentity.exifItem(heif: bytes), place.offset >= 0, place.length > 0,
               place.offset <= bytes.count - place.length {
                _ = LivePhotoIdentity.still(exifItem: Array(bytes[place.offset..<(place.offset + place.length)]))
            }
            _ = LivePhotoIdentity.motion(moov: bytes)
        },
        // A PNG, decoded with the colour its chunks declare (cICP, iCCP, sRGB, gAMA, cHRM),
        // a 16-bit one converted from its deep rows.
        "png-colour": { _ = try? PNGCodec.decodeWithColour($0, fittingIn: Size(width: 64, height: 64), path: "fuzz.png", deepColour: ColourConverter()) },
        // A JPEG decoded whole and in part, as a zoom's detail is (libjpeg-turbo's cropped decode): the
        // first four bytes choose the part (x, y, width, height in 255ths), the rest is the file.
        // Only JPEGs: other formats are decoded whole for a part, as for a slot, and the rare
        // ones through SDL_image, which allocates what a header claims (bounded by the
        // helper's memory limit, which this in-process target does not have).
        "jpeg-part": { bytes in
            guard bytes.count > 4, ImageHeader.read(Array(bytes.dropFirst(4).prefix(32))).format == .jpeg else { return }
            let f = bytes.prefix(4).map { Double($0) / 255 }
            // What arrived of a file that ends early shows (--broken show): that path too.
            var decoder = FittingDecoder(maxPixels: 4_000_000)
            decoder.showsPartial = true
            _ = try? decoder.decode(Array(bytes.dropFirst(4)), name: "fuzz.jpg",
                                    part: Rect(x: f[0], y: f[1], width: f[2], height: f[3]), fittingIn: Size(width: 96, height: 96))
            _ = try? decoder.decode(Array(bytes.dropFirst(4)), name: "fuzz.jpg", fittingIn: Size(width: 96, height: 96))
        },
        // When a picture or clip was taken: a file's head (JPEG, PNG, WebP, TIFF), a HEIF's
        // Exif item, a clip's moov.
        "photo-date": { bytes in
            _ = PhotoDate.read(head: bytes)
            _ = PhotoDate.read(exifItem: bytes)
            _ = PhotoDate.read(moov: bytes)
        },
        // Where a picture or clip was taken: a file's head (EXIF's GPS, XMP), a HEIF's Exif
        // item, a clip's moov (ISO 6709), and ISO 6709's text itself.
        "photo-location": { bytes in
            _ = PhotoLocation.read(head: bytes)
            _ = PhotoLocation.read(exifItem: bytes)
            _ = PhotoLocation.read(moov: bytes)
            _ = PhotoLocation(iso6709: String(decoding: bytes.prefix(80), as: UTF8.self))
        },
        // GeoNames' tables (a --place-names file is the user's): the same bytes as the cities,
        // the regions and the countries, then a place asked for from the first bytes.
        "place-names": { bytes in
            let names = PlaceNames(cities: bytes, regions: bytes, countries: bytes)
            let b = bytes.prefix(4).map { Double($0) }
            if b.count == 4, let p = PhotoLocation(latitude: (b[0] - 127.5) / 1.4 + b[1] / 255, longitude: (b[2] - 127.5) * 1.4 + b[3] / 255) {
                _ = names.name(of: p)
            }
        },
        // A file's first bytes, which say whether it is a clip (and which container).
        "clip-container": { _ = ClipContainer.isClip($0) },
        // A thumbnail's text chunks, read from a cache other programs write too.
        "png-text": { _ = PNGText.read($0) },
        // A JPEG that may be a Motion Photo: its XMP (or Samsung's trailer) says where its
        // clip lies; the place found must lie inside the file.
        "motion-photo": { bytes in
            let found = MotionPhoto.locate(size: bytes.count) { offset, count in
                guard offset >= 0, count >= 0, offset <= bytes.count else { return nil }
                return Array(bytes[offset..<min(bytes.count, offset + count)])
            }
            if let found { precondition(found.start >= 0 && found.length > 0 && found.end <= bytes.count) }
        },
        // An animated GIF, WebP or PNG as the video helper plays it: frames composed into the
        // canvas buffer (its size the animation's own), ended, and played again.
        "animation": { bytes in
            guard PictureAnimation.isAnimated(bytes), let frames = try? PictureAnimation.open(bytes, name: "fuzz") else { return }
            precondition(frames.width >= 1 && frames.height >= 1 && frames.width * frames.height <= PictureAnimation.maxPixels)
            let buffer = UnsafeMutableRawPointer.allocate(byteCount: frames.width * frames.height * 4, alignment: 16)
            defer { buffer.deallocate() }
            for _ in 0..<2 {
                for _ in 0..<64 {
                    guard let delay = try? frames.next(into: buffer) else { break }
                    precondition(delay >= 0.011)
                }
                try? frames.rewind()
            }
        },
    ]
    #else
    public static let all: [String: @Sendable ([UInt8]) -> Void] = [:]
    #endif
}
