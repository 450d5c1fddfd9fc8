import CarouselCore
import CarouselMedia
import CLCMS
import CSPNG
import Foundation
import TestSupport
import Testing

/// Little CMS's own transforms, to check the decoder's colours against.
enum LittleCMS {
    static let folder = "/usr/share/color/icc/colord/"

    static func file(_ name: String, in folder: String = folder) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: folder + name)))
    }

    /// CMYK ink (four bytes a pixel, 0 = no ink) through `profile` into sRGB RGBA.
    static func fromCMYK(_ ink: [UInt8], profile: [UInt8], intent: UInt32) -> [UInt8] {
        let a = profile.withUnsafeBytes { cmsOpenProfileFromMem($0.baseAddress, cmsUInt32Number($0.count)) }, b = cmsCreate_sRGBProfile()
        defer { cmsCloseProfile(a); cmsCloseProfile(b) }
        let t = cmsCreateTransform(a, kc_type_cmyk_8(), b, kc_type_rgba_8(), intent, 0)
        defer { cmsDeleteTransform(t) }
        var out = [UInt8](repeating: 255, count: ink.count)
        ink.withUnsafeBytes { i in out.withUnsafeMutableBytes { o in cmsDoTransform(t, i.baseAddress, o.baseAddress, cmsUInt32Number(ink.count / 4)) } }
        return out
    }

    /// Display P3 (iPhone photos): P3 primaries, D65, the sRGB curve; as an ICC file.
    static var displayP3: [UInt8] {
        let params: [Double] = [2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045]
        let curve = cmsBuildParametricToneCurve(nil, 4, params)
        defer { cmsFreeToneCurve(curve) }
        var white = cmsCIExyY(x: 0.3127, y: 0.3290, Y: 1)
        var primaries = cmsCIExyYTRIPLE(Red: cmsCIExyY(x: 0.680, y: 0.320, Y: 1), Green: cmsCIExyY(x: 0.265, y: 0.690, Y: 1),
                                        Blue: cmsCIExyY(x: 0.150, y: 0.060, Y: 1))
        var curves: [OpaquePointer?] = [curve, curve, curve]
        let profile = curves.withUnsafeMutableBufferPointer { cmsCreateRGBProfile(&white, &primaries, $0.baseAddress) }
        defer { cmsCloseProfile(profile) }
        var size: cmsUInt32Number = 0
        cmsSaveProfileToMem(profile, nil, &size)
        var bytes = [UInt8](repeating: 0, count: Int(size))
        cmsSaveProfileToMem(profile, &bytes, &size)
        return bytes
    }

    /// `pixels` (RGBA) transformed from `from` to `to` (nil: sRGB), relative colorimetric
    /// with black point compensation.
    static func transform(_ pixels: [UInt8], from: [UInt8]?, to: [UInt8]?) -> [UInt8] {
        func open(_ b: [UInt8]?) -> cmsHPROFILE? {
            guard let b else { return cmsCreate_sRGBProfile() }
            return b.withUnsafeBytes { cmsOpenProfileFromMem($0.baseAddress, cmsUInt32Number($0.count)) }
        }
        let a = open(from), b = open(to)
        defer { cmsCloseProfile(a); cmsCloseProfile(b) }
        let t = cmsCreateTransform(a, kc_type_rgba_8(), b, kc_type_rgba_8(), UInt32(INTENT_RELATIVE_COLORIMETRIC), kc_flags_bpc())
        defer { cmsDeleteTransform(t) }
        var out = pixels
        pixels.withUnsafeBytes { i in out.withUnsafeMutableBytes { o in cmsDoTransform(t, i.baseAddress, o.baseAddress, cmsUInt32Number(pixels.count / 4)) } }
        return out
    }
}

@Suite struct ColourManagementTests {
    /// sRGB red (220, 40, 40) and friends, flat, so JPEG keeps them closely.
    static let srgb: PixelImage = {
        var image = PixelImage(width: 64, height: 32, fill: (220, 40, 40, 255))
        for y in 0..<32 { for x in 32..<64 { let i = (y * 64 + x) * 4; (image.pixels[i], image.pixels[i + 1], image.pixels[i + 2]) = (40, 160, 90) } }
        return image
    }()
    static let box = Size(width: 64, height: 32)

