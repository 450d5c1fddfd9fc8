import CarouselCore
import CarouselMedia
import CTurboJPEG
import Foundation
import TestSupport

/// Pictures made by the formats' reference encoders (installed by kiosk/setup): heif-enc,
/// avifenc, cjxl and cjpeg, each given a PNG or PPM the test wrote.
enum ReferenceEncoders {
    /// Runs `tool` with `arguments`; its output is discarded, a failure throws.
    static func run(_ tool: OutsideProgram, _ arguments: [String]) throws {
        try tool.run(arguments)
    }

    struct Failure: Error, CustomStringConvertible { var text: String; var description: String { text } }

    /// `image` encoded by `tool` (heif-enc, avifenc, cjxl) from an RGB PNG, as bytes.
    /// (heif-enc 1.15 misreads palette PNGs; libspng writes RGBA ones.)
    static func encode(_ image: PixelImage, with tool: OutsideProgram, ext: String, extra: [String] = []) throws -> [UInt8] {
        let dir = try MediaFixtures.folder("enc")
        try PNGCodec.write(image, to: dir + "/in.png")
        let out = dir + "/out." + ext
        switch tool {
        case .heifEnc: try run(tool, extra + ["-q", "95", "-o", out, dir + "/in.png"])
        case .avifenc: try run(tool, extra + ["--min", "0", "--max", "10", dir + "/in.png", out])
        case .cjxl: try run(tool, extra + [dir + "/in.png", out])
        default: throw Failure(text: "no encoder \(tool)")
        }
        return [UInt8](try Data(contentsOf: URL(fileURLWithPath: out)))
    }

    /// `image` as a binary PPM.
    static func ppm(_ image: PixelImage) -> [UInt8] {
        var out = Array("P6\n\(image.width) \(image.height)\n255\n".utf8)
        for i in 0..<(image.width * image.height) { out += image.pixels[(i * 4)..<(i * 4 + 3)] }
        return out
    }

    /// `image` through cjpeg with `arguments` (`-sample 1x2`, `-arithmetic`, `-grayscale`).
    static func cjpeg(_ image: PixelImage, _ arguments: [String]) throws -> [UInt8] {
        let dir = try MediaFixtures.folder("cjpeg")
        try MediaFixtures.write(ppm(image), to: dir + "/in.ppm")
        try run(.cjpeg, arguments + ["-quality", "95", "-outfile", dir + "/out.jpg", dir + "/in.ppm"])
        return [UInt8](try Data(contentsOf: URL(fileURLWithPath: dir + "/out.jpg")))
    }

    /// A CMYK JPEG (YCCK, with an Adobe marker, stored inverted as Photoshop writes it)
    /// whose every pixel has the ink `cmyk` (0–255 each), made by libjpeg-turbo.
    static func cmykJPEG(width: Int, height: Int, ink: (UInt8, UInt8, UInt8, UInt8)) -> [UInt8] {
        cmykJPEG(pixels: Array(repeating: [ink.0, ink.1, ink.2, ink.3], count: width * height).flatMap { $0 }, width: width, height: height)
    }

    /// The same with each pixel's own ink (`pixels`: C, M, Y, K, row by row).
    static func cmykJPEG(pixels: [UInt8], width: Int, height: Int) -> [UInt8] {
        let stored = pixels.map { 255 - $0 }
        guard let handle = tjInitCompress() else { return [] }
        defer { tjDestroy(handle) }
        var buffer: UnsafeMutablePointer<UInt8>? = nil
        var size: UInt = 0
        let rc = stored.withUnsafeBufferPointer {
            tjCompress2(handle, $0.baseAddress, Int32(width), 0, Int32(height), Int32(TJPF_CMYK.rawValue),
                        &buffer, &size, Int32(TJSAMP_444.rawValue), 95, 0)
        }
        defer { tjFree(buffer) }
        guard rc == 0, let buffer else { return [] }
        return Array(UnsafeBufferPointer(start: buffer, count: Int(size)))
    }

    /// `jpeg` with `profile` embedded as APP2 ICC_PROFILE markers of at most `chunk` bytes each.
    static func withICC(_ jpeg: [UInt8], _ profile: [UInt8], chunk: Int = 65519) -> [UInt8] {
        let parts = stride(from: 0, to: profile.count, by: chunk).map { Array(profile[$0..<min(profile.count, $0 + chunk)]) }
        var markers: [UInt8] = []
        for (k, part) in parts.enumerated() {
            let length = 2 + 12 + 2 + part.count
            markers += [0xFF, 0xE2, UInt8(length >> 8), UInt8(length & 255)] + Array("ICC_PROFILE\0".utf8)
                + [UInt8(k + 1), UInt8(parts.count)] + part
        }
        return Array(jpeg[0..<2]) + markers + Array(jpeg[2...])
    }
}
