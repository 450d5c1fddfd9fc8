import CarouselCore

/// Makes a picture's backdrop (`--fill`): shrunk to fit 64×64 by area averaging, blurred by
/// three box passes each way (close to a Gaussian), darkened to 55 % so the picture in front
/// stands out, with its average colour. About a millisecond from a fitted picture; made in
/// the decoder helper that fitted it (`HelperMessage.DecodeJob.backdrop`), its pixels
/// handed back after the picture's, never on the render thread.
public enum BlurredBackdrop {
    public static let side = 64
    public static let brightness = 0.55
    static let radius = 3

    public static func make(from image: PixelImage) -> Backdrop? {
        guard image.width > 0, image.height > 0 else { return nil }
        let fit = AspectFit.size(of: image.size, in: Size(width: Double(side), height: Double(side)))
        let w = Int(fit.width), h = Int(fit.height)
        let small = ImageScaler.resize(image, width: w, height: h)
        var channels = (0..<3).map { c in (0..<(w * h)).map { Double(small.pixels[$0 * 4 + c]) } }
        for c in 0..<3 {
            for _ in 0..<3 {
                channels[c] = boxBlur(channels[c], width: w, height: h, horizontal: true)
                channels[c] = boxBlur(channels[c], width: w, height: h, horizontal: false)
            }
        }
        var pixels = [UInt8](repeating: 255, count: w * h * 4)
        var sums = [0.0, 0.0, 0.0]
        for i in 0..<(w * h) {
            for c in 0..<3 {
                sums[c] += Double(small.pixels[i * 4 + c])
                pixels[i * 4 + c] = UInt8(min(255, max(0, (channels[c][i] * brightness).rounded())))
            }
        }
        let n = Double(w * h)
        let average = sums.map { UInt8(min(255, max(0, ($0 / n * brightness).rounded()))) }
        return Backdrop(width: w, height: h, pixels: pixels, average: (average[0], average[1], average[2]))
    }

    /// One box pass along rows or columns, edges repeated.
    private static func boxBlur(_ v: [Double], width w: Int, height h: Int, horizontal: Bool) -> [Double] {
        var out = v
        let (lines, length) = horizontal ? (h, w) : (w, h)
        let span = Double(2 * radius + 1)
        for line in 0..<lines {
            let at = { (k: Int) -> Int in
                let k = min(max(k, 0), length - 1)
                return horizontal ? line * w + k : k * w + line
            }
            var sum = 0.0
            for k in -radius...radius { sum += v[at(k)] }
            for k in 0..<length {
                out[at(k)] = sum / span
                sum += v[at(k + radius + 1)] - v[at(k - radius)]
            }
        }
        return out
    }
}
