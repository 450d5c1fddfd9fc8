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
        let weights = target < count ? areaWeights(from: count, to: target) : bilinearWeights(from: count, to: target)
        src.withUnsafeBufferPointer { s in
            out.withUnsafeMutableBufferPointer { o in
                for line in 0..<lines {
                    let inBase = line * lineStride, outBase = line * outLineStride
                    for (i, taps) in weights.enumerated() {
                        var acc: (Double, Double, Double, Double) = (0, 0, 0, 0)
                        for (j, wgt) in taps {
                            let p = inBase + j * step
                            acc.0 += Double(s[p]) * wgt
                            acc.1 += Double(s[p + 1]) * wgt
                            acc.2 += Double(s[p + 2]) * wgt
                            acc.3 += Double(s[p + 3]) * wgt
                        }
                        let q = outBase + i * outStep
                        o[q] = clampByte(acc.0); o[q + 1] = clampByte(acc.1)
                        o[q + 2] = clampByte(acc.2); o[q + 3] = clampByte(acc.3)
                    }
                }
            }
        }
        return out
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

    @inline(__always)
    private static func clampByte(_ v: Double) -> UInt8 { UInt8(min(max(v.rounded(), 0), 255)) }
}
