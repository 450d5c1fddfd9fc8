import CarouselCore
import CSDL2
import CSDL2Image

/// The only file of this module that calls SDL and SDL_image: decoding the rarer formats
/// (QOI, XPM, PCX, LBM, XCF, SVG, …) into RGBA, in a decoder helper only. Needs no SDL_Init.
public enum SDLImageCodec {
    /// Loads every format library SDL_image may use now, before a sandbox would stop it.
    static func prepare() {
        _ = IMG_Init(Int32(IMG_INIT_JPG.rawValue | IMG_INIT_PNG.rawValue | IMG_INIT_TIF.rawValue | IMG_INIT_WEBP.rawValue))
    }

    /// Decodes the file at `path` into RGBA.
    public static func decode(path: String) throws(ImageError) -> PixelImage {
        try decode(ImageFile.read(path), path: path)
    }

    /// Decodes an encoded image already in memory into RGBA; `path` names it in errors.
    /// SDL_image detects the format from the bytes, so a PNG named .jpg still works.
    public static func decode(_ bytes: [UInt8], path: String) throws(ImageError) -> PixelImage {
        // TGA has no signature to detect it by: only its name says what it is.
        let type: String? = path.lowercased().hasSuffix(".tga") ? "TGA" : nil
        let loaded = bytes.withUnsafeBytes { buf -> UnsafeMutablePointer<SDL_Surface>? in
            guard let rw = SDL_RWFromConstMem(buf.baseAddress, Int32(buf.count)) else { return nil }
            return type.map { IMG_LoadTyped_RW(rw, 1, $0) } ?? IMG_Load_RW(rw, 1)
        }
        guard let loaded else {
            throw ImageError(path: path, reason: "cannot be decoded (\(lastError(or: "unknown format")))")
        }
        defer { SDL_FreeSurface(loaded) }
        guard let rgba = SDL_ConvertSurfaceFormat(loaded, SDL_PIXELFORMAT_RGBA32.rawValue, 0) else {
            throw ImageError(path: path, reason: lastError(or: "cannot be converted to RGBA"))
        }
        defer { SDL_FreeSurface(rgba) }
        return copy(rgba)
    }

    /// Copies a 32-bit RGBA surface into a `PixelImage`, dropping row padding.
    static func copy(_ surface: UnsafeMutablePointer<SDL_Surface>) -> PixelImage {
        let s = surface.pointee
        let w = Int(s.w), h = Int(s.h), pitch = Int(s.pitch)
        var out = [UInt8](repeating: 0, count: w * h * 4)
        if SDL_MUSTLOCK(surface) { SDL_LockSurface(surface) }
        defer { if SDL_MUSTLOCK(surface) { SDL_UnlockSurface(surface) } }
        if let base = s.pixels?.assumingMemoryBound(to: UInt8.self) {
            out.withUnsafeMutableBufferPointer { o in
                for y in 0..<h {
                    (o.baseAddress! + y * w * 4).update(from: base + y * pitch, count: w * 4)
                }
            }
        }
        return PixelImage(width: w, height: h, pixels: out, isOpaque: PixelImage.allOpaque(out))
    }

    static func lastError(or fallback: String) -> String {
        let message = String(cString: SDL_GetError())
        return message.isEmpty ? fallback : message
    }
}

/// SDL_MUSTLOCK is a C macro, which Swift cannot import.
@inline(__always)
func SDL_MUSTLOCK(_ s: UnsafeMutablePointer<SDL_Surface>) -> Bool {
    (s.pointee.flags & UInt32(SDL_RLEACCEL)) != 0
}
