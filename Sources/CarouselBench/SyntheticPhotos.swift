import CarouselMedia
import CarouselCore
import Foundation
import Glibc

/// Photo-like pictures for `carousel bench`: a sky gradient, layered hills, fine texture and
/// sensor noise. Flat colour would compress and decode unrealistically fast; noise makes
/// the entropy decoder work as it does on a camera's file.
public enum SyntheticPhotos {
    public enum Format: String, Sendable, CaseIterable { case jpeg, png }

    /// `COUNT:WxH[:jpeg|png]`, as `--synthetic` takes it.
    public struct Spec: Hashable, Sendable, CustomStringConvertible {
        public var count: Int
        public var width: Int
        public var height: Int
        public var format: Format

        public init(count: Int, width: Int, height: Int, format: Format = .jpeg) {
            self.count = count
            self.width = width
            self.height = height
            self.format = format
        }

        public init?(parsing text: String) {
            let parts = text.lowercased().split(separator: ":").map(String.init)
            guard (2...3).contains(parts.count), let n = Int(parts[0]), n > 0, n <= 1_000_000 else { return nil }
            let size = parts[1].split(separator: "x")
            guard size.count == 2, let w = Int(size[0]), let h = Int(size[1]), (16...20000).contains(w), (16...20000).contains(h)
            else { return nil }
            let format = parts.count == 3 ? Format(rawValue: parts[2] == "jpg" ? "jpeg" : parts[2]) : .jpeg
            guard let format else { return nil }
            self.init(count: n, width: w, height: h, format: format)
        }

        public var description: String { "\(count):\(width)x\(height):\(format.rawValue)" }
    }

    /// Distinct pictures made; the others are hard links to them (decoding cost is per file,
    /// disk is not: 10,000 camera-sized files would need 80 GB).
    public static let distinct = 8

    /// Writes the spec's files into `folder`, named `photo-00001.jpg` and so on; returns
    /// their paths in order. The distinct pictures are made in parallel; every file is
    /// written through `gate`, so an interrupt can remove the folder cleanly.
    public static func write(_ spec: Spec, into folder: String, through gate: WriteGate = WriteGate()) throws -> [String] {
        let ext = spec.format == .jpeg ? "jpg" : "png"
        let paths = (0..<spec.count).map { String(format: "%@/photo-%05d.%@", folder, $0 + 1, ext) }
        let unique = min(spec.count, distinct)
        let failures = LockedErrors()
        DispatchQueue.concurrentPerform(iterations: unique) { i in
            let image = picture(width: spec.width, height: spec.height, seed: UInt64(i + 1))
            do {
                switch spec.format {
                case .jpeg:
                    // As a camera writes it: EXIF with a 160x120 thumbnail before the pixels.
                    let thumbnail = CameraExif.thumbnail(of: { picture(width: $0, height: $1, seed: UInt64(i + 1)) },
                                                         aspect: Double(spec.width) / Double(spec.height))
                    let bytes = Data(CameraExif.inserting(thumbnail: TurboJPEGCodec.encode(thumbnail, quality: 80),
                                                          into: TurboJPEGCodec.encode(image, quality: 90)))
                    let written = gate.pass { FileManager.default.createFile(atPath: paths[i], contents: bytes) }
                    guard written else { throw ImageError(path: paths[i], reason: "cannot be written") }
                case .png:
                    try gate.pass { try PNGCodec.write(image, to: paths[i]) }
                }
            } catch { failures.add(error) }
        }
        if let e = failures.first { throw e }
        for i in unique..<spec.count {
            try gate.pass {
                if link(paths[i % unique], paths[i]) != 0 {
                    try FileManager.default.copyItem(atPath: paths[i % unique], toPath: paths[i])
                }
            }
        }
        return paths
    }

    /// One photo-like picture; `seed` varies the hills, the colours and the noise.
    public static func picture(width: Int, height: Int, seed: UInt64) -> PixelImage {
        var rng = SeededRandom(seed: seed)
        let hue = Double(rng.next() % 1000) / 1000
        let sky: (top: (Double, Double, Double), bottom: (Double, Double, Double)) = ((40 + 60 * hue, 90, 170 - 60 * hue), (240, 190 - 80 * hue, 150 + 60 * hue))
        // Two ridges of hills, as a height per column.
        let phases = (0..<6).map { _ in Double(rng.next() % 6283) / 1000 }
        func ridge(_ x: Double, _ base: Double, _ k: Int) -> Double {
            base + 0.06 * sin(x * 3 + phases[k]) + 0.03 * sin(x * 11 + phases[k + 1]) + 0.015 * sin(x * 37 + phases[k + 2])
        }
        let far = (0..<width).map { ridge(Double($0) / Double(width) * 2 * .pi, 0.55, 0) }
        let near = (0..<width).map { ridge(Double($0) / Double(width) * 2 * .pi, 0.72, 3) }
        var pixels = [UInt8](repeating: 255, count: width * height * 4)
        pixels.withUnsafeMutableBufferPointer { p in
            var noise = SeededRandom(seed: seed &* 7919)
            for y in 0..<height {
                let v = Double(y) / Double(height)
                let skyR = sky.top.0 + (sky.bottom.0 - sky.top.0) * v
                let skyG = sky.top.1 + (sky.bottom.1 - sky.top.1) * v
                let skyB = sky.top.2 + (sky.bottom.2 - sky.top.2) * v
                let rowTexture = sin(Double(y) * 0.9) * 6
                for x in 0..<width {
                    var r: Double, g: Double, b: Double
                    if v > near[x] {
                        let shade = 1 - (v - near[x]) * 1.2
                        (r, g, b) = (40 * shade, 70 * shade, 45 * shade)
                        r += rowTexture + sin(Double(x) * 1.3) * 8
                        g += rowTexture + sin(Double(x) * 0.7 + Double(y) * 0.3) * 10
                    } else if v > far[x] {
                        (r, g, b) = (skyR * 0.45, skyG * 0.5, skyB * 0.6)
                        r += sin(Double(x + y) * 0.5) * 4
                    } else {
                        (r, g, b) = (skyR, skyG, skyB)
                    }
                    // Sensor noise: a few levels each way, different in every pixel.
                    let n = Double(Int(noise.next() & 15) - 8)
                    let i = (y * width + x) * 4
                    p[i] = clamp(r + n)
                    p[i + 1] = clamp(g + n)
                    p[i + 2] = clamp(b + n)
                }
            }
        }
        return PixelImage(width: width, height: height, pixels: pixels)
    }

    @inline(__always)
    private static func clamp(_ v: Double) -> UInt8 { UInt8(min(max(v, 0), 255)) }

    private final class LockedErrors: @unchecked Sendable {
        private let lock = NSLock()
        private var errors: [any Error] = []
        func add(_ e: any Error) { lock.lock(); errors.append(e); lock.unlock() }
        var first: (any Error)? { lock.lock(); defer { lock.unlock() }; return errors.first }
    }
}