    /// The picture saved in `profile`'s colour space with the profile embedded, as
    /// Lightroom or a phone exports it; decoded, it shows its sRGB colours again.
    @Test(arguments: ["ProPhotoRGB.icc", "AdobeRGB1998.icc", "displayP3"])
    func taggedJPEGShowsItsTrueColours(profileName: String) throws {
        let profile = profileName == "displayP3" ? LittleCMS.displayP3 : try LittleCMS.file(profileName)
        let stored = PixelImage(width: 64, height: 32, pixels: LittleCMS.transform(Self.srgb.pixels, from: nil, to: profile))
        let plain = TurboJPEGCodec.encode(stored, quality: 100)
        let tagged = ReferenceEncoders.withICC(plain, profile)
        let shown = try FittingDecoder().decode(tagged, name: "tagged.jpg", fittingIn: Self.box)
        let untagged = try FittingDecoder().decode(plain, name: "plain.jpg", fittingIn: Self.box)
        // Exactly Little CMS's transform of the decoded pixels, …
        let asLittleCMS = shown.pixels == LittleCMS.transform(untagged.pixels, from: profile, to: nil)
        #expect(asLittleCMS)
        // … which is the sRGB red again, not the dull colour the raw values are.
        let red = MediaFixtures.pixel(shown, 8, 8)
        #expect(MediaFixtures.near(red, (220, 40, 40), tolerance: 6), "\(profileName): \(red)")
        if profileName == "ProPhotoRGB.icc" {
            #expect(!MediaFixtures.near(MediaFixtures.pixel(untagged, 8, 8), (220, 40, 40), tolerance: 30), "ProPhoto's raw values are far from sRGB's")
        }
        #expect(shown.note == nil)
    }

    /// A photo large enough that its rows are fitted and converted on a second thread while
    /// libjpeg decodes the next ones: every row converted once, exactly as the whole picture
    /// converted at the end would be.
    @Test func aLargeTaggedPhotoIsConvertedRowByRowExactly() throws {
        let profile = try LittleCMS.file("AdobeRGB1998.icc")
        var big = PixelImage(width: 1600, height: 1000, pixels: [UInt8](repeating: 255, count: 1600 * 1000 * 4))
        for y in 0..<1000 {
            for x in 0..<1600 {
                let i = (y * 1600 + x) * 4
                (big.pixels[i], big.pixels[i + 1], big.pixels[i + 2]) = (UInt8(x * 255 / 1599), UInt8(y * 255 / 999), UInt8((x + y) % 256))
            }
        }
        let plain = TurboJPEGCodec.encode(big, quality: 90)
        let tagged = ReferenceEncoders.withICC(plain, profile)
        let box = Size(width: 700, height: 500)
        let shown = try FittingDecoder().decode(tagged, name: "big.jpg", fittingIn: box)
        let untagged = try FittingDecoder().decode(plain, name: "big-plain.jpg", fittingIn: box)
        #expect(shown.width == 700 && shown.height == 438)
        // A Bool, not the arrays: a failing comparison of a million bytes would be diffed for ever.
        let expected = LittleCMS.transform(untagged.pixels, from: profile, to: nil)
        let differing = zip(shown.pixels, expected).filter { $0 != $1 }.count
        #expect(differing == 0 && shown.pixels.count == expected.count)
    }

    /// A profile over 64 KB is spread over several numbered APP2 markers.
    @Test func aProfileOverSeveralMarkersIsJoined() throws {
        let profile = try LittleCMS.file("ProPhotoRGB.icc")
        let plain = TurboJPEGCodec.encode(Self.srgb, quality: 100)
        let one = try FittingDecoder().decode(ReferenceEncoders.withICC(plain, profile), name: "a.jpg", fittingIn: Self.box)
        let split = ReferenceEncoders.withICC(plain, profile, chunk: 200)
        #expect(ICCExtraction.jpeg(split) == .icc(profile))
        #expect(try FittingDecoder().decode(split, name: "b.jpg", fittingIn: Self.box).pixels == one.pixels)
        // One marker of three lost: damaged, shown as sRGB.
        var missing = ReferenceEncoders.withICC(plain, profile, chunk: (profile.count + 2) / 3)
        let second = try #require(findSecondICCMarker(missing))
        missing.removeSubrange(second.start..<second.end)
        if case .unusable = ICCExtraction.jpeg(missing) {} else { Issue.record("a missing marker is damage") }
    }

