import CarouselCore
import Foundation

/// `--skip screenshots`: whether a picture is a screenshot, told only by what its file says
/// of itself and by its name (nothing is decoded). A picture is one when any of these holds:
///
/// 1. EXIF's or XMP's UserComment says `Screenshot` (what iOS and macOS write into theirs).
/// 2. Its name is a screenshot's as phones and desktops save them (`Screenshot_20240101-…`
///    on Android, `Screenshot 2024-…` on Windows and macOS, `Screen Shot …` on older macOS,
///    `Bildschirmfoto …`, `Capture d’écran …`, `Schermafbeelding …`, `Captura de pantalla …`),
///    or it lies in a folder named `Screenshots`.
/// 3. It names a screen grabber as its software (GNOME's, KDE's Spectacle, Flameshot,
///    Greenshot, ShareX, Snipping Tool, Lightshot).
/// 4. A PNG or HEIC with no camera in its EXIF (no Make) at a screen's exact size (one of
///    the common phone, tablet and desktop resolutions, either way up).
///
/// What it misses: a screenshot renamed, cropped or re-encoded (a messenger's JPEG copy, at
/// another size and without its metadata), and one taken by an app that writes none of the
/// above; a camera picture is never taken for one by rules 1–4 unless it was renamed so.
public enum ScreenshotRule {
    /// What the rule looks at, read once per file version.
    public struct Facts: Equatable, Sendable {
        public var name: String
        public var folder: String
        public var format: ImageHeader.Format
        public var width: Int?
        public var height: Int?
        public var make: String?
        public var software: String?
        public var userComment: String?

        public init(name: String, folder: String, format: ImageHeader.Format, width: Int? = nil, height: Int? = nil,
                    make: String? = nil, software: String? = nil, userComment: String? = nil) {
            (self.name, self.folder, self.format, self.width, self.height) = (name, folder, format, width, height)
            (self.make, self.software, self.userComment) = (make, software, userComment)
        }
    }

    /// Why `facts` make a screenshot (one phrase, for the list of what was left out), or nil.
    public static func reason(_ facts: Facts) -> String? {
        if let comment = facts.userComment?.trimmingCharacters(in: .whitespacesAndNewlines), comment.caseInsensitiveCompare("Screenshot") == .orderedSame {
            return "its EXIF says Screenshot"
        }
        let name = facts.name.lowercased()
        if namePrefixes.contains(where: { name.hasPrefix($0) }) { return "named as a screenshot" }
        if facts.folder.lowercased() == "screenshots" { return "in a Screenshots folder" }
        if let software = facts.software?.lowercased(), grabbers.contains(where: { software.contains($0) }) {
            return "made by \(facts.software!.prefix(40))"
        }
        if [.png, .heif].contains(facts.format), facts.make == nil, let w = facts.width, let h = facts.height,
           screenSizes.contains(Pair(w: min(w, h), h: max(w, h))) {
            return "a \(facts.format == .png ? "PNG" : "HEIC") at a screen's size (\(w)x\(h)) without a camera"
        }
        return nil
    }

    static let namePrefixes = ["screenshot", "screen shot", "screen_shot", "screen-shot", "bildschirmfoto", "capture d’écran",
                               "capture d'écran", "capture d\u{2019}ecran", "schermafbeelding", "captura de pantalla", "skärmbild",
                               "schermata", "スクリーンショット"]
    static let grabbers = ["gnome-screenshot", "spectacle", "flameshot", "greenshot", "sharex", "snipping tool", "screenclip", "lightshot",
                           "screencapture"]

    struct Pair: Hashable { var w: Int, h: Int }
    /// Screens' sizes, short side first: phones (iPhone 6 to 16, common Android), tablets, desktops.
    static let screenSizes: Set<Pair> = Set([
        (640, 1136), (750, 1334), (1080, 1920), (1242, 2208), (1125, 2436), (828, 1792), (1242, 2688), (1170, 2532), (1284, 2778),
        (1179, 2556), (1290, 2796), (1206, 2622), (1320, 2868), (1080, 2340), (1080, 2400), (1080, 2412), (1440, 3120), (1440, 3200),
        (1440, 2560), (720, 1280), (720, 1600), (1536, 2048), (1668, 2224), (1668, 2388), (1620, 2160), (2048, 2732), (1640, 2360),
        (1600, 2560), (800, 1280), (768, 1024), (768, 1366), (900, 1440), (1050, 1680), (1080, 1920), (1200, 1920), (1440, 2560),
        (1600, 2560), (1800, 2880), (2160, 3840), (1664, 2560), (1964, 3024), (2234, 3456), (1080, 2560), (1440, 3440),
    ].map { Pair(w: $0.0, h: $0.1) })

    /// The facts of the file at `path` (its head, at most 64 KB); nil when it cannot be read.
    public static func facts(of path: String) -> Facts? {
        let url = URL(fileURLWithPath: path)
        guard let m = MetadataBytes.read(path: path) else { return nil }
        return facts(name: url.lastPathComponent, folder: url.deletingLastPathComponent().lastPathComponent, head: m.head, exifItem: m.exifItem)
    }

