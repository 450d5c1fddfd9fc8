/// A HEIF file turned as a phone stores it: an `irot` property added to the primary item
/// (heif-enc 1.15 writes none), the boxes around it grown and the item locations (`iloc`,
/// absolute file offsets) moved by as much. Only what heif-enc writes is handled: `ipma`
/// version 0 with 7-bit indices, `iloc` versions 0 to 2.
enum HEIFRotationEdit {
    struct Unexpected: Error { var what: String }

    /// `heif` with `irot` of `quarters` (0–3, each a quarter turn counter-clockwise), listed
    /// after the item's other properties, or (`first`) just before its `ispe`, as a Sony
    /// ILCE-7M4 writes it.
    static func addingRotation(_ heif: [UInt8], quarters: UInt8, first: Bool = false) throws -> [UInt8] {
        var d = heif
        let meta = try find("meta", in: d, from: 0, to: d.count)
        let children = boxes(d, from: meta.at + 12, to: meta.at + meta.size)
        guard let iprp = children.first(where: { $0.type == "iprp" }), let pitm = children.first(where: { $0.type == "pitm" }),
              let iloc = children.first(where: { $0.type == "iloc" })
        else { throw Unexpected(what: "meta without iprp, pitm or iloc") }
        let inner = boxes(d, from: iprp.at + 8, to: iprp.at + iprp.size)
        guard let ipco = inner.first(where: { $0.type == "ipco" }), let ipma = inner.first(where: { $0.type == "ipma" }),
              d[ipma.at + 8] == 0, d[ipma.at + 11] & 1 == 0
        else { throw Unexpected(what: "no ipco or an ipma this edit does not handle") }
        let primary = read(d, pitm.at + 12, 2)
        let properties = boxes(d, from: ipco.at + 8, to: ipco.at + ipco.size)
        let irotIndex = UInt8(properties.count + 1)
        let ispeIndex = (properties.firstIndex { $0.type == "ispe" } ?? -2) + 1

        var associations = Array(d[(ipma.at + 8)..<(ipma.at + 16)])
        var p = ipma.at + 16
        for _ in 0..<read(d, ipma.at + 12, 4) {
            let item = read(d, p, 2), count = Int(d[p + 2])
            var list = Array(d[(p + 3)..<(p + 3 + count)])
            p += 3 + count
            if item == primary {
                // Before the item's ispe, or last.
                let ispe = list.firstIndex { Int($0 & 0x7F) == ispeIndex }
                list.insert(0x80 | irotIndex, at: first ? (ispe ?? 0) : list.count)  // essential
            }
            associations += [UInt8(item >> 8), UInt8(item & 255), UInt8(list.count)] + list
        }
        let newIpco = box("ipco", Array(d[(ipco.at + 8)..<(ipco.at + ipco.size)]) + box("irot", [quarters]))
        let others = inner.filter { $0.type != "ipco" && $0.type != "ipma" }.flatMap { Array(d[$0.at..<($0.at + $0.size)]) }
        let newIprp = box("iprp", newIpco + others + box("ipma", associations))
        let grow = newIprp.count - iprp.size

        d.replaceSubrange(iprp.at..<(iprp.at + iprp.size), with: newIprp)
        write(&d, meta.at, 4, meta.size + grow)
        let ilocAt = iloc.at < iprp.at ? iloc.at : iloc.at + grow
        try moveLocations(&d, iloc: ilocAt, by: grow)
        return d
    }

    private static func moveLocations(_ d: inout [UInt8], iloc at: Int, by grow: Int) throws {
        let version = d[at + 8]
        guard version <= 2 else { throw Unexpected(what: "iloc version \(version)") }
        let offsetSize = Int(d[at + 12] >> 4), lengthSize = Int(d[at + 12] & 15)
        let baseSize = Int(d[at + 13] >> 4), indexSize = version > 0 ? Int(d[at + 13] & 15) : 0
        var q = at + 14
        let count = version < 2 ? read(d, q, 2) : read(d, q, 4)
        q += version < 2 ? 2 : 4
        for _ in 0..<count {
            q += version < 2 ? 2 : 4
            var method = 0
            if version > 0 { method = read(d, q, 2) & 15; q += 2 }
            q += 2  // data reference index
            if method == 0, baseSize > 0 { write(&d, q, baseSize, read(d, q, baseSize) + grow) }
            q += baseSize
            let extents = read(d, q, 2)
            q += 2
            for _ in 0..<extents {
                q += indexSize
                if method == 0, baseSize == 0 { write(&d, q, offsetSize, read(d, q, offsetSize) + grow) }
                q += offsetSize + lengthSize
            }
        }
    }

    private static func boxes(_ d: [UInt8], from start: Int, to end: Int) -> [(at: Int, size: Int, type: String)] {
        var out: [(Int, Int, String)] = []
        var at = start
        while at + 8 <= end {
            let size = read(d, at, 4)
            guard size >= 8 else { break }
            out.append((at, size, String(decoding: d[(at + 4)..<(at + 8)], as: UTF8.self)))
            at += size
        }
        return out
    }

    private static func find(_ type: String, in d: [UInt8], from: Int, to: Int) throws -> (at: Int, size: Int, type: String) {
        guard let b = boxes(d, from: from, to: to).first(where: { $0.type == type }) else { throw Unexpected(what: "no \(type)") }
        return b
    }

    private static func box(_ type: String, _ body: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        write(&out, 0, 4, body.count + 8)
        return out + Array(type.utf8) + body
    }

    private static func read(_ d: [UInt8], _ at: Int, _ size: Int) -> Int {
        (0..<size).reduce(0) { $0 << 8 | Int(d[at + $1]) }
    }

    private static func write(_ d: inout [UInt8], _ at: Int, _ size: Int, _ value: Int) {
        if d.count < at + size { d += [UInt8](repeating: 0, count: at + size - d.count) }
        for k in 0..<size { d[at + k] = UInt8(value >> (8 * (size - 1 - k)) & 255) }
    }
}
