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
