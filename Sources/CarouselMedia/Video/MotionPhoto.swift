import CarouselCore
import Glibc

/// Where the clip of a Motion Photo lies in its JPEG or HEIC: Google's camera (and Samsung's since
/// it adopted Google's format) appends an MP4 to the picture and says so in the picture's
/// XMP; older Samsung phones append it after a `MotionPhoto_Data` marker instead. Read from
/// a hostile file inside the decoder helper: every number is checked against the file, and
/// what is found must begin with an MP4 `ftyp` box, else there is no clip.
///
/// The forms read:
/// - Motion Photo 1.0: `GCamera:MotionPhoto="1"` and a `Container:Directory` whose item of
///   semantic `MotionPhoto` has `Item:Length` = N: the clip is the file's last N bytes;
/// - MicroVideo (2018–2021): `GCamera:MicroVideo="1"` and `GCamera:MicroVideoOffset` = N:
///   the clip starts N bytes before the end of the file;
/// - Samsung's trailer: `MotionPhoto_Data` followed at once by the MP4, searched for in the
///   bytes after the picture;
/// - in a HEIC (Motion Photo 1.0's HEIC form, Samsung's and Google's phones since 2021): the
///   MP4 as the payload of a top-level `mpvd` box after the picture's boxes.
public enum MotionPhoto {
    /// The most of the file's head read for its XMP (APP1 segments come before the image).
    static let headBytes = 256 * 1024
    /// The most of the file's tail searched for Samsung's marker.
    static let tailBytes = 32 * 1024 * 1024
    /// The shortest clip worth trying (an `ftyp` box and a little more).
    static let minClipBytes = 32
    static let xmpSignature = Array("http://ns.adobe.com/xap/1.0/\0".utf8)
    static let samsungMarker = Array("MotionPhoto_Data".utf8)

    /// The clip's place in a JPEG of `size` bytes that `read(offset, count)` reads from (at
    /// most `count` bytes, fewer at the end; nil when it cannot); nil: not a Motion Photo.
    public static func locate(size: Int, read: (Int, Int) -> [UInt8]?) -> ByteRange? {
        guard size > 4, let head = read(0, min(size, headBytes)), head.count >= 4 else { return nil }
        if head.count >= 12, Array(head[4..<8]) == Array("ftyp".utf8) { return fromHEIF(size: size, read: read) }
        guard head[0] == 0xFF, head[1] == 0xD8 else { return nil }
        for xmp in xmpPackets(head) {
            if let range = fromXMP(xmp, size: size), startsWithMP4(range, read: read) { return range }
        }
        // Only a file ending in Samsung's trailer ("SEFT") is searched for its marker.
        guard let end = read(size - 4, 4), end.elementsEqual(Array("SEFT".utf8)) else { return nil }
        return fromTrailer(size: size, read: read)
    }

    /// The most top-level boxes of a HEIF walked looking for the clip's.
    static let heifBoxes = 64

    /// A HEIC (or AVIF) Motion Photo, Google's and Samsung's alike: the MP4 is the payload of
    /// a top-level `mpvd` box after the picture's boxes. Each box's size is checked against
    /// the file; a box that runs past it, or a size too small for its header, ends the walk.
    static func fromHEIF(size: Int, read: (Int, Int) -> [UInt8]?) -> ByteRange? {
        var at = 0
        for _ in 0..<heifBoxes {
            guard at + 8 <= size, let header = read(at, 16), header.count >= 8 else { return nil }
            func number(_ from: Int, _ count: Int) -> Int {
                header[from..<(from + count)].reduce(0) { $0 << 8 | Int($1) }
            }
            var length = number(0, 4), headerLength = 8
            if length == 1 {
                // A 64-bit size follows the type; one past what an Int holds is no size.
                guard header.count >= 16, header[8] & 0x80 == 0 else { return nil }
                length = number(8, 8)
                headerLength = 16
            } else if length == 0 {
                length = size - at
            }
            guard length >= headerLength, length <= size - at else { return nil }
            if Array(header[4..<8]) == Array("mpvd".utf8) {
                let range = ByteRange(start: at + headerLength, length: length - headerLength)
                return range.length >= minClipBytes && startsWithMP4(range, read: read) ? range : nil
            }
            at += length
        }
        return nil
    }

