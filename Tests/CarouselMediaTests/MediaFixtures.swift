import CarouselCore
import CarouselMedia
import Foundation
import TestSupport

/// Images and folders the media tests make for themselves.
enum MediaFixtures {
    static func folder(_ label: String) throws -> String {
        let path = ScratchRoot.path + "/media-\(label)-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    static func write(_ bytes: [UInt8], to path: String) throws {
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }

    /// 64 × 32, one colour per quadrant, so any turn or mirror shows in the pixels.
    static let quadrants: PixelImage = {
        var p = [UInt8](repeating: 255, count: 64 * 32 * 4)
        for y in 0..<32 {
            for x in 0..<64 {
                let c = colour(left: x < 32, top: y < 16)
                let i = (y * 64 + x) * 4
                (p[i], p[i + 1], p[i + 2]) = (c.0, c.1, c.2)
            }
        }
        return PixelImage(width: 64, height: 32, pixels: p)
    }()

    /// Red top-left, green top-right, blue bottom-left, white bottom-right.
    static func colour(left: Bool, top: Bool) -> (UInt8, UInt8, UInt8) {
        switch (left, top) {
        case (true, true): (230, 20, 20)
        case (false, true): (20, 200, 20)
        case (true, false): (20, 20, 230)
        case (false, false): (250, 250, 250)
        }
    }

    /// A photo-like image: gradients and noise, so JPEG data is not trivially small.
    static func noisy(_ w: Int, _ h: Int, seed: UInt64 = 1) -> PixelImage {
        var state = seed &* 6364136223846793005 &+ 1442695040888963407
        var p = [UInt8](repeating: 255, count: w * h * 4)
        for y in 0..<h {
            for x in 0..<w {
                state = state &* 6364136223846793005 &+ 1442695040888963407
                let n = Int(state >> 59)
                let i = (y * w + x) * 4
                p[i] = UInt8((x * 255 / max(1, w - 1) + n) & 255)
                p[i + 1] = UInt8((y * 255 / max(1, h - 1) + n) & 255)
                p[i + 2] = UInt8(((x + y) * 2 + n * 3) & 255)
            }
        }
        return PixelImage(width: w, height: h, pixels: p)
    }

    /// `jpeg` with an Exif APP1 segment recording `orientation`, in Motorola or Intel byte order.
    static func withExif(_ jpeg: [UInt8], orientation: Int, bigEndian: Bool = true) -> [UInt8] {
        func u16(_ v: Int) -> [UInt8] { bigEndian ? [UInt8(v >> 8), UInt8(v & 255)] : [UInt8(v & 255), UInt8(v >> 8)] }
        func u32(_ v: Int) -> [UInt8] { bigEndian ? u16(v >> 16) + u16(v & 0xFFFF) : u16(v & 0xFFFF) + u16(v >> 16) }
        var tiff: [UInt8] = bigEndian ? Array("MM".utf8) : Array("II".utf8)
        tiff += u16(42) + u32(8)
        tiff += u16(2)                                                  // two entries
        tiff += u16(0x010F) + u16(2) + u32(4) + Array("Cam\0".utf8)     // Make, inline ASCII
        tiff += u16(0x0112) + u16(3) + u32(1) + u16(orientation) + [0, 0]
        tiff += u32(0)
        let body = Array("Exif\0\0".utf8) + tiff
        let length = body.count + 2
        let app1: [UInt8] = [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 255)] + body
        return Array(jpeg[0..<2]) + app1 + Array(jpeg[2...])
    }

    /// `jpeg` with an Apple maker note's content identifier (`ClipFixtures.liveStill`).
    static func withAppleIdentifier(_ jpeg: [UInt8], _ identifier: String) -> [UInt8] {
        ClipFixtures.liveStill(jpeg, identifier: identifier)
    }

    /// The start of a JPEG whose frame header claims `w` × `h`, followed by junk.
    static func jpegHeader(claiming w: Int, _ h: Int) -> [UInt8] {
        [0xFF, 0xD8, 0xFF, 0xC0, 0x00, 0x11, 0x08, UInt8(h >> 8), UInt8(h & 255), UInt8(w >> 8), UInt8(w & 255),
         0x03, 0x01, 0x22, 0x00, 0x02, 0x11, 0x01, 0x03, 0x11, 0x01] + [UInt8](repeating: 0x5A, count: 64)
    }

    /// A PNG signature and IHDR claiming `w` × `h`.
    static func pngHeader(claiming w: Int, _ h: Int) -> [UInt8] {
        func u32(_ v: Int) -> [UInt8] { [UInt8(v >> 24 & 255), UInt8(v >> 16 & 255), UInt8(v >> 8 & 255), UInt8(v & 255)] }
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + u32(13) + Array("IHDR".utf8) + u32(w) + u32(h)
            + [8, 6, 0, 0, 0] + [0, 0, 0, 0]
    }

    /// The colour at (x, y), as (r, g, b).
    static func pixel(_ image: PixelImage, _ x: Int, _ y: Int) -> (Int, Int, Int) {
        let i = (y * image.width + x) * 4
        return (Int(image.pixels[i]), Int(image.pixels[i + 1]), Int(image.pixels[i + 2]))
    }

    static func near(_ a: (Int, Int, Int), _ b: (UInt8, UInt8, UInt8), tolerance: Int = 40) -> Bool {
        abs(a.0 - Int(b.0)) <= tolerance && abs(a.1 - Int(b.1)) <= tolerance && abs(a.2 - Int(b.2)) <= tolerance
    }
}
