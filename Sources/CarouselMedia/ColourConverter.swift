import CarouselCore
import CLCMS

/// The only file of this module that calls Little CMS: turns decoded pixels into the
/// screen's colours. Pictures are converted from their embedded colour (`EmbeddedColour`)
/// into sRGB, or into the screen's own profile when one is given (`--display-profile`).
/// The intent is perceptual where the picture's profile has a perceptual table (LUT
/// profiles: printers' CMYK, some camera profiles), else relative colorimetric with black
/// point compensation (matrix profiles: sRGB, Adobe RGB, ProPhoto, Display P3). Converting
/// runs on the fitted picture, not the decoded one: a slot's pixels, not a camera's.
public struct ColourConverter: Sendable {
    /// The screen's profile (an ICC file's bytes); nil: sRGB.
    public let display: [UInt8]?
    /// Off only to measure what converting costs (`carousel bench`) and in tests.
    public let honoursProfiles: Bool
    /// The transforms made so far, kept for the next picture with the same profile; only
    /// where one thread converts (a decoder helper). Nil: each is made and freed.
    let transforms: ColourTransformCache?

    /// `keepsTransforms`: for a single decoding thread (a helper), which converts a camera's
    /// or phone's pictures, all with one profile, without making its transform each time
    /// (about 2.5 ms a picture).
    public init(display: [UInt8]? = nil, keepsTransforms: Bool = false) {
        self.display = display
        honoursProfiles = true
        transforms = keepsTransforms ? ColourTransformCache() : nil
    }

    private init(ignoringProfiles: Void) {
        display = nil
        honoursProfiles = false
        transforms = nil
    }

    /// Leaves every picture's values as they are, whatever its file says.
    public static let ignoringProfiles = ColourConverter(ignoringProfiles: ())

    /// Whether `bytes` are an RGB output profile Little CMS can use, else why not.
    public static func checkDisplayProfile(_ bytes: [UInt8]) -> String? {
        guard let p = open(bytes) else { return "is not an ICC profile Little CMS can read" }
        defer { cmsCloseProfile(p) }
        guard cmsGetColorSpace(p) == cmsSigRgbData else { return "is not an RGB profile (a screen's profile is RGB)" }
        guard cmsIsIntentSupported(p, UInt32(INTENT_RELATIVE_COLORIMETRIC), UInt32(LCMS_USED_AS_OUTPUT)) != 0 else {
            return "cannot be used as an output profile"
        }
        return nil
    }

    /// Converts `image` (RGBA) in place from `colour` to the screen's colours; a note to
    /// say once when the picture's colour information had to be ignored.
    public func convert(_ image: inout PixelImage, from colour: EmbeddedColour) -> String? {
        let conversion = conversion(from: colour)
        conversion.apply(to: &image)
        return conversion.note
    }

    /// The conversion from `colour` to the screen's colours, ready to run over a picture's
    /// rows as they are fitted (`JPEGCodec`) or over the whole picture.
    /// `sixteenBit`: the pixels given are RGBA with 16 bits a sample (host order) and come
    /// out as 8-bit RGBA (`Conversion.apply(sixteenBit:to:count:)`), for a deep picture in a
    /// linear or wide space whose shadows 8 bits would band; nil then when there is nothing
    /// to convert or the profile is not RGB (the 8-bit way is taken).
    public func conversion(from colour: EmbeddedColour, sixteenBit: Bool) -> Conversion? {
        guard sixteenBit else { return conversion(from: colour) }
        guard honoursProfiles else { return nil }
        let source: cmsHPROFILE?
        switch colour {
        case .sRGB: source = display != nil ? cmsCreate_sRGBProfile() : nil
        case .icc(let bytes): source = Self.open(bytes)
        case .described(let d): source = Self.profile(d)
        case .unusable: source = nil
        }
        guard let source else { return nil }
        defer { cmsCloseProfile(source) }
        guard cmsGetColorSpace(source) == cmsSigRgbData else { return nil }
        return prepared(from: source, format: kc_type_rgba_16(), key: Self.key(colour), note: nil)
    }

