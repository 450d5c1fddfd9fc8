import Foundation

/// Turns a decoded frame of any `VideoSignal` into what an SDR screen shows: 8-bit BT.709
/// limited-range Y'CbCr 4:2:0 (I420), which the renderer's own YUV conversion then draws.
///
/// Each pixel: Y'CbCr to R'G'B' by the clip's matrix and range; to linear light by its
/// transfer; for HLG, BT.2100's OOTF for a 1,000 cd/m² display (system gamma 1.2) on each
/// channel, as libzimg applies it and as SDR's own gamma is (BT.2100's reference applies it
/// to luminance, which shows a phone's clip a little less saturated on an SDR screen); from
/// the clip's primaries to BT.709's; scaled so that 100 cd/m² is the screen's white (HLG's
/// and PQ's absolute light: ffmpeg's zscale, libzimg, does the same by default); what is
/// brighter than 80 % of white rolled off towards white at the clip's peak (an extended
/// Reinhard curve on the brightest channel, hue kept; HLG's peak is 1,000 cd/m², PQ's the
/// mastering display's, else 1,000); then sRGB's curve, as the screen takes its values. An
/// SDR clip (10-bit, or of BT.2020's gamut or matrix) keeps its R'G'B' as SDR video is shown,
/// its gamut converted in the light of BT.1886's display (gamma 2.4) both ways, as libzimg does. The
/// curves are tables built once per clip; a pixel costs a few multiplications, two table reads
/// and a square root a channel. Used by one thread.
public final class VideoToneMapper {
    public let signal: VideoSignal

    // Code values to normalised Y' (0–1) and Cb, Cr (−0.5–0.5).
    private let yScale: Float, yOffset: Float, cScale: Float, cOffset: Float
    // R' = Y' + rCr·Cr, G' = Y' + gCb·Cb + gCr·Cr, B' = Y' + bCb·Cb.
    private let rCr: Float, gCb: Float, gCr: Float, bCb: Float
    /// R'G'B' (0–1, by 1/`steps`) to linear light: HLG's display light (0–1 of 1,000 cd/m²),
    /// PQ's and SDR's in the screen's white; and linear light (by its square root, 0–1, by
    /// 1/`steps`) to the screen's R'G'B', 0–1: by sRGB's curve for HLG and PQ, by BT.1886's
    /// for SDR (whose R'G'B' are shown as they are). Memory of their own, read without checks.
    private let linearTable: UnsafeMutablePointer<Float>, encodeTable: UnsafeMutablePointer<Float>
    /// Linear light of the clip's primaries to BT.709's, scaled to the screen's white.
    private let gamut: [Float]
    /// Where the roll-off starts and the clip's peak, in the screen's white.
    private let knee: Float, peak: Float
    private static let steps = 4095

    public init(signal: VideoSignal) {
        self.signal = signal
        let n = Float(1 << (signal.bitDepth - 8))
        if signal.fullRange {
            let max = Float((1 << signal.bitDepth) - 1)
            (yScale, yOffset) = (1 / max, 0)
            (cScale, cOffset) = (1 / max, -Float(1 << (signal.bitDepth - 1)) / max)
        } else {
            (yScale, yOffset) = (1 / (219 * n), -16 / 219)
            (cScale, cOffset) = (1 / (224 * n), -128 / 224)
        }
        let (kr, kb): (Float, Float) = switch signal.matrix {
        case .bt601: (0.299, 0.114)
        case .bt709: (0.2126, 0.0722)
        case .bt2020: (0.2627, 0.0593)
        }
        let kg = 1 - kr - kb
        rCr = 2 * (1 - kr)
        bCb = 2 * (1 - kb)
        gCb = -2 * kb * (1 - kb) / kg
        gCr = -2 * kr * (1 - kr) / kg

        let steps = Self.steps
        let transfer = signal.transfer
        let toLinear = (0...steps).map { i in
            let e = Double(i) / Double(steps)
            let light: Double = switch transfer {
            case .sdr: pow(e, 2.4)
            case .hlg: pow(Self.hlgInverseOETF(e), 1.2)
            case .pq: Self.pqEOTF(e) / 100
            }
            return Float(light)
        }
        let encode = (0...steps).map { i in
            let root = Double(i) / Double(steps)
            return Float(transfer == .sdr ? pow(root * root, 1 / 2.4) : Self.linearToSRGB(root * root))
        }
        // HLG's display light is 0–1 of 1,000 cd/m²: ten times the screen's white.
        let scale: Float = transfer == .hlg ? 10 : 1
        let toBT709: [Float] = signal.primaries == .bt2020
            ? [1.660491, -0.587641, -0.072850, -0.124551, 1.132900, -0.008349, -0.018151, -0.100579, 1.118730]
            : [1, 0, 0, 0, 1, 0, 0, 0, 1]
        gamut = toBT709.map { $0 * scale }
        knee = 0.8
        linearTable = .allocate(capacity: toLinear.count)
        linearTable.initialize(from: toLinear, count: toLinear.count)
        encodeTable = .allocate(capacity: encode.count)
        encodeTable.initialize(from: encode, count: encode.count)
        peak = switch transfer {
        case .sdr: 1
        case .hlg: 10
        case .pq: Float(max(100, min(10000, signal.peakLuminance ?? 1000)) / 100)
        }
    }

