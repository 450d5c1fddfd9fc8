import CarouselCore
import CTIFF

/// TIFF, what scanners, archives and museums export, through libtiff (the reference
/// library), from memory: every compression and layout libtiff reads, 1 to 16 bits, grey,
/// palette, RGB, YCbCr, BigTIFF, through its RGBA interface; CMYK through the file's ICC
/// profile with Little CMS (libtiff's own CMYK conversion ignores it: a FOGRA39 red showed
/// pure (255, 0, 0)); 32-bit float samples clamped from 0–1, as ImageMagick reads them. The
/// orientation tag turns it upright (5–8 too), the ICC profile goes through the colour path.
/// The first IFD is the picture. Decoder helper only; fuzzed (`carousel-fuzz tiff`).
enum TIFFCodec {
    /// The picture upright at its own size and the colour its file declares; `converted`:
    /// its colours are the screen's already (CMYK, through its profile), with `note` to say.
    struct Decoded {
        var image: PixelImage
        var embedded: EmbeddedColour
        var converted = false
    }

    static func decode(_ bytes: [UInt8], path: String, colour: ColourConverter,
                       check: (Int, Int) throws(ImageError) -> Void) throws(ImageError) -> Decoded {
        try bytes.withUnsafeBytes { raw in
            Result { () throws(ImageError) in try decode(raw, path: path, colour: colour, check: check) }
        }.get()
    }

    private static func decode(_ raw: UnsafeRawBufferPointer, path: String, colour: ColourConverter,
                               check: (Int, Int) throws(ImageError) -> Void) throws(ImageError) -> Decoded {
        guard let base = raw.baseAddress, raw.count > 8 else { throw ImageError(path: path, reason: "is not a readable TIFF (too short)") }
        var source = kc_tiff_source()
        source.data = base.assumingMemoryBound(to: UInt8.self)
        source.size = toff_t(raw.count)
        return try withUnsafeMutablePointer(to: &source) { s throws(ImageError) -> Decoded in
            func failure(_ otherwise: String) -> ImageError {
                let said = withUnsafeBytes(of: s.pointee.message) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
                return ImageError(path: path, reason: "is not a readable TIFF (\(said.isEmpty ? otherwise : said))")
            }
            guard let tif = kc_tiff_open(s) else { throw failure("no image directory") }
            defer { TIFFClose(tif) }
            let width = Int(kc_tiff_u32(tif, UInt32(TIFFTAG_IMAGEWIDTH), 0)), height = Int(kc_tiff_u32(tif, UInt32(TIFFTAG_IMAGELENGTH), 0))
            guard width > 0, height > 0 else { throw failure("no size") }
            try check(width, height)
            let photometric = Int32(kc_tiff_u16(tif, UInt32(TIFFTAG_PHOTOMETRIC), 0xFFFF))
            let samples = Int(kc_tiff_u16_defaulted(tif, UInt32(TIFFTAG_SAMPLESPERPIXEL), 1))
            let bits = Int(kc_tiff_u16_defaulted(tif, UInt32(TIFFTAG_BITSPERSAMPLE), 1))
            let format = Int32(kc_tiff_u16_defaulted(tif, UInt32(TIFFTAG_SAMPLEFORMAT), UInt16(SAMPLEFORMAT_UINT)))
            let planar = Int32(kc_tiff_u16_defaulted(tif, UInt32(TIFFTAG_PLANARCONFIG), UInt16(PLANARCONFIG_CONTIG)))
            let orientation = ExifOrientation(rawValue: Int(kc_tiff_u16(tif, UInt32(TIFFTAG_ORIENTATION), 1))) ?? .up
            var count: UInt32 = 0
            let profile = kc_tiff_icc(tif, &count)
            let embedded: EmbeddedColour = profile.map { .icc(Array(UnsafeRawBufferPointer(start: $0, count: Int(min(count, 16 << 20))))) } ?? .sRGB
            let contiguous = planar == PLANARCONFIG_CONTIG && TIFFIsTiled(tif) == 0

            // CMYK: its own samples through its profile.
            if photometric == PHOTOMETRIC_SEPARATED, samples >= 4, bits == 8 || bits == 16, format == SAMPLEFORMAT_UINT, contiguous {
                let cmyk = try rows(tif, width: width, height: height, samples: samples, bits: bits, float: false, keep: 4, failure: failure)
                var (image, note) = colour.rgba(fromCMYK: cmyk, inverted: false, profile: embedded)
                image.note = note
                return Decoded(image: image.oriented(orientation), embedded: .sRGB, converted: true)
            }
            // Float samples: clamped from 0–1.
            if format == SAMPLEFORMAT_IEEEFP {
                guard bits == 32, contiguous, photometric == PHOTOMETRIC_RGB || photometric == PHOTOMETRIC_MINISBLACK else {
                    throw ImageError(path: path, reason: "is a \(bits)-bit floating-point TIFF of a layout carousel does not read")
                }
                let grey = photometric == PHOTOMETRIC_MINISBLACK
                let image = try rows(tif, width: width, height: height, samples: samples, bits: 32, float: true,
                                     keep: grey ? 1 : min(4, samples), failure: failure)
                return Decoded(image: image.oriented(orientation), embedded: embedded)
            }
            // 12 bits a sample (scientific and archive scanners), which libtiff's RGBA
            // interface refuses: unpacked here.
            if bits == 12, format == SAMPLEFORMAT_UINT, contiguous, photometric == PHOTOMETRIC_RGB || photometric == PHOTOMETRIC_MINISBLACK {
                let grey = photometric == PHOTOMETRIC_MINISBLACK
                let image = try rows(tif, width: width, height: height, samples: samples, bits: 12, float: false,
                                     keep: grey ? 1 : min(4, samples), failure: failure)
                return Decoded(image: image.oriented(orientation), embedded: embedded)
            }
            // Everything else libtiff turns into RGBA itself.
            let pixels = width.multipliedReportingOverflow(by: height)
            guard !pixels.overflow else { throw failure("too large") }
            var out = [UInt8](repeating: 0, count: pixels.partialValue * 4)
            let read = out.withUnsafeMutableBytes { kc_tiff_read_rgba(tif, UInt32(width), UInt32(height), $0.baseAddress!.assumingMemoryBound(to: UInt32.self)) }
            guard read != 0 else { throw failure("its pixels cannot be read") }
            // libtiff packs each pixel R, G, B, A from the lowest byte up: in memory, RGBA. A
            // sample beyond the colour's own is alpha.
            let colourSamples = photometric == PHOTOMETRIC_RGB || photometric == PHOTOMETRIC_YCBCR ? 3 : 1
            let opaque = samples <= colourSamples
            // libtiff hands alpha out premultiplied, whichever the file stores: straight again,
            // as every other decoder gives it (a half-transparent red showed half as dark).
            if !opaque {
                out.withUnsafeMutableBytes { p in
                    for i in stride(from: 0, to: p.count, by: 4) where p[i + 3] > 0 && p[i + 3] < 255 {
                        let a = Int(p[i + 3])
                        for c in 0..<3 { p[i + c] = UInt8(min(255, (Int(p[i + c]) * 255 + a / 2) / a)) }
                    }
                }
            }
            let image = PixelImage(width: width, height: height, pixels: out, isOpaque: opaque)
            return Decoded(image: image.oriented(orientation), embedded: embedded)
        }
    }

