import Foundation

/// Video clips made by the reference encoder (ffmpeg, installed by kiosk/setup) for the
/// tests: each second of a clip one solid colour, so the frame shown at any time can be
/// told by its colour.
public enum ClipFixtures {
    /// How a clip is encoded: the container's extension, ffmpeg's codec and its options.
    public struct Kind: Sendable, CustomStringConvertible {
        public var ext: String
        public var codec: [String]
        /// The sound's codec, as a phone or an editor pairs it with the picture's.
        public var soundCodec: [String]
        /// The frame rate the codec must have, when it cannot take any (MPEG-2's are fixed).
        public var rate: Int? = nil
        /// Whether the container says the clip's length (an MPEG stream's is not known).
        public var saysLength = true
        public var description: String { "\(ext) (\(codec.joined(separator: " ")))" }

        public static let h264MP4 = Kind(ext: "mp4", codec: ["-c:v", "libx264", "-preset", "ultrafast", "-movflags", "+faststart"],
                                         soundCodec: ["-c:a", "aac"])
        public static let hevcMOV = Kind(ext: "mov", codec: ["-c:v", "libx265", "-preset", "ultrafast", "-tag:v", "hvc1", "-x265-params", "log-level=none"],
                                         soundCodec: ["-c:a", "aac"])
        public static let vp9WebM = Kind(ext: "webm", codec: ["-c:v", "libvpx-vp9", "-deadline", "realtime", "-cpu-used", "8"],
                                         soundCodec: ["-c:a", "libopus"])
        public static let av1MKV = Kind(ext: "mkv", codec: ["-c:v", "libaom-av1", "-cpu-used", "8", "-usage", "realtime"],
                                        soundCodec: ["-c:a", "libvorbis"])
        /// A camera's or dash cam's AVI: Motion JPEG and PCM sound.
        public static let mjpegAVI = Kind(ext: "avi", codec: ["-c:v", "mjpeg", "-q:v", "3"], soundCodec: ["-c:a", "pcm_s16le"])
        /// A camcorder's AVCHD: H.264 and AC-3 in an MPEG transport stream.
        public static let avchdMTS = Kind(ext: "mts", codec: ["-c:v", "libx264", "-preset", "ultrafast", "-f", "mpegts"],
                                          soundCodec: ["-c:a", "ac3"], saysLength: false)
        /// An older camcorder's or a DVD's: MPEG-2 and MP2 in a program stream.
        public static let mpeg2MPG = Kind(ext: "mpg", codec: ["-c:v", "mpeg2video", "-q:v", "3", "-f", "vob"], soundCodec: ["-c:a", "mp2"],
                                          rate: 25, saysLength: false)
        public static let all = [h264MP4, hevcMOV, vp9WebM, av1MKV, mjpegAVI, avchdMTS, mpeg2MPG]
    }

    /// The colours ffmpeg's `color` source takes, and what they are in RGB.
    public static let colours: [(name: String, rgb: (UInt8, UInt8, UInt8))] = [
        ("red", (255, 0, 0)), ("lime", (0, 255, 0)), ("blue", (0, 0, 255)), ("white", (255, 255, 255)),
        // A colour a profile or a gamma visibly moves (the four above are at the gamut's ends).
        ("0x806040", (128, 96, 64)),
    ]

    /// The tone of each colour's second in a clip with sound, Hz.
    public static let tones = [440.0, 660, 880, 1320]