    deinit {
        linearTable.deallocate()
        encodeTable.deallocate()
    }

    // MARK: The curves (BT.2100, SMPTE ST 2084, IEC 61966-2-1)

    /// HLG's inverse OETF: a signal (0–1) to scene light (0–1).
    static func hlgInverseOETF(_ e: Double) -> Double {
        let a = 0.17883277, b = 1 - 4 * a, c = 0.5 - a * log(4 * a)
        return e <= 0.5 ? e * e / 3 : (exp((e - c) / a) + b) / 12
    }

    /// PQ's EOTF: a signal (0–1) to cd/m² (0–10,000).
    static func pqEOTF(_ e: Double) -> Double {
        let m1 = 2610.0 / 16384, m2 = 2523.0 / 4096 * 128, c1 = 3424.0 / 4096, c2 = 2413.0 / 4096 * 32, c3 = 2392.0 / 4096 * 32
        let p = pow(max(0, e), 1 / m2)
        return 10000 * pow(max(0, p - c1) / (c2 - c3 * p), 1 / m1)
    }

    static func linearToSRGB(_ l: Double) -> Double { l <= 0.0031308 ? l * 12.92 : 1.055 * pow(l, 1 / 2.4) - 0.055 }

    // MARK: Pixels

    /// One pixel's R'G'B' on the screen (0–1), from its code values: what `convert` makes
    /// of each pixel (tests and posters compare with it).
    func screenRGB(y: Float, cb: Float, cr: Float) -> (Float, Float, Float) {
        let cbn = cb * cScale + cOffset, crn = cr * cScale + cOffset
        return Kernel(self).pixel(y, rCr * crn, gCb * cbn + gCr * crn, bCb * cbn)
    }

    /// A plane of samples: its first, the samples between rows (`pitch`) and between
    /// neighbours (`step`: 1, or 2 for NV12's interleaved chroma).
    public struct Plane<Sample>: @unchecked Sendable {
        public var base: UnsafePointer<Sample>
        public var pitch: Int
        public var step: Int
        public init(base: UnsafePointer<Sample>, pitch: Int, step: Int = 1) {
            self.base = base
            self.pitch = pitch
            self.step = step
        }
    }

    /// An 8-bit plane written: its first byte and its row pitch.
    public struct Output: @unchecked Sendable {
        public var base: UnsafeMutablePointer<UInt8>
        public var pitch: Int
        public init(base: UnsafeMutablePointer<UInt8>, pitch: Int) {
            self.base = base
            self.pitch = pitch
        }
    }

    /// A decoded 4:2:0 frame as it lies in memory: I420's three planes (of 16-bit samples,
    /// little-endian, when `bitDepth` is over 8) or NV12's two, each its first byte and its
    /// row pitch in bytes.
    public struct Frame {
        public var planes: [(base: UnsafeRawPointer, pitch: Int)]
        public var nv12: Bool
        public var width: Int
        public var height: Int
        public init(planes: [(base: UnsafeRawPointer, pitch: Int)], nv12: Bool, width: Int, height: Int) {
            self.planes = planes
            self.nv12 = nv12
            self.width = width
            self.height = height
        }
    }

