/// What a picture's file says its pixel values mean as colours. A picture that says
/// nothing is sRGB, the web's and every camera's default, and costs nothing to show.
public enum EmbeddedColour: Equatable, Sendable {
    /// No colour information, or sRGB declared.
    case sRGB
    /// An ICC profile embedded in the file (JPEG APP2, PNG iCCP, WebP ICCP, HEIF colr prof,
    /// JPEG XL's own), as its bytes.
    case icc([UInt8])
    /// Primaries, white point and transfer curve given as numbers (PNG gAMA and cHRM,
    /// HEIF/AVIF nclx, JPEG XL's colour encoding).
    case described(ColourDescription)
    /// Colour information carousel cannot use (a damaged profile, an HDR transfer): shown
    /// as sRGB, and `reason` said once.
    case unusable(reason: String)
}

/// An RGB colour space by its primaries' and white point's chromaticities (CIE xy) and its
/// transfer curve: enough to build the profile of any matrix-and-curve colour space.
public struct ColourDescription: Equatable, Sendable {
    public struct Chromaticity: Equatable, Sendable {
        public var x: Double
        public var y: Double
        public init(_ x: Double, _ y: Double) { self.x = x; self.y = y }
    }

    public enum Transfer: Equatable, Sendable {
        /// IEC 61966-2-1's piecewise curve.
        case sRGB
        /// A pure power: value = encoded ^ exponent (2.2 for a PNG gAMA of 45455).
        case gamma(Double)
        case linear
    }

    public var red: Chromaticity
    public var green: Chromaticity
    public var blue: Chromaticity
    public var white: Chromaticity
    public var transfer: Transfer

    public init(red: Chromaticity, green: Chromaticity, blue: Chromaticity, white: Chromaticity, transfer: Transfer) {
        self.red = red; self.green = green; self.blue = blue; self.white = white; self.transfer = transfer
    }

    static let d65 = Chromaticity(0.3127, 0.3290)
    /// BT.709's primaries, sRGB's.
    static let bt709 = (Chromaticity(0.64, 0.33), Chromaticity(0.30, 0.60), Chromaticity(0.15, 0.06))
    /// SMPTE EG 432-1, Display P3 (iPhone photos).
    static let p3 = (Chromaticity(0.680, 0.320), Chromaticity(0.265, 0.690), Chromaticity(0.150, 0.060))
    static let bt2020 = (Chromaticity(0.708, 0.292), Chromaticity(0.170, 0.797), Chromaticity(0.131, 0.046))

    /// The colour of ITU-T H.273 code points (HEIF/AVIF nclx, PNG cICP): sRGB for BT.709
    /// primaries with an SDR curve, a description for Display P3 and BT.2020, and unusable
    /// for what an 8-bit SDR screen cannot show (PQ and HLG) or a code point not listed.
    /// BT.709's and BT.2020's camera curves (1, 6, 14, 15) are shown with sRGB's, as
    /// browsers show such pictures. 2 is "unspecified".
    public static func h273(primaries: Int, transfer: Int) -> EmbeddedColour {
        let curve: Transfer
        switch transfer {
        case 1, 2, 6, 13, 14, 15: curve = .sRGB
        case 4: curve = .gamma(2.2)
        case 5: curve = .gamma(2.8)
        case 8: curve = .linear
        default:
            let name = transfer == 16 ? "PQ (HDR)" : transfer == 18 ? "HLG (HDR)" : "\(transfer)"
            return .unusable(reason: "its transfer curve \(name) is not one carousel shows; shown as sRGB")
        }
        let p: (Chromaticity, Chromaticity, Chromaticity)
        switch primaries {
        case 1, 2: if curve == .sRGB { return .sRGB }; p = bt709
        case 9: p = bt2020
        case 12: p = p3
        default: return .unusable(reason: "its colour primaries \(primaries) are not ones carousel converts; shown as sRGB")
        }
        return .described(ColourDescription(red: p.0, green: p.1, blue: p.2, white: d65, transfer: curve))
    }

    /// A PNG's gAMA (and cHRM when present; BT.709's primaries otherwise). `gamma` is the
    /// chunk's value, the encoding exponent × 100,000; a gAMA within 1 % of sRGB's 1/2.2
    /// without cHRM is sRGB (what libpng and browsers take it as).
    public static func png(gamma: Int, chromaticities: [Double]?) -> EmbeddedColour {
        guard gamma > 0 else { return .unusable(reason: "its gAMA chunk is 0; shown as sRGB") }
        let exponent = 100_000 / Double(gamma)
        if chromaticities == nil && abs(exponent - 2.2) < 0.022 { return .sRGB }
        guard exponent > 0.2 && exponent < 5 else {
            return .unusable(reason: "its gAMA chunk (\(gamma)) is not a believable gamma; shown as sRGB")
        }
        var d = ColourDescription(red: bt709.0, green: bt709.1, blue: bt709.2, white: d65, transfer: .gamma(exponent))
        if let c = chromaticities, c.count == 8, c.allSatisfy({ $0 > 0 && $0 < 1 }) {
            d.white = Chromaticity(c[0], c[1]); d.red = Chromaticity(c[2], c[3])
            d.green = Chromaticity(c[4], c[5]); d.blue = Chromaticity(c[6], c[7])
        }
        return .described(d)
    }
}
