import CarouselApp
import Foundation

/// What `carousel bench` measured: printed as a table, or as JSON with `--json`.
struct BenchReport: Codable, Sendable {
    /// One gallery's figures: ours, or the naive one beside it.
    struct Run: Codable, Sendable {
        var images: Int
        /// From process start to the first frame on screen (ours: with placeholders).
        var firstFrameMs: Double?
        /// From process start until every visible image is in place.
        var imagesInPlaceMs: Double?
        var frames: Int
        var frameP50Ms: Double?
        var frameP95Ms: Double?
        var frameP99Ms: Double?
        var frameMaxMs: Double?
        var framesOver16ms: Int
        /// Those frames by phase of the mix.
        var framesOver16msByPhase: [String: Int] = [:]
        /// The frame time p50 and p99 of each phase of the mix.
        var frameP50MsByPhase: [String: Double] = [:]
        var frameP99MsByPhase: [String: Double] = [:]
        var slotUploads: Int?
        var uploadP50Ms: Double?
        var uploadP99Ms: Double?
        /// Frames drawn while moving, and those with a placeholder in view, by phase of the mix.
        var framesInMotion: [String: Int]
        var placeholderFrames: [String: Int]
        /// Placeholder frames in the phases at 2 items a second (the goal is none).
        var placeholderFramesAt2PerSecond: Int
        var peakRSSMB: Double
        var restCPUPercent: Double?
        /// How long the decoders were still busy after the last gesture ended.
        var loadingAfterStopMs: Double
        /// The wall: blank tiles summed over the frames of its slow scroll (the drags at
        /// 0.4 screens a second) and over all frames in motion; nil for the carousel.
        var blankTilesAtSlowScroll: Int? = nil
        var blankTilesInMotion: Int? = nil
        /// Those of all motion by phase of the mix (a phase with none left out).
        var blankTilesByPhase: [String: Int]? = nil
        /// The wall: thumbnails found in the cache and made (nil without a cache).
        var thumbnailHits: Int? = nil
        var thumbnailMisses: Int? = nil
        enum CodingKeys: String, CodingKey {
            case images, frames
            case firstFrameMs = "first_frame_ms", imagesInPlaceMs = "images_in_place_ms"
            case frameP50Ms = "frame_p50_ms", frameP95Ms = "frame_p95_ms", frameP99Ms = "frame_p99_ms"
            case frameMaxMs = "frame_max_ms", framesOver16ms = "frames_over_16_7_ms"
            case framesOver16msByPhase = "frames_over_16_7_ms_by_phase", frameP99MsByPhase = "frame_p99_ms_by_phase"
            case frameP50MsByPhase = "frame_p50_ms_by_phase"
            case slotUploads = "slot_uploads", uploadP50Ms = "upload_p50_ms", uploadP99Ms = "upload_p99_ms"
            case framesInMotion = "frames_in_motion", placeholderFrames = "placeholder_frames"
            case placeholderFramesAt2PerSecond = "placeholder_frames_at_2_per_s"
            case peakRSSMB = "peak_rss_mb", restCPUPercent = "rest_cpu_percent"
            case loadingAfterStopMs = "loading_after_stop_ms"
            case thumbnailHits = "thumbnail_hits", thumbnailMisses = "thumbnail_misses"
            case blankTilesAtSlowScroll = "blank_tiles_at_slow_scroll", blankTilesInMotion = "blank_tiles_in_motion"
            case blankTilesByPhase = "blank_tiles_by_phase"
        }
    }

    struct Target: Codable, Sendable {
        var goal: String
        var measured: String
        /// Nil when this run cannot tell (other sizes or counts than the goal's).
        var met: Bool?
    }

    var machine: String
    /// Seconds of the rest over which CPU at rest was measured.
    var restSeconds: Double
    var sources: String
    var size: String
    var renderer: String
    var ours: Run
    var naive: Run?
    /// The carousel's looks (`BenchMix(looksIn:)`): crossfades, Ken Burns, zoomed panning.
    var looks: Run?
    /// The clips played, where the sources hold any.
    var clips: ClipBench.Figures?
    /// `--order fair`'s kept round at 50,000 pictures.
    var fairRound: FairRoundBench.Figures?
    /// Why the naive run saw fewer images than ours.
    var naiveNote: String?
    var decode: [DecodeSampler.Row]
    var targets: [Target]

    enum CodingKeys: String, CodingKey {
        case machine, sources, size, renderer, ours, naive, decode, targets, looks, clips
        case restSeconds = "rest_seconds"
        case naiveNote = "naive_note"
        case fairRound = "fair_round"
    }