    /// A clip of `seconds.count` seconds, second n all `colours[seconds[n]]`, `width` ×
    /// `height` at `rate` frames a second, written to `folder/name.ext`. Returns its path.
    /// `rotate`: the container's display rotation in degrees (a phone's portrait clip: 90).
    /// `sound`: with a sound stream, second n a sine of `tones[seconds[n]]` at 44.1 kHz (so
    /// the helper resamples it), mono (so it mixes it up to two channels).
    @discardableResult
    public static func make(_ kind: Kind, seconds: [Int] = [0, 1, 2], width: Int = 320, height: Int = 240, rate: Int = 30,
                            in folder: String, name: String = "clip", rotate: Int? = nil, sound: Bool = false) throws -> String {
        let rate = kind.rate ?? rate
        var args = ["-hide_banner", "-loglevel", "error", "-y"]
        for s in seconds {
            args += ["-f", "lavfi", "-i", "color=c=\(colours[s].name):size=\(width)x\(height):rate=\(rate):duration=1"]
            if sound { args += ["-f", "lavfi", "-i", "sine=frequency=\(tones[s]):sample_rate=44100:duration=1"] }
        }
        if sound {
            let inputs = seconds.indices.map { "[\(2 * $0)][\(2 * $0 + 1)]" }.joined()
            args += ["-filter_complex", "\(inputs)concat=n=\(seconds.count):v=1:a=1[v][a];[v]format=yuv420p[vo]",
                     "-map", "[vo]", "-map", "[a]"] + kind.codec + kind.soundCodec
        } else {
            let inputs = seconds.indices.map { "[\($0)]" }.joined()
            args += ["-filter_complex", "\(inputs)concat=n=\(seconds.count):v=1:a=0,format=yuv420p"] + kind.codec
        }
        let path = folder + "/" + name + "." + kind.ext
        try ffmpeg(args + [path], making: "\(kind)")
        if let rotate { try turn(path, degrees: rotate) }
        return path
    }

    /// The tone (Hz) of `count` sample frames of 48 kHz 16-bit stereo from `start`, by its
    /// zero crossings (left channel).
    public static func tone(of samples: [UInt8], from start: Int, count: Int) -> Double {
        let start = max(0, start)
        func left(_ i: Int) -> Int16 { Int16(bitPattern: UInt16(samples[i * 4]) | UInt16(samples[i * 4 + 1]) << 8) }
        var crossings = 0
        let end = min(start + count, samples.count / 4)
        guard end - start > 1 else { return 0 }
        for i in (start + 1)..<end where (left(i - 1) < 0) != (left(i) < 0) { crossings += 1 }
        return Double(crossings) / 2 / (Double(end - start) / 48_000)
    }

    /// Sets the display rotation of an MP4 or MOV's first track (its `tkhd` matrix), as a
    /// phone records a portrait clip: the frames stay stored as they are (ffmpeg 5.1 no
    /// longer writes the `rotate` tag).
    public static func turn(_ path: String, degrees: Int) throws {
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let tag = Array("tkhd".utf8)
        guard let at = (4..<(bytes.count - 4)).first(where: { Array(bytes[$0..<($0 + 4)]) == tag }) else {
            throw ClipFailure(text: "\(path) has no tkhd box")
        }
        let version = bytes[at + 4]
        let matrix = at + 4 + 4 + (version == 1 ? 32 : 20) + 8 + 8
        let one: Int32 = 0x10000, w: Int32 = 0x4000_0000
        let values: [Int32]
        switch degrees {
        case 90: values = [0, one, 0, -one, 0, 0, 0, 0, w]
        case 180: values = [-one, 0, 0, 0, -one, 0, 0, 0, w]
        case 270: values = [0, -one, 0, one, 0, 0, 0, 0, w]
        default: values = [one, 0, 0, 0, one, 0, 0, 0, w]
        }
        for (i, v) in values.enumerated() {
            let u = UInt32(bitPattern: v)
            for k in 0..<4 { bytes[matrix + i * 4 + k] = UInt8(truncatingIfNeeded: u >> UInt32(24 - 8 * k)) }
        }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }

    /// How a phone marks the clip it appended to a Motion Photo's JPEG.
    public enum MotionForm: Sendable, CaseIterable {
        /// Motion Photo 1.0: `GCamera:MotionPhoto` and a `Container:Directory` item's length.
        case container
        /// The older MicroVideo: `GCamera:MicroVideo` and `MicroVideoOffset` from the end.
        case microVideo
        /// Samsung's: `MotionPhoto_Data` before the MP4 and a SEF trailer, no XMP.
        case samsung
    }