    /// The clip's place in the open JPEG `fd` (read with pread, never past its size).
    public static func locate(file fd: Int32) -> ByteRange? {
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        let size = Int(info.st_size)
        return locate(size: size) { offset, count in
            guard offset >= 0, count >= 0, offset <= size else { return nil }
            var bytes = [UInt8](repeating: 0, count: min(count, size - offset))
            var got = 0
            while got < bytes.count {
                let n = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress! + got, $0.count - got, off_t(offset + got)) }
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { break }
                got += n
            }
            return Array(bytes.prefix(got))
        }
    }

    /// The XMP packets of the JPEG's APP1 segments, in order, up to its first scan.
    static func xmpPackets(_ head: [UInt8]) -> [ArraySlice<UInt8>] {
        var packets: [ArraySlice<UInt8>] = []
        var i = 2
        while i + 4 <= head.count {
            guard head[i] == 0xFF else { break }
            let marker = head[i + 1]
            if marker == 0xFF { i += 1; continue }  // fill bytes
            if marker == 0xD8 || (0xD0...0xD7).contains(marker) || marker == 0x01 { i += 2; continue }
            if marker == 0xDA || marker == 0xD9 { break }  // the scan (or the end) begins
            let length = Int(head[i + 2]) << 8 | Int(head[i + 3])
            guard length >= 2 else { break }
            let body = i + 4, end = i + 2 + length
            guard end <= head.count else { break }
            if marker == 0xE1, end - body > xmpSignature.count, head[body..<(body + xmpSignature.count)].elementsEqual(xmpSignature) {
                packets.append(head[(body + xmpSignature.count)..<end])
            }
            i = end
        }
        return packets
    }

    /// The clip an XMP packet points to in a file of `size` bytes.
    static func fromXMP(_ xmp: ArraySlice<UInt8>, size: Int) -> ByteRange? {
        let text = String(decoding: xmp, as: UTF8.self)
        if value(of: "MotionPhoto", in: text) == "1" {
            // The directory's MotionPhoto item: its length, counted back from the end.
            for item in elements(containing: "Semantic=\"MotionPhoto\"", in: text) {
                if let n = value(of: "Length", in: item).flatMap(Int.init), let r = tail(n, of: size) { return r }
            }
        }
        if value(of: "MicroVideo", in: text) == "1", let n = value(of: "MicroVideoOffset", in: text).flatMap(Int.init) {
            return tail(n, of: size)
        }
        return nil
    }

    /// The last `n` bytes of a file of `size`, when they can be a clip after a picture.
    static func tail(_ n: Int, of size: Int) -> ByteRange? {
        guard n >= minClipBytes, n < size - 4 else { return nil }
        return ByteRange(start: size - n, length: n)
    }

    /// Samsung's marker, the MP4 straight after it, in the file's last `tailBytes`.
    static func fromTrailer(size: Int, read: (Int, Int) -> [UInt8]?) -> ByteRange? {
        let from = max(2, size - tailBytes)
        guard let bytes = read(from, size - from) else { return nil }
        let m = samsungMarker
        var i = bytes.count - m.count - minClipBytes
        while i >= 0 {
            if bytes[i] == m[0], bytes[i..<(i + m.count)].elementsEqual(m) {
                let start = from + i + m.count
                let range = ByteRange(start: start, length: size - start)
                if startsWithMP4(range, read: read) { return range }
            }
            i -= 1
        }
        return nil
    }

    /// Whether `range` begins with an MP4 `ftyp` box that fits in it.
    static func startsWithMP4(_ range: ByteRange, read: (Int, Int) -> [UInt8]?) -> Bool {
        guard range.length >= minClipBytes, let b = read(range.start, 12), b.count == 12 else { return false }
        let boxSize = Int(b[0]) << 24 | Int(b[1]) << 16 | Int(b[2]) << 8 | Int(b[3])
        return b[4..<8].elementsEqual(Array("ftyp".utf8)) && boxSize >= 8 && boxSize <= range.length
    }

    /// An attribute's or element's value by its local name (any namespace prefix):
    /// `p:Name="v"` or `<p:Name>v</p:Name>`.
    static func value(of name: String, in text: String) -> String? {
        for quote in ["\"", "'"] {
            if let r = text.range(of: ":\(name)=\(quote)") {
                let rest = text[r.upperBound...]
                if let end = rest.firstIndex(of: Character(quote)) { return String(rest[..<end]).trimmed }
            }
        }
        if let r = text.range(of: ":\(name)>") {
            let rest = text[r.upperBound...]
            if let end = rest.firstIndex(of: "<") { return String(rest[..<end]).trimmed }
        }
        return nil
    }

    /// The tags (from `<` to `>`) in which `needle` occurs: the first 16 (a directory has
    /// two or three items; a packet repeating the needle thousands of times would otherwise
    /// cost a scan back for each).
    static func elements(containing needle: String, in text: String) -> [String] {
        var found: [String] = []
        var from = text.startIndex
        while found.count < 16, let r = text.range(of: needle, range: from..<text.endIndex) {
            let open = text[..<r.lowerBound].lastIndex(of: "<") ?? text.startIndex
            let close = text[r.upperBound...].firstIndex(of: ">") ?? text.endIndex
            found.append(String(text[open..<close]))
            from = r.upperBound
        }
        return found
    }
}

private extension String {
    var trimmed: String {
        String(drop { $0 == " " || $0 == "\n" || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\n" || $0 == "\t" }.reversed())
    }
}
