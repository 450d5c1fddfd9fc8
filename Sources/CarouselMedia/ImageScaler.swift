import CarouselCore

/// Resamples RGBA images. Downscaling averages every source pixel a target pixel covers
/// (weighted by the covered fraction), so fine detail does not shimmer as it would with
/// nearest-neighbour sampling; upscaling interpolates bilinearly.
public enum ImageScaler {
    /// `image` resampled to exactly `width` × `height` (each at least 1).
    public static func resize(_ image: PixelImage, width: Int, height: Int) -> PixelImage {
        let w = max(1, width), h = max(1, height)
        if w == image.width && h == image.height { return image }
        // Each axis separately: area-average where it shrinks, bilinear where it grows.
        let horizontal = resample(image.pixels, count: image.width, lines: image.height,
                                  to: w, step: 4, lineStride: image.width * 4, outLineStride: w * 4,
                                  outStep: 4)
        let vertical = resample(horizontal, count: image.height, lines: w,
                                to: h, step: w * 4, lineStride: 4, outLineStride: 4, outStep: w * 4)
        return PixelImage(width: w, height: h, pixels: vertical, isOpaque: image.isOpaque)
    }

    /// Resamples along one axis: `count` samples per line, `lines` lines, `step` bytes
    /// between samples and `lineStride` between lines, to `target` samples per line.
    private static func resample(_ src: [UInt8], count: Int, lines: Int, to target: Int,
                                 step: Int, lineStride: Int, outLineStride: Int, outStep: Int) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: lines * target * 4)
        if target == count {
            for line in 0..<lines {
                for i in 0..<count {
                    for c in 0..<4 { out[line * outLineStride + i * outStep + c] = src[line * lineStride + i * step + c] }
                }
            }
            return out
        }
        let taps = Taps(from: count, to: target)
        src.withUnsafeBufferPointer { s in
            out.withUnsafeMutableBufferPointer { o in
                for line in 0..<lines {
                    taps.apply(s, from: line * lineStride, step: step, into: o, at: line * outLineStride, outStep: outStep)
                }
            }
        }
        return out
    }

    /// The weights laid out flat, for the inner loop: per target sample its first source
    /// sample and how many it takes; then all weights one after the other. The taps of one
    /// sample are always consecutive source samples. Weights are fixed-point integers of
    /// `one` (each sample's sum exactly `one`): integer multiply-adds without a conversion
    /// per byte took the row pass of a 24 MP JPEG's fit from a fifth of its decode to a tenth.
    struct Taps {
        var first: [Int] = []
        var count: [Int] = []
        var weight: [Int32] = []
        /// 1.0 in the weights' fixed point (14 bits: 255 × 2¹⁴ × a few taps fits an Int32).
        static let shift: Int32 = 14
        static let one: Int32 = 1 << shift

        /// Area averaging where `target` is smaller than `count`, else bilinear.
        init(from count: Int, to target: Int) {
            self.init(target < count ? ImageScaler.areaWeights(from: count, to: target)
                                     : ImageScaler.bilinearWeights(from: count, to: target))
        }

        /// Resamples one line of RGBA samples: reads `s` from `base`, `step` bytes apart, and
        /// writes `count.count` samples into `o` from `outBase`, `outStep` bytes apart.
        func apply(_ s: UnsafeBufferPointer<UInt8>, from base: Int, step: Int,
                   into o: UnsafeMutableBufferPointer<UInt8>, at outBase: Int, outStep: Int) {
            // Pointers, not checked index arithmetic: the inner loop is most of a decode's
            // scaling (the ranges were checked when the taps were made).
            guard let source = s.baseAddress, let out = o.baseAddress, let n = count.last, let f = first.last else { return }
            // The taps only move forward, so the last sample's last tap is the furthest read.
            precondition(base + (f + n - 1) * step + 3 < s.count && outBase + (count.count - 1) * outStep + 3 < o.count,
                         "resampling outside the image")
            first.withUnsafeBufferPointer { first in
                count.withUnsafeBufferPointer { counts in
                    weight.withUnsafeBufferPointer { weight in
                        var k = 0
                        var q = out + outBase
                        for i in 0..<counts.count {
                            var a0: Int32 = 0, a1: Int32 = 0, a2: Int32 = 0, a3: Int32 = 0
                            var p = source + base + first[i] * step
                            for _ in 0..<counts[i] {
                                let w = weight[k]
                                a0 &+= Int32(p[0]) &* w
                                a1 &+= Int32(p[1]) &* w
                                a2 &+= Int32(p[2]) &* w
                                a3 &+= Int32(p[3]) &* w
                                p += step
                                k &+= 1
                            }
                            q[0] = ImageScaler.clampByte(a0); q[1] = ImageScaler.clampByte(a1)
                            q[2] = ImageScaler.clampByte(a2); q[3] = ImageScaler.clampByte(a3)
                            q += outStep
                        }
                    }
                }
            }
        }

        init(_ nested: [[(Int, Double)]]) {
            for taps in nested {
                first.append(taps.first?.0 ?? 0)
                count.append(taps.count)
                var fixed = taps.map { Int32(($0.1 * Double(Self.one)).rounded()) }
                // Rounding may leave the sum a little off one: the largest tap takes the rest,
                // so a flat colour stays exactly that colour.
                if let largest = fixed.indices.max(by: { fixed[$0] < fixed[$1] }) {
                    fixed[largest] += Self.one - fixed.reduce(0, +)
                }
                weight += fixed
            }
        }
    }

    /// For each target sample, the source samples it covers and the covered fraction (sums to 1).
    static func areaWeights(from count: Int, to target: Int) -> [[(Int, Double)]] {
        let scale = Double(count) / Double(target)
        return (0..<target).map { i in
            let start = Double(i) * scale, end = start + scale
            var taps: [(Int, Double)] = []
            var j = Int(start.rounded(.down))
            while Double(j) < end && j < count {
                let covered = min(end, Double(j + 1)) - max(start, Double(j))
                if covered > 1e-9 { taps.append((j, covered / scale)) }
                j += 1
            }
            return taps
        }
    }

    static func bilinearWeights(from count: Int, to target: Int) -> [[(Int, Double)]] {
        let scale = Double(count) / Double(target)
        return (0..<target).map { i in
            let x = min(max((Double(i) + 0.5) * scale - 0.5, 0), Double(count - 1))
            let j = Int(x.rounded(.down)), f = x - Double(j)
            return f > 0 && j + 1 < count ? [(j, 1 - f), (j + 1, f)] : [(j, 1)]
        }
    }

    /// A fixed-point sum (`Taps.one` is 1.0) as a byte, rounding half up.
    @inline(__always)
    static func clampByte(_ v: Int32) -> UInt8 { UInt8(clamping: (v &+ Taps.one / 2) >> Taps.shift) }
}