    /// A Motion Photo: the JPEG `still` with the XMP `form` asks for after its SOI, and the
    /// MP4 `clip` appended, as a phone's camera writes it.
    public static func motionPhoto(still: [UInt8], clip: [UInt8], form: MotionForm) -> [UInt8] {
        precondition(still.count > 2 && still[0] == 0xFF && still[1] == 0xD8)
        var xmp: String?
        switch form {
        case .container:
            xmp = """
            <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
            <rdf:Description rdf:about="" xmlns:GCamera="http://ns.google.com/photos/1.0/camera/"
             xmlns:Container="http://ns.google.com/photos/1.0/container/" xmlns:Item="http://ns.google.com/photos/1.0/container/item/"
             GCamera:MotionPhoto="1" GCamera:MotionPhotoVersion="1" GCamera:MotionPhotoPresentationTimestampUs="0">
            <Container:Directory><rdf:Seq>
            <rdf:li rdf:parseType="Resource"><Container:Item Item:Mime="image/jpeg" Item:Semantic="Primary" Item:Length="0" Item:Padding="0"/></rdf:li>
            <rdf:li rdf:parseType="Resource"><Container:Item Item:Mime="video/mp4" Item:Semantic="MotionPhoto" Item:Length="\(clip.count)" Item:Padding="0"/></rdf:li>
            </rdf:Seq></Container:Directory></rdf:Description></rdf:RDF></x:xmpmeta>
            """
        case .microVideo:
            xmp = """
            <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
            <rdf:Description rdf:about="" xmlns:GCamera="http://ns.google.com/photos/1.0/camera/"
             GCamera:MicroVideo="1" GCamera:MicroVideoVersion="1" GCamera:MicroVideoOffset="\(clip.count)"
             GCamera:MicroVideoPresentationTimestampUs="0"/></rdf:RDF></x:xmpmeta>
            """
        case .samsung:
            xmp = nil
        }
        var out: [UInt8] = [0xFF, 0xD8]
        if let xmp {
            let body = Array("http://ns.adobe.com/xap/1.0/\0".utf8) + Array(xmp.utf8)
            out += [0xFF, 0xE1, UInt8((body.count + 2) >> 8), UInt8((body.count + 2) & 0xFF)] + body
        }
        out += still[2...]
        if form == .samsung {
            // The clip after its marker, then a SEF directory of one entry and its trailer.
            let marker = Array("MotionPhoto_Data".utf8)
            let data = [0, 0, 0x30, 0x0A] + le32(marker.count) + marker + clip
            let header = Array("SEFH".utf8) + le32(106) + le32(1) + [0, 0, 0x30, 0x0A] + le32(data.count) + le32(data.count)
            out += data + header + le32(header.count) + Array("SEFT".utf8)
        } else {
            out += clip
        }
        return out
    }

