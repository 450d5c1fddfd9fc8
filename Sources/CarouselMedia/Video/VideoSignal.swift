/// What a decoded video stream's samples mean: how many bits, which Y'CbCr matrix and range,
/// which transfer (SDR's gamma, HDR's HLG or PQ) and which primaries. A phone's HDR clip
/// (an iPhone's HEVC 10-bit HLG, an Android's HDR10) is 10-bit BT.2020 HLG or PQ; the screen
/// shows 8-bit BT.709 SDR, which `VideoToneMapper` makes of it.
public struct VideoSignal: Equatable, Sendable {
    public enum Matrix: Sendable { case bt601, bt709, bt2020 }
    public enum Transfer: Sendable {
        /// BT.709's, BT.601's or sRGB's gamma: shown as it is.
        case sdr
        /// BT.2100's hybrid log-gamma (ARIB STD-B67): iPhones since the 12, many Android phones.
        case hlg
        /// BT.2100's perceptual quantizer (SMPTE ST 2084): HDR10.
        case pq
    }
    public enum Primaries: Sendable {
        /// BT.709's (and sRGB's; BT.601's are close enough to show as these).
        case bt709
        /// BT.2020's wide gamut.
        case bt2020
    }

    /// Bits a sample: 8, 10 or 12.
    public var bitDepth: Int
    public var matrix: Matrix
    /// Full range (0–1023 at 10 bits) rather than limited (64–940).
    public var fullRange: Bool
    public var transfer: Transfer
    public var primaries: Primaries
    /// The brightest the clip was mastered for, in cd/m² (HDR10's mastering display, its
    /// content light level); nil when the clip does not say.
    public var peakLuminance: Double?

    public init(bitDepth: Int = 8, matrix: Matrix = .bt709, fullRange: Bool = false, transfer: Transfer = .sdr,
                primaries: Primaries = .bt709, peakLuminance: Double? = nil) {
        self.bitDepth = bitDepth
        self.matrix = matrix
        self.fullRange = fullRange
        self.transfer = transfer
        self.primaries = primaries
        self.peakLuminance = peakLuminance
    }

    /// Whether its colours need more than a change of depth to be right on an SDR screen:
    /// HDR, a wide gamut, or a matrix the screen's YUV conversion does not have (BT.2020's,
    /// full-range BT.709's).
    public var needsMapping: Bool {
        transfer != .sdr || primaries != .bt709 || matrix == .bt2020 || (fullRange && matrix == .bt709)
    }
}