    func json() -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return (try? encoder.encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    /// The readable table.
    func table() -> String {
        func ms(_ v: Double?) -> String { v.map { $0 < 10 ? String(format: "%.2f", $0) : String(format: "%.0f", $0) } ?? "–" }
        func row(_ label: String, _ a: String, _ b: String? = nil) -> String {
            label.padding(toLength: 36, withPad: " ", startingAt: 0) + a.padding(toLength: 30, withPad: " ", startingAt: 0)
                + (naive == nil ? "" : (b ?? "–")) + "\n"
        }
        func frames(_ r: Run) -> String {
            "\(ms(r.frameP50Ms)) / \(ms(r.frameP95Ms)) / \(ms(r.frameP99Ms)) / \(ms(r.frameMaxMs)) ms"
        }
        func placeholders(_ r: Run) -> String {
            let total = r.placeholderFrames.values.reduce(0, +)
            return "\(r.placeholderFramesAt2PerSecond) at 2/s, \(total) in all"
        }
        var out = "KioskCarousel bench: \(sources), \(size), \(renderer)\n\(machine)\n\n"
        out += row("", "ours", naive == nil ? nil : "naive (\(naive!.images) images)")
        out += row("first frame (placeholders)", "\(ms(ours.firstFrameMs)) ms", naive.map { "\(ms($0.firstFrameMs)) ms" })
        out += row("first frame (images in place)", "\(ms(ours.imagesInPlaceMs)) ms", naive.map { "\(ms($0.imagesInPlaceMs)) ms" })
        out += row("frame time p50 / p95 / p99 / max", frames(ours), naive.map(frames))
        out += row("frames over 16.7 ms", "\(ours.framesOver16ms) of \(ours.frames)", naive.map { "\($0.framesOver16ms) of \($0.frames)" })
        if !ours.framesOver16msByPhase.isEmpty {
            out += "  ours, by phase: " + ours.framesOver16msByPhase.sorted { $0.key < $1.key }
                .map { "\($0.value) in \($0.key)" }.joined(separator: ", ") + "\n"
        }
        if !ours.frameP99MsByPhase.isEmpty {
            out += "  ours, p99 by phase: " + BenchMix.Phase.allCases.compactMap { phase in
                ours.frameP99MsByPhase[phase.rawValue].map { "\(phase.rawValue) \(ms($0))" }
            }.joined(separator: ", ") + " ms\n"
        }
        out += row("slot uploads (p50 / p99)", "\(ours.slotUploads ?? 0) (\(ms(ours.uploadP50Ms)) / \(ms(ours.uploadP99Ms)) ms)",
                   naive.map { "\($0.images) up front" })
        out += row("placeholder frames in motion", placeholders(ours), naive.map(placeholders))
        if let slow = ours.blankTilesAtSlowScroll, let all = ours.blankTilesInMotion {
            out += row("blank tiles in motion (tile-frames)", "\(slow) slow scroll, \(all) in all")
            if let phases = ours.blankTilesByPhase, !phases.isEmpty {
                out += "  ours, blank tiles by phase: " + BenchMix.Phase.allCases.compactMap { phase in
                    phases[phase.rawValue].map { "\(phase.rawValue) \($0)" }
                }.joined(separator: ", ") + "\n"
            }
        }
        out += row("peak RSS", String(format: "%.0f MB", ours.peakRSSMB), naive.map { String(format: "%.0f MB", $0.peakRSSMB) })
        if let hits = ours.thumbnailHits, let misses = ours.thumbnailMisses {
            out += row("thumbnails from the cache / made", "\(hits) / \(misses)")
        }
        out += row("decoding after the last gesture", "\(ms(ours.loadingAfterStopMs)) ms", naive.map { "\(ms($0.loadingAfterStopMs)) ms" })
        out += row(String(format: "CPU at rest (%g s, after decoding)", restSeconds), ours.restCPUPercent.map { String(format: "%.1f %%", $0) } ?? "–",
                   naive.map { $0.restCPUPercent.map { String(format: "%.1f %%", $0) } ?? "–" })
        if let looks {
            out += "\nlooks (--transition fade --ken-burns --autoplay 2), by phase: frame p50 / p99, frames over 16.7 ms\n"
            for phase in [BenchMix.Phase.fades, .kenBurns, .zoomedPanning] {
                out += "  " + phase.rawValue.padding(toLength: 34, withPad: " ", startingAt: 0)
                    + "\(ms(looks.frameP50MsByPhase[phase.rawValue])) / \(ms(looks.frameP99MsByPhase[phase.rawValue])) ms, "
                    + "\(looks.framesOver16msByPhase[phase.rawValue] ?? 0) of \(looks.framesInMotion[phase.rawValue] ?? 0) frames in motion\n"
            }
            out += "  " + "peak RSS".padding(toLength: 34, withPad: " ", startingAt: 0) + String(format: "%.0f MB\n", looks.peakRSSMB)
        }
        if let c = clips {
            func line(_ label: String, _ value: String) -> String {
                "  " + label.padding(toLength: 38, withPad: " ", startingAt: 0) + value + "\n"
            }
            out += "\nclips: resting \(String(format: "%g", c.seconds)) s on \(c.clip)\(c.stream.map { " (\($0))" } ?? ""), then steps from clip to clip\n"
            out += line("frame time p50 / p99", "\(ms(c.frameP50Ms)) / \(ms(c.frameP99Ms)) ms, \(c.framesOver16ms) of \(c.frames) over 16.7 ms")
            out += line("stepping: p99", "\(ms(c.stepFrameP99Ms)) ms, \(c.stepFramesOver16ms) frames over 16.7 ms")
            out += line("video frames shown / dropped / skipped by the decoder / late",
                        "\(c.videoFramesShown) / \(c.videoFramesDropped) / \(c.videoFramesSkipped) / \(c.videoFramesLate)")
            if let drift = c.soundDriftMs {
                out += line("with sound: farthest from it", String(format: "%.0f ms, %d frames over 40 ms", drift, c.framesDrifted ?? 0))
            }
            out += line("first frame after arrival", c.firstFrameMs.map { String(format: "%.0f", $0) }.joined(separator: ", ") + " ms")
            if !c.clipGapsMs.isEmpty {
                out += line("clip to clip (autoplay)",
                            c.clipGapsMs.map { String(format: "%.0f", $0) }.joined(separator: ", ")
                            + " ms from rest to first frame, \(c.clipsReadyAhead) of \(c.clipGapsMs.count) made ready ahead")
            }
            out += line("video helper CPU", c.helperCPUPercent.map { String(format: "%.1f %%", $0) } ?? "–")
            out += line("gst-launch-1.0 on it, as long", c.gstLaunchCPUPercent.map {
                String(format: "%.1f %%, peak %@", $0, c.gstLaunchPeakRSSMB.map { String(format: "%.1f MB", $0) } ?? "–")
            } ?? "– (not installed)")
            out += line("memory", String(format: "program +%.1f MB, helper peak %@", c.addedRSSMB,
                                         c.helperPeakRSSMB.map { String(format: "%.1f MB", $0) } ?? "–"))
            for t in c.toneMapping {
                out += line("HDR tone mapping, \(t.size)", String(format: "%.1f ms a frame (%.1f ms of CPU): %.0f %% of a core at 30 fps",
                                                                   t.frameMs, t.cpuMs, t.percentAt30))
            }
        }
        if let f = fairRound {
            out += "\n--order fair's kept round of \(f.items) pictures\n"
            out += String(format: "  first round drawn and kept in %.0f ms; its file %.0f KB\n", f.firstRoundMs, f.keptFileKB)
            out += String(format: "  resumed at start in %.0f ms%@; it holds %@\n", f.resumeMs,
                          f.resumedWhereItStopped ? ", at the picture after the last one shown" : ", NOT where it stopped",
                          f.heldMB.map { String(format: "%.1f MB", $0) } ?? "– (malloc does not count here)")
            out += String(format: "  %d pictures arriving at once join it in %.0f ms\n", f.arrivals, f.arrivalsMs)
        }
        if let naiveNote { out += "\nnaive: \(naiveNote)\n" }
        if !decode.isEmpty {
            out += "\ndecode and fit, one at a time (p50 / p95)\n"
            let names = decode.map { d in
                "\(d.format) \(d.size) \(d.dctScaled ? "DCT-scaled" : "full decode")\(d.isolated ? ", helper" : "")\(d.profilesIgnored ? ", no colour" : "")"
            }
            let width = max(34, (names.map(\.count).max() ?? 0) + 1)
            for (d, name) in zip(decode, names) {
                out += "  " + name.padding(toLength: width, withPad: " ", startingAt: 0)
                    + "\(ms(d.p50Ms)) / \(ms(d.p95Ms)) ms  (\(d.samples) decodes)"
                    + (d.floorP50Ms.flatMap { f50 in d.floorP95Ms.map { f95 in
                        String(format: "  floor %@ / %@ ms, ours/floor %.2f / %.2f", ms(f50), ms(f95),
                               d.floorRatioP50 ?? d.p50Ms / f50, d.floorRatioP95 ?? d.p95Ms / f95)
                    } } ?? "") + "\n"
            }
        }
        out += "\ntargets\n"
        for t in targets {
            let verdict = t.met.map { $0 ? "met" : "NOT met" } ?? "not shown by this run"
            out += "  " + t.goal.padding(toLength: 52, withPad: " ", startingAt: 0) + "\(t.measured): \(verdict)\n"
        }
        return out
    }
}
