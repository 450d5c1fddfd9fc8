/// Which decoders play clips (`--video-decoder`).
public enum VideoDecoders: Sendable, Hashable, RawRepresentable {
    /// The decoder of the highest rank: a hardware one where the machine has it (V4L2 on a
    /// Raspberry Pi, VA-API on Intel and AMD), else software.
    case auto
    /// Software only (libav, libvpx, libaom), never a hardware decoder.
    case software
    /// This GStreamer decoder first wherever it can play the clip (`v4l2h264dec`,
    /// `v4l2slh265dec`, `vah265dec`, `avdec_h264`), the others as `auto` where it cannot.
    case named(String)

    /// "auto", "software", or a GStreamer element's name (letters, digits, `_` and `-`, at
    /// most 64); nil for anything else.
    public init?(rawValue: String) {
        switch rawValue {
        case "auto": self = .auto
        case "software": self = .software
        default:
            guard (1...64).contains(rawValue.utf8.count),
                  rawValue.utf8.allSatisfy({ (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) || $0 == 0x5F || $0 == 0x2D }),
                  rawValue.utf8.first.map({ (0x61...0x7A).contains($0) }) == true else { return nil }
            self = .named(rawValue)
        }
    }

    public var rawValue: String {
        switch self {
        case .auto: "auto"
        case .software: "software"
        case .named(let name): name
        }
    }
}