    private func findSecondICCMarker(_ jpeg: [UInt8]) -> (start: Int, end: Int)? {
        var at = 2, seen = 0
        while at + 4 < jpeg.count, jpeg[at] == 0xFF {
            let length = Int(jpeg[at + 2]) << 8 | Int(jpeg[at + 3])
            if jpeg[at + 1] == 0xE2 { seen += 1; if seen == 2 { return (at, at + 2 + length) } }
            at += 2 + length
        }
        return nil
    }

    /// A broken profile is ignored with a note, and the picture still shows as it is.
    @Test func aBrokenProfileIsIgnoredAndThePictureShows() throws {
        let plain = TurboJPEGCodec.encode(Self.srgb, quality: 100)
        var junk = try LittleCMS.file("AdobeRGB1998.icc")
        for i in stride(from: 0, to: junk.count, by: 3) { junk[i] ^= 0x5A }
        let shown = try FittingDecoder().decode(ReferenceEncoders.withICC(plain, junk), name: "broken.jpg", fittingIn: Self.box)
        let untagged = try FittingDecoder().decode(plain, name: "plain.jpg", fittingIn: Self.box)
        let untouched = shown.pixels == untagged.pixels
        #expect(untouched)
        #expect(shown.note?.contains("profile") == true, "\(shown.note ?? "no note")")
    }

    /// An untagged picture costs nothing and is not touched.
    @Test func untaggedIsUntouched() throws {
        let plain = TurboJPEGCodec.encode(Self.srgb, quality: 100)
        #expect(ICCExtraction.jpeg(plain) == .sRGB)
        let shown = try FittingDecoder().decode(plain, name: "plain.jpg", fittingIn: Self.box)
        #expect(shown.note == nil)
        #expect(MediaFixtures.near(MediaFixtures.pixel(shown, 8, 8), (220, 40, 40), tolerance: 3))
    }

    /// A calibrated screen: pictures go to its profile, untagged ones from sRGB.
    @Test func theDisplayProfileIsTheTarget() throws {
        let adobe = try LittleCMS.file("AdobeRGB1998.icc")
        #expect(ColourConverter.checkDisplayProfile(adobe) == nil)
        #expect(ColourConverter.checkDisplayProfile([1, 2, 3]) != nil)
        let plain = TurboJPEGCodec.encode(Self.srgb, quality: 100)
        let untagged = try FittingDecoder().decode(plain, name: "plain.jpg", fittingIn: Self.box)
        let onScreen = try FittingDecoder(colour: ColourConverter(display: adobe)).decode(plain, name: "plain.jpg", fittingIn: Self.box)
        let asLittleCMS = onScreen.pixels == LittleCMS.transform(untagged.pixels, from: nil, to: adobe)
        #expect(asLittleCMS)
        let converted = onScreen.pixels != untagged.pixels
        #expect(converted)
    }

    /// A PNG with gAMA only (no profile, no sRGB chunk) is decoded by its gamma.
    @Test func pngGammaIsHonoured() throws {
        let linear = try png(Self.srgb, gamma: 1.0)  // linear light values
        let shown = try FittingDecoder().decode(linear, name: "linear.png", fittingIn: Self.box)
        let raw = try PNGCodec.decode(linear, fittingIn: Self.box, path: "linear.png")
        // Linear values shown in sRGB are brighter: the red's 40s rise a lot.
        #expect(MediaFixtures.pixel(raw, 8, 8) == (220, 40, 40))
        let p = MediaFixtures.pixel(shown, 8, 8)
        #expect(p.0 >= 236 && p.1 > 100 && p.1 < 125, "\(p)")
        // gAMA 1/2.2 is sRGB: untouched.
        let srgbish = try png(Self.srgb, gamma: 1 / 2.2)
        #expect(try FittingDecoder().decode(srgbish, name: "s.png", fittingIn: Self.box).pixels == raw.pixels)
    }

