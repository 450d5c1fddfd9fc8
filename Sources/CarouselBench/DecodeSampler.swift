import CarouselApp
import CarouselSDL
import CarouselCore
import CarouselMedia
import Foundation
import CarouselClock

/// Times decode-and-fit on a sample of the sources, grouped by format and size, with and
/// without DCT scaling (which only JPEG has), one decode at a time: in this process and
/// through a decoder helper, as the carousel decodes, so the cost of isolation shows.
enum DecodeSampler {
    struct Row: Codable, Sendable {
        var format: String
        var size: String
        var dctScaled: Bool
        /// Through a decoder helper process (as the carousel decodes) or in this process.
        var isolated: Bool
        /// Embedded colour profiles ignored: what converting colours costs shows beside the
        /// row that honours them (tagged JPEGs only).
        var profilesIgnored = false
        var samples: Int
        var p50Ms: Double
        var p95Ms: Double
        /// JPEG only: libjpeg-turbo's own decode of the same files at the same DCT scale,
        /// in the same run (rows read and dropped): what decode-and-fit cannot beat.
        var floorP50Ms: Double?
        var floorP95Ms: Double?
        /// Each decode's time over the floor's on the same file right after it, p50 and p95:
        /// paired, so that the machine's own drift between samples moves both sides alike.
        var floorRatioP50: Double?
        var floorRatioP95: Double?

        enum CodingKeys: String, CodingKey {
            case format, size, samples, isolated
            case profilesIgnored = "profiles_ignored"
            case dctScaled = "dct_scaled", p50Ms = "p50_ms", p95Ms = "p95_ms"
            case floorP50Ms = "floor_p50_ms", floorP95Ms = "floor_p95_ms"
            case floorRatioP50 = "floor_ratio_p50", floorRatioP95 = "floor_ratio_p95"
        }
    }

    /// Looks at up to `spread` sources spread over the list, then decodes up to `perGroup`
    /// of each format and size into `box`.
    static func measure(_ sources: [ImageSource], box: Size, helper: IsolatedDecoder.Settings,
                        spread: Int = 40, perGroup: Int = 9) -> [Row] {
        guard !sources.isEmpty else { return [] }
        let step = max(1, sources.count / spread)
        var groups: [String: (format: String, size: String, members: [ImageSource])] = [:]
        var order: [String] = []
        for s in Swift.stride(from: 0, to: sources.count, by: step).map({ sources[$0] }) {
            guard let bytes = try? ImageFile.read(s.path) else { continue }
            let header = ImageHeader.read(bytes)
            let format = header.format.rawValue.uppercased()
            let size = header.width.flatMap { w in header.height.map { "\(w)x\($0)" } } ?? "?"
            let key = format + " " + size
            if groups[key] == nil { order.append(key); groups[key] = (format, size, []) }
            if groups[key]!.members.count < perGroup { groups[key]!.members.append(s) }
        }
        var rows: [Row] = []
        var isolatedSettings = helper
        for key in order {
            guard let g = groups[key] else { continue }
            let variants = g.format == "JPEG" ? [true, false] : [false]
            for dct in variants {
                // The way the carousel decodes, also through a helper; the comparison without
                // DCT scaling in this process only.
                var ways: [(any ImageDecoding, Bool)] = [(FittingDecoder(dctScaling: dct), false)]
                // A tagged JPEG also without its conversion, in this process: the colour's cost.
                let tagged = g.format == "JPEG" && dct && (try? ImageFile.read(g.members[0].path)).map {
                    if case .icc = ICCExtraction.jpeg($0) { return true } else { return false }
                } == true
                if tagged { ways.append((FittingDecoder(dctScaling: dct, colour: .ignoringProfiles), false)) }
                var isolated: IsolatedDecoder?
                if dct == variants[0] {
                    isolatedSettings.dctScaling = dct
                    isolated = IsolatedDecoder(isolatedSettings, helpers: 1, warn: { _ in })
                    ways.append((isolated!, true))
                }
                defer { isolated?.stop() }
                for (n, (decoder, throughHelper)) in ways.enumerated() {
                    _ = try? decoder.decode(g.members[0], fittingIn: box)  // warm: caches, page faults
                    // For a JPEG, libjpeg-turbo alone on the same file right after, so that
                    // a machine that slows down or speeds up moves both alike.
                    // Several rounds: a shared machine's hiccups move one sample, not the median;
                    // more for JPEG, whose p95 ratio is read against a target (with 9 pairs
                    // the p95 is the worst one).
                    var times: [Double] = [], floors: [Double] = [], ratios: [Double] = []
                    let rounds = g.format == "JPEG" ? Self.jpegRounds : Self.rounds
                    for s in Array(repeating: g.members, count: rounds).joined() {
                        let start = LoopClock.system.now()
                        guard (try? decoder.decode(s, fittingIn: box)) != nil else { continue }
                        let time = LoopClock.system.now() - start
                        times.append(time)
                        if g.format == "JPEG", let floor = floorTime(s, box: box, dctScaling: dct) {
                            floors.append(floor)
                            if floor > 0 { ratios.append(time / floor) }
                        }
                    }
                    let p = Percentiles(times)
                    guard let p50 = p.at(0.5), let p95 = p.at(0.95) else { continue }
                    var row = Row(format: g.format, size: g.size, dctScaled: dct, isolated: throughHelper,
                                  samples: p.count, p50Ms: p50 * 1000, p95Ms: p95 * 1000)
                    row.profilesIgnored = tagged && n == 1
                    let floor = Percentiles(floors)
                    row.floorP50Ms = floor.at(0.5).map { $0 * 1000 }
                    row.floorP95Ms = floor.at(0.95).map { $0 * 1000 }
                    let ratio = Percentiles(ratios)
                    (row.floorRatioP50, row.floorRatioP95) = (ratio.at(0.5), ratio.at(0.95))
                    rows.append(row)
                }
            }
        }
        return rows
    }

    /// Times each file is decoded, each way.
    static let rounds = 3
    /// Times each JPEG is decoded, each way, and its floor timed: a JPEG costs a tenth of a
    /// HEIC, and 21 pairs from 3 files give a p95 that is not just the worst pair.
    static let jpegRounds = 7

    /// libjpeg-turbo alone on `source`, at the scale the carousel would use, the file
    /// already in memory (as a decode with the file in the page cache finds it).
    private static func floorTime(_ source: ImageSource, box: Size, dctScaling: Bool) -> Double? {
        guard let bytes = try? ImageFile.read(source.path),
              let plan = FittingDecoder(dctScaling: dctScaling).jpegPlan(bytes, box: box) else { return nil }
        let start = LoopClock.system.now()
        guard JPEGCodec.decodeOnly(bytes, scale: plan.scale) else { return nil }
        return LoopClock.system.now() - start
    }

    /// How much longer the p50 decode takes through a helper than in this process, in
    /// percent, over the groups measured both ways; nil when none was.
    static func isolationCost(_ rows: [Row]) -> Double? {
        var inProcess = 0.0, isolated = 0.0
        for r in rows where r.isolated {
            guard let local = rows.first(where: { !$0.isolated && $0.format == r.format && $0.size == r.size && $0.dctScaled == r.dctScaled })
            else { continue }
            inProcess += local.p50Ms
            isolated += r.p50Ms
        }
        return inProcess > 0 ? (isolated / inProcess - 1) * 100 : nil
    }
}