    /// A contiguous, stripped picture read row by row, `keep` of its samples (1: grey, 3 or
    /// 4: RGB(A), 4: CMYK) as 8 bits each into RGBA (grey repeated; no alpha: opaque). 8, 12
    /// (packed, most significant bits first), 16 or 32-bit float samples.
    private static func rows(_ tif: OpaquePointer, width: Int, height: Int, samples: Int, bits: Int, float: Bool, keep: Int,
                             failure: (String) -> ImageError) throws(ImageError) -> PixelImage {
        let lineBytes = Int(TIFFScanlineSize64(tif))
        guard samples >= keep, lineBytes >= (width * samples * bits + 7) / 8, lineBytes > 0 else { throw failure("rows of an unexpected size") }
        var line = [UInt8](repeating: 0, count: lineBytes)
        var out = [UInt8](repeating: 255, count: width * height * 4)
        let alpha = keep == 4 && (float || bits == 12)
        for y in 0..<height {
            let ok = line.withUnsafeMutableBytes { TIFFReadScanline(tif, $0.baseAddress, UInt32(y), 0) }
            guard ok >= 0 else { throw failure("row \(y) cannot be read") }
            line.withUnsafeBytes { l in
                out.withUnsafeMutableBytes { o in
                    for x in 0..<width {
                        for c in 0..<keep {
                            let i = x * samples + c
                            let v: UInt8
                            if float {
                                let f = l.load(fromByteOffset: i * 4, as: Float.self)
                                v = f.isNaN ? 0 : UInt8((min(max(f, 0), 1) * 255).rounded())
                            } else if bits == 12 {
                                let at = i * 12 / 8
                                let twelve = i % 2 == 0 ? Int(l[at]) << 4 | Int(l[at + 1]) >> 4 : (Int(l[at]) & 0x0F) << 8 | Int(l[at + 1])
                                v = UInt8(twelve >> 4)
                            } else if bits == 16 {
                                v = UInt8(l.load(fromByteOffset: i * 2, as: UInt16.self) >> 8)
                            } else {
                                v = l[i]
                            }
                            if keep == 1 {
                                for k in 0..<3 { o[(y * width + x) * 4 + k] = v }
                            } else {
                                o[(y * width + x) * 4 + c] = v
                            }
                        }
                    }
                }
            }
        }
        return PixelImage(width: width, height: height, pixels: out, isOpaque: !alpha)
    }
}
