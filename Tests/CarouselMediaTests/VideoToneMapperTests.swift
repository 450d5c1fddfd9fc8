@testable import CarouselMedia
import Foundation
import Testing
import TestSupport

/// A phone's HDR clip shown on an SDR screen in its colours: each of four colours turned into
/// HLG or PQ by ffmpeg's zscale comes back as zscale (libzimg) reads it back, within 6 levels
/// a channel (issue 59: read as BT.709 SDR, the red showed as 115,55,39 for 201,40,40).
@Suite struct VideoToneMapperTests {
    static let folder = { try! MediaFixtures.folder("hdr") }()

    @Test(arguments: [("arib-std-b67", VideoSignal.Transfer.hlg), ("smpte2084", .pq)])
    func eachColourComesBackAsZscaleReadsIt(transfer: String, as kind: VideoSignal.Transfer) throws {
        let clip = try ClipFixtures.hdr(transfer: transfer, in: Self.folder)
        let mapper = VideoToneMapper(signal: VideoSignal(bitDepth: 10, matrix: .bt2020, transfer: kind, primaries: .bt2020))
        let sdr = VideoToneMapper(signal: VideoSignal(bitDepth: 10, matrix: .bt709))
        var worst = 0, worstAsSDR = 0
        for (i, _) in ClipFixtures.hdrColours.enumerated() {
            let read = try ClipFixtures.ffmpegReading(clip, x: 80 + 160 * (i % 2), y: 48 + 96 * (i / 2))
            let (r, g, b) = mapper.screenRGB(y: Float(read.codes[0]), cb: Float(read.codes[1]), cr: Float(read.codes[2]))
            let ours = [r, g, b].map { Int(($0 * 255).rounded()) }
            let off = zip(ours, read.srgb).map { abs($0 - $1) }.max()!
            #expect(off <= 6, "\(transfer) colour \(i): ours \(ours), zscale \(read.srgb), codes \(read.codes)")
            worst = max(worst, off)
            let (r0, g0, b0) = sdr.screenRGB(y: Float(read.codes[0]), cb: Float(read.codes[1]), cr: Float(read.codes[2]))
            worstAsSDR = max(worstAsSDR, zip([r0, g0, b0].map { Int(($0 * 255).rounded()) }, read.srgb).map { abs($0 - $1) }.max()!)
        }
        // The same codes read as 10-bit BT.709 SDR are far off: the clip's signal is what matters.
        #expect(worstAsSDR > 30, "read as SDR, the worst channel was only \(worstAsSDR) off")
        print("tone mapping, \(transfer): worst channel \(worst) levels from zscale (as SDR: \(worstAsSDR))")
    }
}

/// A whole frame converted (its rows shared among the cores, 2×2 blocks, odd edges) is what
/// each pixel's conversion gives.
@Suite struct VideoToneMapperFrameTests {
    @Test(arguments: [VideoSignal.Transfer.hlg, .pq, .sdr], [(64, 48), (331, 97)])
    func aFrameIsItsPixels(transfer: VideoSignal.Transfer, size: (Int, Int)) {
        let (w, h) = size, (cw, ch) = ((w + 1) / 2, (h + 1) / 2)
        let mapper = VideoToneMapper(signal: VideoSignal(bitDepth: 10, matrix: .bt2020, transfer: transfer, primaries: .bt2020))
        var random = SystemRandomNumberGenerator()
        let y = (0..<(w * h)).map { _ in UInt16.random(in: 64...940, using: &random) }
        let u = (0..<(cw * ch)).map { _ in UInt16.random(in: 300...700, using: &random) }
        let v = (0..<(cw * ch)).map { _ in UInt16.random(in: 300...700, using: &random) }
        var oy = [UInt8](repeating: 0, count: w * h), ou = [UInt8](repeating: 0, count: cw * ch), ov = ou
        y.withUnsafeBufferPointer { yb in u.withUnsafeBufferPointer { ub in v.withUnsafeBufferPointer { vb in
            oy.withUnsafeMutableBufferPointer { oyb in ou.withUnsafeMutableBufferPointer { oub in ov.withUnsafeMutableBufferPointer { ovb in
                mapper.convert(y: .init(base: yb.baseAddress!, pitch: w), u: .init(base: ub.baseAddress!, pitch: cw),
                               v: .init(base: vb.baseAddress!, pitch: cw), width: w, height: h,
                               into: .init(base: oyb.baseAddress!, pitch: w), .init(base: oub.baseAddress!, pitch: cw),
                               .init(base: ovb.baseAddress!, pitch: cw))
            } } }
        } } }
        var worst = 0
        for row in 0..<h {
            for col in 0..<w {
                let c = (row / 2) * cw + col / 2
                let (r, g, b) = mapper.screenRGB(y: Float(y[row * w + col]), cb: Float(u[c]), cr: Float(v[c]))
                let luma = Int((16 + 219 * (0.2126 * r + 0.7152 * g + 0.0722 * b)).rounded())
                worst = max(worst, abs(luma - Int(oy[row * w + col])))
            }
        }
        #expect(worst <= 1, "\(transfer) \(w)x\(h): a luma \(worst) off its pixel's")
    }
}