    public func conversion(from colour: EmbeddedColour) -> Conversion {
        guard honoursProfiles else { return Conversion(note: nil) }
        let source: cmsHPROFILE?
        var note: String? = nil
        switch colour {
        case .sRGB:
            guard display != nil else { return Conversion(note: nil) }  // sRGB to sRGB: nothing to do
            source = cmsCreate_sRGBProfile()
        case .icc(let bytes):
            source = Self.open(bytes)
            if source == nil { note = "its colour profile is damaged or unreadable; shown as sRGB" }
        case .described(let d):
            source = Self.profile(d)
        case .unusable(let reason):
            note = reason
            source = display != nil ? cmsCreate_sRGBProfile() : nil
        }
        guard let source else {
            guard display != nil, let s = cmsCreate_sRGBProfile() else { return Conversion(note: note) }
            defer { cmsCloseProfile(s) }
            return prepared(from: s, format: kc_type_rgba_8(), key: [3], note: note)
                ?? Conversion(note: note)
        }
        defer { cmsCloseProfile(source) }
        let space = cmsGetColorSpace(source)
        let format: cmsUInt32Number
        switch space {
        case cmsSigRgbData: format = kc_type_rgba_8()
        case cmsSigGrayData: format = kc_type_gray_in_rgba_8()
        default:
            return Conversion(note: "its colour profile is for \(Self.name(space)) pixels, not the picture's RGB; shown as sRGB")
        }
        return prepared(from: source, format: format, key: Self.key(colour), note: note)
            ?? Conversion(note: "its colour profile cannot be used for conversion; shown as sRGB")
    }

    /// One picture's conversion: a Little CMS transform (or nothing to do) and the note to
    /// give. Used by one thread at a time.
    public final class Conversion: @unchecked Sendable {
        /// Said once when the picture's colour had to be ignored.
        public let note: String?
        private let transform: cmsHTRANSFORM?
        /// Deleted with this conversion; else a `ColourTransformCache` keeps it.
        private let owned: Bool

        init(note: String?, transform: cmsHTRANSFORM? = nil, owned: Bool = false) {
            self.note = note
            self.transform = transform
            self.owned = owned
        }

        deinit { if owned, let transform { cmsDeleteTransform(transform) } }

        /// Whether converting changes any pixel (false: sRGB shown on an sRGB screen).
        public var changesPixels: Bool { transform != nil }

        /// Converts `count` RGBA pixels at `pixels`, in place.
        public func apply(_ pixels: UnsafeMutableRawPointer, count: Int) {
            guard let transform, count > 0 else { return }
            cmsDoTransform(transform, pixels, pixels, cmsUInt32Number(count))
        }

        /// Converts `count` RGBA pixels of 16 bits a sample at `deep` into 8-bit RGBA at
        /// `pixels` (a conversion made with `sixteenBit`).
        public func apply(sixteenBit deep: UnsafeRawPointer, to pixels: UnsafeMutableRawPointer, count: Int) {
            guard let transform, count > 0 else { return }
            cmsDoTransform(transform, deep, pixels, cmsUInt32Number(count))
        }

        public func apply(to image: inout PixelImage) {
            guard transform != nil else { return }
            let count = image.width * image.height
            image.pixels.withUnsafeMutableBytes { apply($0.baseAddress!, count: count) }
        }
    }

    /// CMYK pixels (`image`'s four channels C, M, Y, K; `inverted` as Adobe stores them)
    /// as RGBA in the screen's colours, through `profile` (the file's CMYK profile) or,
    /// without one, the plain formula browsers use (R = (1 − C)(1 − K), …).
    public func rgba(fromCMYK image: PixelImage, inverted: Bool, profile: EmbeddedColour) -> (PixelImage, String?) {
        var note: String? = nil
        if honoursProfiles, case .icc(let bytes) = profile {
            if let source = Self.open(bytes), cmsGetColorSpace(source) == cmsSigCmykData {
                defer { cmsCloseProfile(source) }
                var out = PixelImage(width: image.width, height: image.height,
                                     pixels: [UInt8](repeating: 255, count: image.pixels.count), isOpaque: true)
                if let t = makeTransform(from: source, format: inverted ? kc_type_cmyk_8_rev() : kc_type_cmyk_8()) {
                    defer { cmsDeleteTransform(t) }
                    image.pixels.withUnsafeBytes { i in
                        out.pixels.withUnsafeMutableBytes { o in
                            cmsDoTransform(t, i.baseAddress, o.baseAddress, cmsUInt32Number(image.width * image.height))
                        }
                    }
                    return (out, nil)
                }
                note = "its CMYK profile cannot be used for conversion; converted without it"
            } else {
                note = "its colour profile is damaged or not a CMYK profile; converted without it"
            }
        }
        var out = image
        out.pixels.withUnsafeMutableBufferPointer { p in
            var i = 0
            while i < p.count {
                let c = inverted ? Int(p[i]) : 255 - Int(p[i]), m = inverted ? Int(p[i + 1]) : 255 - Int(p[i + 1])
                let y = inverted ? Int(p[i + 2]) : 255 - Int(p[i + 2]), k = inverted ? Int(p[i + 3]) : 255 - Int(p[i + 3])
                p[i] = UInt8((c * k + 127) / 255); p[i + 1] = UInt8((m * k + 127) / 255)
                p[i + 2] = UInt8((y * k + 127) / 255); p[i + 3] = 255
                i += 4
            }
        }
        out.isOpaque = true
        if display != nil { _ = convert(&out, from: .sRGB) }
        return (out, note)
    }