    /// `frame` to 8-bit BT.709 limited-range I420 in `y`, `u`, `v`; false when its planes are
    /// not what its layout says.
    @discardableResult
    public func convert(_ frame: Frame, into oy: Output, _ ou: Output, _ ov: Output) -> Bool {
        guard frame.planes.count == (frame.nv12 ? 2 : 3) else { return false }
        if signal.bitDepth > 8 {
            guard !frame.nv12 else { return false }
            let p = frame.planes.map { Plane(base: $0.base.assumingMemoryBound(to: UInt16.self), pitch: $0.pitch / 2) }
            convert(y: p[0], u: p[1], v: p[2], width: frame.width, height: frame.height, into: oy, ou, ov)
        } else {
            let y = Plane(base: frame.planes[0].base.assumingMemoryBound(to: UInt8.self), pitch: frame.planes[0].pitch)
            if frame.nv12 {
                let c = frame.planes[1]
                convert(y: y, u: Plane(base: c.base.assumingMemoryBound(to: UInt8.self), pitch: c.pitch, step: 2),
                        v: Plane(base: (c.base + 1).assumingMemoryBound(to: UInt8.self), pitch: c.pitch, step: 2),
                        width: frame.width, height: frame.height, into: oy, ou, ov)
            } else {
                let (u, v) = (frame.planes[1], frame.planes[2])
                convert(y: y, u: Plane(base: u.base.assumingMemoryBound(to: UInt8.self), pitch: u.pitch),
                        v: Plane(base: v.base.assumingMemoryBound(to: UInt8.self), pitch: v.pitch),
                        width: frame.width, height: frame.height, into: oy, ou, ov)
            }
        }
        return true
    }

    /// `frame` as the screen shows it, in RGBA (a clip's poster); nil when its planes are not
    /// what its layout says.
    public func rgba(_ frame: Frame) -> [UInt8]? {
        let (w, h) = (frame.width, frame.height), (cw, ch) = ((frame.width + 1) / 2, (frame.height + 1) / 2)
        var y = [UInt8](repeating: 0, count: w * h), u = [UInt8](repeating: 0, count: cw * ch), v = u
        let converted = y.withUnsafeMutableBufferPointer { yb in
            u.withUnsafeMutableBufferPointer { ub in
                v.withUnsafeMutableBufferPointer { vb in
                    convert(frame, into: Output(base: yb.baseAddress!, pitch: w), Output(base: ub.baseAddress!, pitch: cw),
                            Output(base: vb.baseAddress!, pitch: cw))
                }
            }
        }
        guard converted else { return nil }
        // BT.709 limited range, as the screen's renderer reads it.
        var out = [UInt8](repeating: 255, count: w * h * 4)
        for row in 0..<h {
            for col in 0..<w {
                let luma = (Float(y[row * w + col]) - 16) / 219
                let cb = (Float(u[(row / 2) * cw + col / 2]) - 128) / 224, cr = (Float(v[(row / 2) * cw + col / 2]) - 128) / 224
                let rgb = [luma + 1.5748 * cr, luma - 0.18733 * cb - 0.46813 * cr, luma + 1.8556 * cb]
                for c in 0..<3 { out[(row * w + col) * 4 + c] = UInt8(min(max(rgb[c] * 255 + 0.5, 0), 255)) }
            }
        }
        return out
    }