    /// A print designer's CMYK JPEG with its press profile embedded (Ghostscript's default
    /// CMYK profile, 187 KB, so over three APP2 markers): converted through that profile,
    /// perceptually as its tables allow, exactly as Little CMS converts the same ink.
    @Test func cmykThroughItsOwnProfile() throws {
        let profile = try LittleCMS.file("default_cmyk.icc", in: "/usr/share/color/icc/ghostscript/")
        #expect(profile.count > 2 * 65_519)
        let ink: [UInt8] = [10, 200, 180, 30, 160, 20, 40, 0]  // a red, a cyan
        var bytes = [UInt8]()
        for y in 0..<32 { for x in 0..<64 { _ = y; bytes += x < 32 ? Array(ink[0..<4]) : Array(ink[4..<8]) } }
        let plain = ReferenceEncoders.cmykJPEG(pixels: bytes, width: 64, height: 32)
        let tagged = ReferenceEncoders.withICC(plain, profile)
        let shown = try FittingDecoder().decode(tagged, name: "press.jpg", fittingIn: Self.box)
        let expected = LittleCMS.fromCMYK(ink, profile: profile, intent: UInt32(INTENT_PERCEPTUAL))
        for (n, x) in [8, 48].enumerated() {
            let got = MediaFixtures.pixel(shown, x, 16)
            let want = (expected[n * 4], expected[n * 4 + 1], expected[n * 4 + 2])
            #expect(MediaFixtures.near(got, want, tolerance: 5), "\(got) against Little CMS \(want)")
        }
        // Without the profile the naive conversion differs visibly: the profile was used.
        let naive = try FittingDecoder().decode(plain, name: "plain.jpg", fittingIn: Self.box)
        #expect(!MediaFixtures.near(MediaFixtures.pixel(naive, 8, 16), (expected[0], expected[1], expected[2]), tolerance: 12))
    }

    /// A PNG's cICP chunk (PNG's third edition; what HDR and wide-gamut exporters write) is
    /// honoured, and before an iCCP profile in the same file, as the specification orders.
    @Test func pngCodePointsAreHonouredBeforeAProfile() throws {
        let p3 = LittleCMS.displayP3
        let stored = PixelImage(width: 64, height: 32, pixels: LittleCMS.transform(Self.srgb.pixels, from: nil, to: p3))
        let raw = try PNGCodec.decode(png(stored), fittingIn: Self.box, path: "raw.png")
        let expected = LittleCMS.transform(raw.pixels, from: p3, to: nil)
        // Display P3 by code points (primaries 12, the sRGB curve 13), with an Adobe RGB
        // profile that must lose to them.
        let adobe = try LittleCMS.file("AdobeRGB1998.icc")
        for icc in [nil, adobe] {
            let file = try png(stored, icc: icc, cicp: [12, 13, 0, 1])
            let shown = try FittingDecoder().decode(file, name: "cicp.png", fittingIn: Self.box)
            let close = zip(shown.pixels, expected).allSatisfy { abs(Int($0) - Int($1)) <= 2 }
            #expect(close, "profile \(icc == nil ? "none" : "Adobe RGB"): \(MediaFixtures.pixel(shown, 8, 8)), Little CMS \(Array(expected[0..<3]))")
        }
        // HDR (PQ) and a damaged chunk are shown as sRGB, untouched.
        for cicp: [UInt8] in [[9, 16, 0, 1], [12, 13, 1, 1], [12, 13, 0]] {
            let shown = try FittingDecoder().decode(png(stored, cicp: cicp), name: "hdr.png", fittingIn: Self.box)
            #expect(shown.pixels == raw.pixels, "cICP \(cicp)")
        }
    }