    private static func le32(_ v: Int) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: v >> (8 * $0)) } }

    /// The animated formats ffmpeg writes.
    public enum Animated: String, CaseIterable, Sendable { case gif, webp, apng }

    /// An animated GIF, WebP or PNG by ffmpeg: colour n all `colours[frames[n]]` for
    /// `frameMs` (a multiple of 100: ffmpeg writes frames of 100 ms, and drops the last of a
    /// file of a few long ones), `width` × `height`, written to `folder/name.gif|webp|png`.
    /// `loop`: the muxer's (GIF: 0 for ever, -1 once, N repeats after the first; WebP and
    /// APNG: 0 for ever, N plays).
    @discardableResult
    /// `leftBlue`: the left half of every frame blue (a frame whose turn can be seen).
    public static func animation(_ format: Animated = .gif, frames: [Int], frameMs: Int = 200, loop: Int = 0, width: Int = 320,
                                 height: Int = 240, in folder: String, name: String = "anim", leftBlue: Bool = false) throws -> String {
        var args = ["-hide_banner", "-loglevel", "error", "-y"]
        for f in frames {
            let half = leftBlue ? ",drawbox=x=0:y=0:w=\(width / 2):h=\(height):color=blue:t=fill" : ""
            args += ["-f", "lavfi", "-i", "color=c=\(colours[f].name):size=\(width)x\(height):rate=10:duration=\(Double(frameMs) / 1000)\(half)"]
        }
        let inputs = frames.indices.map { "[\($0)]" }.joined()
        // A GIF's palette made from its frames: ffmpeg's default one has four blues.
        let palette = format == .gif ? ",split[a][b];[a]palettegen=reserve_transparent=0[p];[b][p]paletteuse" : ""
        args += ["-filter_complex", "\(inputs)concat=n=\(frames.count):v=1:a=0\(palette)"]
        switch format {
        case .gif: args += ["-loop", "\(loop)"]
        case .webp: args += ["-c:v", "libwebp_anim", "-lossless", "1", "-loop", "\(loop)"]
        case .apng: args += ["-plays", "\(loop)", "-f", "apng"]
        }
        let path = folder + "/" + name + "." + (format == .apng ? "png" : format.rawValue)
        try ffmpeg(args + [path], making: path)
        return path
    }

    /// A Live Photo's still as an iPhone writes it: `jpeg` with an Exif APP1 holding an Apple maker note whose content identifier
    /// (tag 0x0011) is `identifier`, as an iPhone writes a Live Photo's still: IFD0 → the Exif
    /// IFD → the maker note ("Apple iOS", its own IFD, offsets from the note's start).
    public static func liveStill(_ jpeg: [UInt8], identifier: String) -> [UInt8] {
        func u16(_ v: Int) -> [UInt8] { [UInt8(v >> 8 & 255), UInt8(v & 255)] }
        func u32(_ v: Int) -> [UInt8] { u16(v >> 16) + u16(v & 0xFFFF) }
        let text = Array(identifier.utf8) + [0]
        var note = Array("Apple iOS\0".utf8) + [0, 1] + Array("MM".utf8)
        note += u16(1) + u16(0x0011) + u16(2) + u32(text.count) + u32(14 + 2 + 12 + 4) + u32(0) + text
        var tiff = Array("MM".utf8) + u16(42) + u32(8)
        tiff += u16(1) + u16(0x8769) + u16(4) + u32(1) + u32(8 + 18) + u32(0)             // IFD0: the Exif IFD
        tiff += u16(1) + u16(0x927C) + u16(7) + u32(note.count) + u32(8 + 18 + 18) + u32(0)  // Exif IFD: the maker note
        tiff += note
        let body = Array("Exif\0\0".utf8) + tiff
        let length = body.count + 2
        return Array(jpeg[0..<2]) + [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 255)] + body + Array(jpeg[2...])
    }

    /// A Live Photo's motion as an iPhone writes it: a short QuickTime clip, with Apple's
    /// content identifier in its `mdta` metadata (`keys` and `ilst`) when one is given.
    public static func liveMotion(identifier: String?, in folder: String, name: String) throws -> String {
        let path = folder + "/" + name
        // An .MP4 as Google Takeout's export of a Live Photo's motion: MP4, the identifier kept.
        let format = name.lowercased().hasSuffix(".mp4") ? "mp4" : "mov"
        try ffmpeg(["-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi", "-i", "color=c=red:size=64x48:rate=10:duration=0.5",
                    "-c:v", "libx264", "-pix_fmt", "yuv420p", "-f", format]
                   + (identifier.map { ["-movflags", "use_metadata_tags", "-metadata", "com.apple.quicktime.content.identifier=\($0)"] } ?? [])
                   + [path], making: path)
        return path
    }

    /// What a clip's samples mean, as ffmpeg names them: its transfer (`arib-std-b67`: HLG,
    /// `smpte2084`: PQ, `bt709`: SDR), primaries, matrix (`bt2020nc`, `bt709`, `smpte170m`),
    /// range (`tv`: limited, `pc`: full) and sample format (`yuv420p`, `yuv420p10le`,
    /// `yuv420p12le`).
    public struct Signal: Sendable, CustomStringConvertible {
        public var transfer: String, primaries: String, matrix: String, range: String, format: String
        public init(transfer: String, primaries: String = "bt2020", matrix: String = "bt2020nc", range: String = "tv",
                    format: String = "yuv420p10le") {
            (self.transfer, self.primaries, self.matrix, self.range, self.format) = (transfer, primaries, matrix, range, format)
        }
        public var description: String { "\(transfer) \(primaries) \(matrix) \(range) \(format)" }
        /// zscale's names for the same.
        var zscale: String {
            let m = ["bt2020nc": "2020_ncl", "bt709": "709", "smpte170m": "170m"][matrix] ?? matrix
            let t = transfer == "bt709" ? "709" : transfer
            let p = primaries == "bt709" ? "709" : primaries
            return "t=\(t):p=\(p):m=\(m):r=\(range == "pc" ? "full" : "limited")"
        }
        public static let hlg = Signal(transfer: "arib-std-b67")
        public static let pq = Signal(transfer: "smpte2084")
    }

    /// A clip as phones write them: HEVC 4:2:0 in a MOV (`hvc1`), 30 frames a second for
    /// `seconds`, its four quadrants `hdrColours` (sRGB) turned into `signal` by ffmpeg's zscale
    /// (libzimg; 100 cd/m² is sRGB's white for HLG and PQ; an SDR signal keeps its values as
    /// R'G'B', as SDR video is shown), encoded by x265 with the same colour description in
    /// the stream and the container. An HLG one is an iPhone's, PQ HDR10's.
    public static func hdr(transfer: String, in folder: String, seconds: Double = 1, width: Int = 320, height: Int = 192) throws -> String {
        try clip(Signal(transfer: transfer), in: folder, seconds: seconds, width: width, height: height)
    }

    public static func clip(_ signal: Signal, in folder: String, seconds: Double = 1, width: Int = 320, height: Int = 192) throws -> String {
        let path = folder + "/\(signal.description.replacingOccurrences(of: " ", with: "-")).mov"
        let (w, h) = (width / 2, height / 2)
        let sources = hdrColours.enumerated().map { i, c in
            String(format: "color=c=0x%02X%02X%02X:s=\(w)x\(h):d=\(seconds):r=30[q\(i)]", c.0, c.1, c.2)
        }.joined(separator: ";")
        // An SDR signal's R'G'B' are taken as they are (no change of transfer).
        let from = signal.transfer == "bt709" ? "tin=709" : "tin=iec61966-2-1"
        let graph = sources + ";[q0][q1]hstack[top];[q2][q3]hstack[bottom];[top][bottom]vstack,format=gbrp,"
            + "zscale=\(from):pin=709:min=gbr:rin=full:\(signal.zscale),format=\(signal.format)"
        let x265Range = signal.range == "pc" ? "full" : "limited"
        try ffmpeg(["-hide_banner", "-loglevel", "error", "-y", "-filter_complex", graph,
                    "-c:v", "libx265", "-preset", "ultrafast", "-tag:v", "hvc1",
                    "-x265-params", "log-level=none:colorprim=\(signal.primaries):transfer=\(signal.transfer):colormatrix=\(signal.matrix):range=\(x265Range)",
                    "-color_primaries", signal.primaries, "-color_trc", signal.transfer, "-colorspace", signal.matrix,
                    "-color_range", signal.range, path],
                   making: path)
        return path
    }

    /// `hdr`'s HLG clip as an iPhone writes it: its `hvc1` sample entry also carries a Dolby
    /// Vision configuration (`dvcC`: profile 8.4, an HLG base layer any HEVC decoder plays),
    /// and it is turned by its track's matrix (a portrait clip: `degrees`).
    public static func iPhoneHLG(in folder: String, degrees: Int = 90) throws -> String {
        let path = try hdr(transfer: "arib-std-b67", in: folder)
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        func last(_ tag: String, before end: Int) -> Int? {
            let t = Array(tag.utf8)
            return stride(from: end - 4, through: 4, by: -1).first { Array(bytes[$0..<($0 + 4)]) == t }.map { $0 - 4 }
        }
        guard let hvcC = last("hvcC", before: bytes.count), let moov = last("moov", before: bytes.count),
              let mdat = last("mdat", before: bytes.count), mdat < moov else {
            throw ClipFailure(text: "\(path): no hvcC in a moov after its mdat")
        }
        // DOVIDecoderConfigurationRecord 1.0: profile 8, level 4, an RPU and a base layer,
        // the base layer's compatibility 4 (HLG); the rest reserved.
        var record: [UInt8] = [1, 0, 0x10, 0x25, 0x40]
        record += [UInt8](repeating: 0, count: 24 - record.count)
        let box = be32(8 + record.count) + Array("dvcC".utf8) + record
        let hvcCSize = Int(bytes[hvcC]) << 24 | Int(bytes[hvcC + 1]) << 16 | Int(bytes[hvcC + 2]) << 8 | Int(bytes[hvcC + 3])
        // Each box holding it grows by its size (the sample data, before them, stays where it was).
        for parent in ["hvc1", "stsd", "stbl", "minf", "mdia", "trak", "moov"] {
            guard let at = last(parent, before: hvcC) else { throw ClipFailure(text: "\(path): no \(parent) above its hvcC") }
            let size = Int(bytes[at]) << 24 | Int(bytes[at + 1]) << 16 | Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
            bytes.replaceSubrange(at..<(at + 4), with: be32(size + box.count))
        }
        bytes.insert(contentsOf: box, at: hvcC + hvcCSize)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        try turn(path, degrees: degrees)
        return path
    }

    /// `original` damaged as zzuf damages a file: each bit flipped with chance `ratio` (0.004
    /// is zzuf's `-r 0.004`), all through it.
    public static func scattered<R: RandomNumberGenerator>(_ original: [UInt8], ratio: Double, using random: inout R) -> [UInt8] {
        var bytes = original
        for i in bytes.indices {
            for bit in 0..<8 where Double.random(in: 0..<1, using: &random) < ratio { bytes[i] ^= 1 << UInt8(bit) }
        }
        return bytes
    }

    private static func be32(_ v: Int) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: v >> (24 - 8 * $0)) } }

    /// The four colours of `hdr`'s quadrants (left to right, top to bottom): a red, a green,
    /// a skin tone and a grey.
    public static let hdrColours: [(UInt8, UInt8, UInt8)] = [(200, 40, 40), (40, 160, 60), (225, 180, 150), (120, 120, 120)]

    /// What ffmpeg makes of the first frame of `path` at (`x`, `y`) as stored (not turned): its code values
    /// (Y, Cb, Cr at 10 bits) and zscale's conversion of it to sRGB (`sdr`: to BT.709's R'G'B',
    /// as SDR video is shown; libzimg's own reading of
    /// the clip's transfer and primaries, 100 cd/m² as white), 0–255.
    public static func ffmpegReading(_ path: String, x: Int, y: Int, sdr: Bool = false) throws -> (codes: [Int], srgb: [Int]) {
        let x = x & ~1, y = y & ~1
        let codes = try OutsideProgram.ffmpeg.runBytes(["-v", "error", "-autorotate", "0", "-i", path, "-vf", "crop=2:2:\(x):\(y)", "-frames:v", "1",
                                                        "-f", "rawvideo", "-pix_fmt", "yuv444p10le", "-"])
        let rgb = try OutsideProgram.ffmpeg.runBytes(["-v", "error", "-autorotate", "0", "-i", path, "-vf",
                                                      "zscale=t=\(sdr ? "709" : "iec61966-2-1"):p=bt709:m=gbr:r=full,format=gbrp,crop=2:2:\(x):\(y),format=rgb24",
                                                      "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "rgb24", "-"])
        guard codes.count == 24, rgb.count == 12 else { throw ClipFailure(text: "ffmpeg read \(codes.count) and \(rgb.count) bytes of \(path)") }
        let sample = { (i: Int) in Int(codes[2 * i]) | Int(codes[2 * i + 1]) << 8 }
        return ([sample(0), sample(4), sample(8)], [Int(rgb[0]), Int(rgb[1]), Int(rgb[2])])
    }

    /// Runs ffmpeg; what it said when it failed.
    public static func ffmpeg(_ args: [String], making what: String) throws {
        let p = Process()
        p.executableURL = try OutsideProgram.ffmpeg.url
        p.arguments = args
        p.standardOutput = FileHandle.nullDevice
        let errors = Pipe()
        p.standardError = errors
        try p.run()
        let said = errors.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        guard p.terminationStatus == 0 else {
            throw ClipFailure(text: "ffmpeg could not make \(what): \(String(decoding: said, as: UTF8.self))")
        }
    }

    public struct ClipFailure: Error, CustomStringConvertible {
        public var text: String
        public var description: String { text }
    }
}
