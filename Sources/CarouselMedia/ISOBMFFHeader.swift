/// The size of a HEIF or AVIF file's primary image, read from its ISO base media boxes
/// (ftyp, then meta: pitm names the primary item, ipma ties it to its ispe size and irot
/// rotation in ipco) without libheif, so the main process can place a tile or refuse a
/// size before a helper decodes anything. The size is upright: a rotation by 90° or 270°
/// swaps it. Bounds-checked; fuzzed with every header (`image-header`).
enum ISOBMFFHeader {
    /// HEIF brands (HEVC stills and sequences, and the general image brands) and AVIF's.
    static let heifBrands: Set<String> = ["heic", "heix", "hevc", "hevx", "heim", "heis", "hevm", "hevs", "mif1", "msf1", "mif2"]
    static let avifBrands: Set<String> = ["avif", "avis"]

    /// The header of `b` if it starts with an ftyp box naming a HEIF or AVIF brand.
    static func read(_ b: ByteReader) -> ImageHeader? {
        guard b.matches(Array("ftyp".utf8), at: 4), let ftypSize = b.u32be(0), ftypSize >= 16 else { return nil }
        var brands: [String] = []
        var at = 8
        while at + 4 <= min(ftypSize, b.bytes.count, 8 + 4 * 64) {
            if at != 12 { brands.append(String(decoding: b.bytes[at..<(at + 4)], as: UTF8.self)) }  // 12: minor version
            at += 4
        }
        // AVIF's brand names the format even when listed after mif1.
        let format: ImageHeader.Format
        if brands.contains(where: avifBrands.contains) { format = .avif }
        else if brands.contains(where: heifBrands.contains) { format = .heif }
        else { return nil }
        guard let meta = box("meta", in: b, from: ftypSize, to: b.bytes.count) else { return ImageHeader(format: format) }
        let children = meta.start + 4  // meta is a full box: version and flags first
        guard let size = primarySize(b, from: children, to: meta.end) else { return ImageHeader(format: format) }
        return ImageHeader(format: format, width: size.width, height: size.height)
    }

    /// The first box of `type` between `from` and `to`: its contents' range (also for
    /// `LivePhotoIdentity`'s HEIF and QuickTime boxes).
    static func box(_ type: String, in b: ByteReader, from: Int, to: Int) -> (start: Int, end: Int)? {
        box(named: Array(type.utf8), in: b, from: from, to: to)
    }

    /// `box(_:in:from:to:)` for a type that is not text (QuickTime's `©xyz` begins with 0xA9).
    static func box(named name: [UInt8], in b: ByteReader, from: Int, to: Int) -> (start: Int, end: Int)? {
        var at = from
        var seen = 0
        while at + 8 <= to, seen < 1000 {
            seen += 1
            guard var size = b.u32be(at) else { return nil }
            var header = 8
            if size == 1 {  // a 64-bit size follows the type
                guard let hi = b.u32be(at + 8), let lo = b.u32be(at + 12), hi < 1 << 20 else { return nil }
                size = hi << 32 | lo
                header = 16
            } else if size == 0 {
                size = to - at  // to the end
            }
            guard size >= header else { return nil }
            if b.matches(name, at: at + 4) { return (at + header, min(at + size, to)) }
            at += size
        }
        return nil
    }

    private static func primarySize(_ b: ByteReader, from: Int, to: Int) -> (width: Int, height: Int)? {
        guard let pitm = box("pitm", in: b, from: from, to: to), let version = b.u8(pitm.start),
              let primary = version == 0 ? b.u16be(pitm.start + 4) : b.u32be(pitm.start + 4),
              let iprp = box("iprp", in: b, from: from, to: to),
              let ipco = box("ipco", in: b, from: iprp.start, to: iprp.end),
              let ipma = box("ipma", in: b, from: iprp.start, to: iprp.end) else { return nil }
        // The properties in ipco, numbered from 1.
        var properties: [(type: String, start: Int, end: Int)] = []
        var at = ipco.start
        while at + 8 <= ipco.end, properties.count < 4096 {
            guard let size = b.u32be(at), size >= 8 else { break }
            properties.append((String(decoding: b.bytes[(at + 4)..<(at + 8)], as: UTF8.self), at + 8, min(at + size, ipco.end)))
            at += size
        }
        guard let v = b.u8(ipma.start), let flags = b.u24be(ipma.start + 1), let entries = b.u32be(ipma.start + 4) else { return nil }
        at = ipma.start + 8
        var size: (width: Int, height: Int)? = nil
        var quarterTurns = 0
        for _ in 0..<min(entries, 65536) {
            guard let item = v < 1 ? b.u16be(at) : b.u32be(at) else { return nil }
            at += v < 1 ? 2 : 4
            guard let count = b.u8(at) else { return nil }
            at += 1
            for _ in 0..<Int(count) {
                guard let index = flags & 1 != 0 ? b.u16be(at).map({ $0 & 0x7FFF }) : b.u8(at).map({ Int($0) & 0x7F }) else { return nil }
                at += flags & 1 != 0 ? 2 : 1
                guard item == primary, index >= 1, index <= properties.count else { continue }
                let p = properties[index - 1]
                if p.type == "ispe", p.end - p.start >= 12, let w = b.u32be(p.start + 4), let h = b.u32be(p.start + 8) {
                    size = (w, h)
                } else if p.type == "irot", let angle = b.u8(p.start) {
                    quarterTurns = Int(angle & 3)
                }
            }
            if item == primary { break }
        }
        guard let size else { return nil }
        return quarterTurns % 2 == 1 ? (size.height, size.width) : size
    }
}
