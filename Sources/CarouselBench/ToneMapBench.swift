import CarouselMedia
import Foundation
#if canImport(Glibc)
import Glibc
import CarouselClock
#endif

/// What turning a phone's HDR frame into the screen's costs (`VideoToneMapper`, as the video
/// helper runs it on every frame of an HLG or PQ clip): an HLG BT.2020 10-bit frame of each
/// size, converted again and again for a while, timed by the clock and by the CPU it took on
/// all the threads it uses.
enum ToneMapBench {
    struct Row: Codable, Sendable {
        var size: String
        /// Wall time a frame, milliseconds.
        var frameMs: Double
        /// CPU a frame (all its threads), milliseconds.
        var cpuMs: Double
        /// What a 30-frames-a-second clip of this size costs, per cent of one core.
        var percentAt30: Double
        enum CodingKeys: String, CodingKey {
            case size, frameMs = "frame_ms", cpuMs = "cpu_ms", percentAt30 = "percent_of_a_core_at_30_fps"
        }
    }

    static func measure(sizes: [(Int, Int)] = [(1920, 1080), (3840, 2160)], seconds: Double = 1) -> [Row] {
        let mapper = VideoToneMapper(signal: VideoSignal(bitDepth: 10, matrix: .bt2020, transfer: .hlg, primaries: .bt2020))
        return sizes.map { width, height in
            let (cw, ch) = ((width + 1) / 2, (height + 1) / 2)
            // A picture-like frame: smooth gradients with the whole range of the codes.
            var y = [UInt16](repeating: 0, count: width * height), u = [UInt16](repeating: 0, count: cw * ch), v = u
            for row in 0..<height { for col in 0..<width { y[row * width + col] = UInt16(64 + (row * 7 + col * 3) % 877) } }
            for i in 0..<(cw * ch) { u[i] = UInt16(256 + (i * 5) % 512); v[i] = UInt16(256 + (i * 11) % 512) }
            var oy = [UInt8](repeating: 0, count: width * height), ou = [UInt8](repeating: 0, count: cw * ch), ov = ou
            var frames = 0
            let cpu0 = cpuSeconds(), start = SystemClock.monotonic
            repeat {
                y.withUnsafeBufferPointer { yb in u.withUnsafeBufferPointer { ub in v.withUnsafeBufferPointer { vb in
                    oy.withUnsafeMutableBufferPointer { oyb in ou.withUnsafeMutableBufferPointer { oub in ov.withUnsafeMutableBufferPointer { ovb in
                        mapper.convert(y: .init(base: yb.baseAddress!, pitch: width), u: .init(base: ub.baseAddress!, pitch: cw),
                                       v: .init(base: vb.baseAddress!, pitch: cw), width: width, height: height,
                                       into: .init(base: oyb.baseAddress!, pitch: width), .init(base: oub.baseAddress!, pitch: cw),
                                       .init(base: ovb.baseAddress!, pitch: cw))
                    } } }
                } } }
                frames += 1
            } while SystemClock.monotonic - start < seconds
            let wall = SystemClock.monotonic - start, cpu = cpuSeconds() - cpu0
            return Row(size: "\(width)x\(height)", frameMs: wall * 1000 / Double(frames), cpuMs: cpu * 1000 / Double(frames),
                       percentAt30: cpu / Double(frames) * 30 * 100)
        }
    }

    /// The process's CPU time so far (user and system, every thread).
    private static func cpuSeconds() -> Double { SystemClock.processCPU }
}