    /// The facts of a file named `name` in `folder` whose head is `head` (a HEIF's Exif item apart).
    static func facts(name: String, folder: String, head: [UInt8], exifItem: [UInt8]?) -> Facts {
        let header = ImageHeader.read(head)
        var facts = Facts(name: name, folder: folder, format: header.format, width: header.width, height: header.height)
        let blocks = MetadataBytes.Blocks(head: head)
        if let exif = blocks.exif { read(ByteReader(head), tiff: exif.tiff, end: exif.end, into: &facts) }
        if let item = exifItem {
            // A HEIF's Exif item: a 4-byte offset to the TIFF header, then EXIF.
            let b = ByteReader(item)
            if let skip = b.u32be(0), 4 + skip < item.count { read(b, tiff: 4 + skip, end: item.count, into: &facts) }
        }
        if let xmp = blocks.xmp {
            let packet = head[xmp]
            facts.userComment = facts.userComment ?? xmpText("exif:UserComment", in: packet)
            facts.make = facts.make ?? xmpText("tiff:Make", in: packet)
            facts.software = facts.software ?? xmpText("xmp:CreatorTool", in: packet)
        }
        // A PNG's own text chunks: screen grabbers name themselves as its Software.
        if header.format == .png {
            let text = pngText(head, keys: ["Software", "Make"])
            facts.software = facts.software ?? text["Software"]
            facts.make = facts.make ?? text["Make"]
        }
        return facts
    }

    /// An XMP property's text: an attribute's or a simple element's value, or the first
    /// `rdf:li` of a language alternative (`<exif:UserComment><rdf:Alt><rdf:li …>text`).
    static func xmpText(_ key: String, in packet: ArraySlice<UInt8>) -> String? {
        if let v = MetadataBytes.xmpValues(key, in: packet, limit: 64).first?.trimmingCharacters(in: .whitespacesAndNewlines), !v.isEmpty { return v }
        guard let open = packet.firstRange(of: Array("<\(key)>".utf8)) else { return nil }
        let near = packet[open.upperBound...].prefix(512)
        guard let li = near.firstRange(of: Array("<rdf:li".utf8)), let close = near[li.upperBound...].firstIndex(of: UInt8(ascii: ">")) else { return nil }
        let value = String(decoding: near[(close + 1)...].prefix(64).prefix { $0 != UInt8(ascii: "<") }, as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        return value.isEmpty ? nil : value
    }

    /// The `tEXt` chunks of a PNG's head with these keywords (uncompressed text), each at most 64 bytes.
    static func pngText(_ bytes: [UInt8], keys: Set<String>) -> [String: String] {
        let b = ByteReader(bytes)
        var out: [String: String] = [:], at = 8
        for _ in 0..<1024 {
            guard let length = b.u32be(at), length <= bytes.count, at + 12 + length <= bytes.count else { break }
            if b.matches(Array("IEND".utf8), at: at + 4) { break }
            if b.matches(Array("tEXt".utf8), at: at + 4) {
                let data = bytes[(at + 8)..<(at + 8 + length)]
                if let zero = data.firstIndex(of: 0) {
                    let key = String(decoding: data[..<zero], as: UTF8.self)
                    if keys.contains(key), out[key] == nil {
                        let value = String(decoding: data[(zero + 1)...].prefix(64), as: UTF8.self).trimmingCharacters(in: .whitespaces)
                        if !value.isEmpty { out[key] = value }
                    }
                }
            }
            at += 12 + length
        }
        return out
    }

    /// IFD0's Make and Software, and the Exif IFD's UserComment.
    private static func read(_ b: ByteReader, tiff: Int, end: Int, into facts: inout Facts) {
        guard let walk = TIFFWalk(b, start: tiff, end: end) else { return }
        let ifd0 = walk.first
        facts.make = facts.make ?? text(walk, walk.entry(0x010F, inIFDAt: ifd0), limit: 64)
        facts.software = facts.software ?? text(walk, walk.entry(0x0131, inIFDAt: ifd0), limit: 64)
        if let pointer = walk.entry(0x8769, inIFDAt: ifd0), let offset = walk.value32(pointer),
           let comment = text(walk, walk.entry(0x9286, inIFDAt: tiff + offset), limit: 64, skippingCharset: true) {
            facts.userComment = facts.userComment ?? comment
        }
    }

    /// An entry's bytes as text (ASCII, or UserComment's after its 8-byte character code),
    /// at most `limit` bytes; nil when empty or out of bounds.
    private static func text(_ walk: TIFFWalk, _ entry: Int?, limit: Int, skippingCharset: Bool = false) -> String? {
        guard let entry, var value = walk.bytes(ofEntry: entry, maxCount: 1 << 16) else { return nil }
        if skippingCharset { guard value.count > 8 else { return nil }; value = value.dropFirst(8) }
        let bytes = value.prefix(limit).prefix { $0 != 0 }
        let s = String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespaces)
        return s.isEmpty ? nil : s
    }

    private static let known = StampedMemo<String?>()

    /// Why the local picture `source` is a screenshot, or nil (web pictures: nil); read once per file version.
    public static func reason(for source: ImageSource) -> String? {
        guard !ImageSource.isRemote(source.path) else { return nil }
        return known.value(for: source.path, stamp: source.stamp) { facts(of: source.path).flatMap(reason) }
    }
}