    /// A 4:2:0 frame (`width` × `height`) to 8-bit BT.709 limited-range I420 in `y`, `u`, `v`.
    /// Each 2×2 block's chroma is the mean of its four pixels' on the screen. The rows are
    /// shared among the machine's cores (a 4K frame is 8 million pixels).
    public func convert<Sample: FixedWidthInteger & UnsignedInteger & SendableMetatype>(y: Plane<Sample>, u: Plane<Sample>, v: Plane<Sample>,
                                                                     width: Int, height: Int, into oy: Output, _ ou: Output, _ ov: Output) {
        let blockRows = (height + 1) / 2
        let bands = min(blockRows, max(1, min(Self.cores, blockRows / 16)))
        let kernel = Kernel(self)
        if bands == 1 {
            kernel.rows(0..<blockRows, y: y, u: u, v: v, width: width, height: height, oy: oy, ou: ou, ov: ov)
            return
        }
        // Threads of its own, not Dispatch's pool: in a sandboxed helper, libdispatch's
        // worker threads trap (SIGILL) on what the system-call filter refuses them.
        Self.inParallel(bands) { band in
            let range = (blockRows * band / bands)..<(blockRows * (band + 1) / bands)
            kernel.rows(range, y: y, u: u, v: v, width: width, height: height, oy: oy, ou: ou, ov: ov)
        }
    }

    /// `body(0)` … `body(count - 1)` at once: the first on this thread, the others on threads
    /// started for them (a thread costs tens of microseconds; a 4K frame tens of milliseconds),
    /// all done when this returns.
    static func inParallel(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
        final class Job: @unchecked Sendable {
            let body: @Sendable (Int) -> Void, index: Int
            init(_ body: @escaping @Sendable (Int) -> Void, _ index: Int) { (self.body, self.index) = (body, index) }
        }
        var threads: [pthread_t] = []
        for index in 1..<max(1, count) {
            var thread = pthread_t()
            let job = Unmanaged.passRetained(Job(body, index)).toOpaque()
            if pthread_create(&thread, nil, { raw in
                let job = Unmanaged<Job>.fromOpaque(raw!).takeRetainedValue()
                job.body(job.index)
                return nil
            }, job) == 0 {
                threads.append(thread)
            } else {
                // No thread to be had: this one does that part too.
                Unmanaged<Job>.fromOpaque(job).release()
                body(index)
            }
        }
        body(0)
        for thread in threads { pthread_join(thread, nil) }
    }

    /// The cores frames are converted on.
    static let cores = max(1, ProcessInfo.processInfo.activeProcessorCount)

    /// Everything a pixel needs, as values and the tables' memory, for the inner loop.
    private struct Kernel: @unchecked Sendable {
        let yScale: Float, yOffset: Float, cScale: Float, cOffset: Float
        let rCr: Float, gCb: Float, gCr: Float, bCb: Float
        let m0: Float, m1: Float, m2: Float, m3: Float, m4: Float, m5: Float, m6: Float, m7: Float, m8: Float
        let knee: Float, peak: Float, w: Float, top2: Float
        let toLinear: UnsafePointer<Float>, encode: UnsafePointer<Float>
        let steps = Float(VideoToneMapper.steps)

        init(_ t: VideoToneMapper) {
            (yScale, yOffset, cScale, cOffset) = (t.yScale, t.yOffset, t.cScale, t.cOffset)
            (rCr, gCb, gCr, bCb) = (t.rCr, t.gCb, t.gCr, t.bCb)
            let m = t.gamut
            (m0, m1, m2, m3, m4, m5, m6, m7, m8) = (m[0], m[1], m[2], m[3], m[4], m[5], m[6], m[7], m[8])
            (knee, peak) = (t.knee, t.peak)
            w = 1 - t.knee
            let top = (t.peak - t.knee) / (1 - t.knee)
            top2 = top * top
            toLinear = UnsafePointer(t.linearTable)
            encode = UnsafePointer(t.encodeTable)
        }

        /// A table's index for `x` (0–1): the nearest of its `steps`, without the checks of
        /// Float to Int (adding 2²³ leaves the rounded value in the significand's bits).
        @inline(__always)
        func index(_ x: Float) -> Int { Int((x * steps + 8_388_608).bitPattern & 0x7F_FFFF) }