    /// What names the transform from `colour` in the cache (the display is the same for
    /// the cache's whole life).
    private static func key(_ colour: EmbeddedColour) -> [UInt8] {
        switch colour {
        case .sRGB, .unusable: [3]
        case .icc(let bytes): [1] + bytes
        case .described(let d): [2] + Array("\(d)".utf8)
        }
    }

    /// A conversion from `source` (pixels in `format`) to the screen, its transform kept
    /// in the cache where there is one; nil when Little CMS cannot make it.
    private func prepared(from source: cmsHPROFILE, format: cmsUInt32Number, key: [UInt8], note: String?) -> Conversion? {
        if let transforms {
            let made = transforms.transform(for: key + withUnsafeBytes(of: format) { Array($0) }) { makeTransform(from: source, format: format) }
            return made.map { Conversion(note: note, transform: $0) }
        }
        return makeTransform(from: source, format: format).map { Conversion(note: note, transform: $0, owned: true) }
    }

    private func makeTransform(from source: cmsHPROFILE, format: cmsUInt32Number) -> cmsHTRANSFORM? {
        guard let target = display.flatMap(Self.open) ?? cmsCreate_sRGBProfile() else { return nil }
        defer { cmsCloseProfile(target) }
        let perceptual = cmsIsCLUT(source, UInt32(INTENT_PERCEPTUAL), UInt32(LCMS_USED_AS_INPUT)) != 0
        let intent = UInt32(perceptual ? INTENT_PERCEPTUAL : INTENT_RELATIVE_COLORIMETRIC)
        // 16-bit pixels are converted into another buffer: alpha is copied across (in place,
        // at 8 bits, it is never touched).
        let alpha = format == kc_type_rgba_16() ? kc_flags_copy_alpha() : 0
        return cmsCreateTransform(source, format, target, kc_type_rgba_8(), intent, (perceptual ? 0 : kc_flags_bpc()) | alpha)
    }

    private static func open(_ bytes: [UInt8]) -> cmsHPROFILE? {
        guard bytes.count >= 128 else { return nil }
        return bytes.withUnsafeBytes { cmsOpenProfileFromMem($0.baseAddress, cmsUInt32Number($0.count)) }
    }

    private static func profile(_ d: ColourDescription) -> cmsHPROFILE? {
        let curve: OpaquePointer?
        switch d.transfer {
        case .sRGB:
            let params: [Double] = [2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045]
            curve = cmsBuildParametricToneCurve(nil, 4, params)
        case .gamma(let g): curve = cmsBuildGamma(nil, g)
        case .linear: curve = cmsBuildGamma(nil, 1)
        }
        guard let curve else { return nil }
        defer { cmsFreeToneCurve(curve) }
        var white = cmsCIExyY(x: d.white.x, y: d.white.y, Y: 1)
        var primaries = cmsCIExyYTRIPLE(Red: cmsCIExyY(x: d.red.x, y: d.red.y, Y: 1),
                                        Green: cmsCIExyY(x: d.green.x, y: d.green.y, Y: 1),
                                        Blue: cmsCIExyY(x: d.blue.x, y: d.blue.y, Y: 1))
        var curves: [OpaquePointer?] = [curve, curve, curve]
        return curves.withUnsafeMutableBufferPointer { cmsCreateRGBProfile(&white, &primaries, $0.baseAddress) }
    }

    private static func name(_ space: cmsColorSpaceSignature) -> String {
        switch space {
        case cmsSigCmykData: "CMYK"
        case cmsSigLabData: "Lab"
        case cmsSigXYZData: "XYZ"
        default: "other"
        }
    }
}

/// Little CMS transforms kept by what they convert from: the last 8. For one thread only
/// (a decoder helper decodes one picture at a time).
final class ColourTransformCache: @unchecked Sendable {
    private var entries: [(key: [UInt8], transform: cmsHTRANSFORM)] = []
    private let capacity = 8

    func transform(for key: [UInt8], make: () -> cmsHTRANSFORM?) -> cmsHTRANSFORM? {
        if let i = entries.firstIndex(where: { $0.key == key }) {
            let hit = entries.remove(at: i)
            entries.insert(hit, at: 0)
            return hit.transform
        }
        guard let made = make() else { return nil }
        entries.insert((key, made), at: 0)
        if entries.count > capacity { cmsDeleteTransform(entries.removeLast().transform) }
        return made
    }

    deinit { for e in entries { cmsDeleteTransform(e.transform) } }
}