    private func png(_ image: PixelImage, gamma: Double? = nil, icc: [UInt8]? = nil, cicp: [UInt8]? = nil) throws -> [UInt8] {
        let ctx = spng_ctx_new(Int32(SPNG_CTX_ENCODER.rawValue))
        defer { spng_ctx_free(ctx) }
        spng_set_option(ctx, SPNG_ENCODE_TO_BUFFER, 1)
        var ihdr = spng_ihdr(width: UInt32(image.width), height: UInt32(image.height), bit_depth: 8,
                             color_type: UInt8(SPNG_COLOR_TYPE_TRUECOLOR_ALPHA.rawValue), compression_method: 0, filter_method: 0, interlace_method: 0)
        spng_set_ihdr(ctx, &ihdr)
        if let gamma { spng_set_gama(ctx, gamma) }
        // libspng keeps the pointer until it encodes: memory of our own, freed after.
        let profile = UnsafeMutablePointer<CChar>.allocate(capacity: max(1, icc?.count ?? 0))
        defer { profile.deallocate() }
        if let icc {
            var iccp = spng_iccp()
            withUnsafeMutableBytes(of: &iccp.profile_name) { $0.copyBytes(from: Array("P3".utf8)) }
            for (i, b) in icc.enumerated() { profile[i] = CChar(bitPattern: b) }
            iccp.profile = profile
            iccp.profile_len = icc.count
            spng_set_iccp(ctx, &iccp)
        }
        let chunkData = UnsafeMutableRawPointer.allocate(byteCount: max(1, cicp?.count ?? 0), alignment: 1)
        defer { chunkData.deallocate() }
        if let cicp {
            chunkData.copyMemory(from: cicp, byteCount: cicp.count)
            var chunk = spng_unknown_chunk(type: (0x63, 0x49, 0x43, 0x50), length: cicp.count, data: chunkData, location: SPNG_AFTER_IHDR)
            spng_set_unknown_chunks(ctx, &chunk, 1)
        }
        let rc = image.pixels.withUnsafeBytes { spng_encode_image(ctx, $0.baseAddress, $0.count, Int32(SPNG_FMT_PNG.rawValue), Int32(SPNG_ENCODE_FINALIZE.rawValue)) }
        #expect(rc == 0)
        var length = 0, error: Int32 = 0
        let buffer = try #require(spng_get_png_buffer(ctx, &length, &error))
        defer { free(buffer) }
        return [UInt8](UnsafeRawBufferPointer(start: buffer, count: length))
    }

    /// A PNG's iCCP, and the same profile carried by heif-enc, avifenc and cjxl from it
    /// (an iPhone HEIC carries Display P3 so): the colours come back to sRGB.
    @Test(arguments: ["png", "heic", "avif", "jxl"])
    func profilesInEveryFormatAreHonoured(ext: String) throws {
        let p3 = LittleCMS.displayP3
        let stored = PixelImage(width: 64, height: 32, pixels: LittleCMS.transform(Self.srgb.pixels, from: nil, to: p3))
        let source = try png(stored, icc: p3)
        let dir = try MediaFixtures.folder("p3")
        try MediaFixtures.write(source, to: dir + "/in.png")
        let out = dir + "/p3." + ext
        switch ext {
        case "heic": try ReferenceEncoders.run(.heifEnc, ["-L", "-o", out, dir + "/in.png"])
        case "avif": try ReferenceEncoders.run(.avifenc, ["-l", dir + "/in.png", out])
        case "jxl": try ReferenceEncoders.run(.cjxl, ["-d", "0", dir + "/in.png", out])
        default: try MediaFixtures.write(source, to: out)
        }
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: out)))
        let shown = try FittingDecoder().decode(bytes, name: "p3." + ext, fittingIn: Self.box)
        let red = MediaFixtures.pixel(shown, 8, 8), green = MediaFixtures.pixel(shown, 48, 8)
        #expect(MediaFixtures.near(red, (220, 40, 40), tolerance: 6) && MediaFixtures.near(green, (40, 160, 90), tolerance: 6),
                "\(ext): \(red) \(green); stored \(MediaFixtures.pixel(stored, 8, 8))")
    }
}