        @inline(__always)
        func pixel(_ code: Float, _ rC: Float, _ gC: Float, _ bC: Float) -> (Float, Float, Float) {
            let yn = code * yScale + yOffset
            let r0 = min(max(yn + rC, 0), 1), g0 = min(max(yn + gC, 0), 1), b0 = min(max(yn + bC, 0), 1)
            let r = toLinear[index(r0)], g = toLinear[index(g0)], b = toLinear[index(b0)]
            var lr = max(m0 * r + m1 * g + m2 * b, 0)
            var lg = max(m3 * r + m4 * g + m5 * b, 0)
            var lb = max(m6 * r + m7 * g + m8 * b, 0)
            let brightest = max(lr, max(lg, lb))
            // Above the knee, the roll-off: an extended Reinhard curve on what is above it,
            // slope 1 at the knee, the clip's peak reaching white; the hue kept.
            if brightest > knee {
                let s: Float
                if brightest >= peak {
                    s = 1 / brightest
                } else {
                    let x = (brightest - knee) / w
                    s = (knee + w * x * (1 + x / top2) / (1 + x)) / brightest
                }
                lr *= s; lg *= s; lb *= s
            }
            return (encode[index(min(lr, 1).squareRoot())], encode[index(min(lg, 1).squareRoot())], encode[index(min(lb, 1).squareRoot())])
        }

        /// The 2×2 blocks of rows `range` (in blocks).
        @inline(__always)
        func rows<Sample: FixedWidthInteger & UnsignedInteger>(_ range: Range<Int>, y: Plane<Sample>, u: Plane<Sample>, v: Plane<Sample>,
                                                               width: Int, height: Int, oy: Output, ou: Output, ov: Output) {
            let (ys, us, vs) = (y.step, u.step, v.step)
            for block in range {
                let by = block * 2
                let rows = min(2, height - by)
                let uRow = u.base + block * u.pitch, vRow = v.base + block * v.pitch
                let y0 = y.base + by * y.pitch, y1 = y.base + (by + rows - 1) * y.pitch
                let o0 = oy.base + by * oy.pitch, o1 = oy.base + (by + rows - 1) * oy.pitch
                let cbOut = ou.base + block * ou.pitch, crOut = ov.base + block * ov.pitch
                var bx = 0
                while bx < width {
                    let cb = Float(uRow[(bx >> 1) * us]) * cScale + cOffset
                    let cr = Float(vRow[(bx >> 1) * vs]) * cScale + cOffset
                    let rC = rCr * cr, gC = gCb * cb + gCr * cr, bC = bCb * cb
                    let x1 = min(bx + 1, width - 1)
                    // The block's four pixels (a last odd row or column repeated).
                    let (ar, ag, ab) = pixel(Float(y0[bx * ys]), rC, gC, bC)
                    let (br, bg, bb) = pixel(Float(y0[x1 * ys]), rC, gC, bC)
                    let (cr0, cg, cb0) = pixel(Float(y1[bx * ys]), rC, gC, bC)
                    let (dr, dg, db) = pixel(Float(y1[x1 * ys]), rC, gC, bC)
                    // (Each within 16–235: the bits of the rounded value, as `index` takes them.)
                    o0[bx] = UInt8(truncatingIfNeeded: (16 + 219 * (0.2126 * ar + 0.7152 * ag + 0.0722 * ab) + 8_388_608 as Float).bitPattern)
                    o0[x1] = UInt8(truncatingIfNeeded: (16 + 219 * (0.2126 * br + 0.7152 * bg + 0.0722 * bb) + 8_388_608 as Float).bitPattern)
                    o1[bx] = UInt8(truncatingIfNeeded: (16 + 219 * (0.2126 * cr0 + 0.7152 * cg + 0.0722 * cb0) + 8_388_608 as Float).bitPattern)
                    o1[x1] = UInt8(truncatingIfNeeded: (16 + 219 * (0.2126 * dr + 0.7152 * dg + 0.0722 * db) + 8_388_608 as Float).bitPattern)
                    let r = (ar + br + cr0 + dr) * 0.25, g = (ag + bg + cg + dg) * 0.25, b = (ab + bb + cb0 + db) * 0.25
                    let luma = 0.2126 * r + 0.7152 * g + 0.0722 * b
                    cbOut[bx >> 1] = UInt8(min(max(128 + 224 * (b - luma) / 1.8556 + 0.5, 0), 255))
                    crOut[bx >> 1] = UInt8(min(max(128 + 224 * (r - luma) / 1.5748 + 0.5, 0), 255))
                    bx += 2
                }
            }
        }
    }
}
