import CarouselApp
import CarouselCore
import Foundation
import CarouselSDL
import CLinux
import Glibc
import CarouselClock

/// `--order fair`'s kept round at a large library's size (issue 60): how long a first round
/// of 50,000 pictures takes to draw, how much memory the round holds once read back, how
/// large its file is, how long a start takes to resume it, and how long 5,000 pictures
/// arriving at once (a USB stick) take to join it. Through the program's own `FairRoundFile`,
/// in a temporary state folder, on paths shaped as a phone's camera folder names them.
struct FairRoundBench {
    struct Figures: Codable, Sendable {
        var items: Int
        var firstRoundMs: Double
        var keptFileKB: Double
        var resumeMs: Double
        /// The round as read back from its file: the memory it holds (malloc's count); nil
        /// where malloc does not count (a sanitizer's allocator answers zeros).
        var heldMB: Double?
        /// The resumed round starts at the picture after the one the first run last rested on.
        var resumedWhereItStopped: Bool
        var arrivals: Int
        var arrivalsMs: Double

        enum CodingKeys: String, CodingKey {
            case items, arrivals
            case firstRoundMs = "first_round_ms", keptFileKB = "kept_file_kb", resumeMs = "resume_ms", heldMB = "held_mb"
            case resumedWhereItStopped = "resumed_where_it_stopped", arrivalsMs = "arrivals_ms"
        }
    }

    var items = 50_000
    var arrivals = 5_000

    /// A path like those of a phone's pictures copied by year and month.
    static func path(_ n: Int, prefix: String = "PXL") -> String {
        let (year, month, day) = (2015 + n % 10, 1 + n / 10 % 12, 1 + n / 120 % 28)
        return String(format: "/srv/photos/%d/%d-%02d/%@_%d%02d%02d_%06d.jpg", year, year, month, prefix, year, month, day, n)
    }

    func measure() throws -> Figures {
        let folder = NSTemporaryDirectory() + "carousel-bench-round-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let sources = (0..<items).map { ImageSource(path: Self.path($0), stamp: FileStamp(size: 3_000_000 + Int64($0), modified: 0)) }
        let file = folder + "/round-bench"

        var began = LoopClock.system.now()
        let first = FairRoundFile(path: file)
        var arranged = first.arrange(sources)
        let firstRoundMs = (LoopClock.system.now() - began) * 1000
        let stop = items / 4
        first.shown(at: stop, in: arranged)
        let expected = arranged[stop + 1].path
        first.finishWriting()
        arranged = []
        let keptBytes = (try? FileManager.default.attributesOfItem(atPath: file + ".txt")[.size] as? Int) ?? 0

        let heapBefore = mallinfo2().uordblks
        began = LoopClock.system.now()
        let resumed = FairRoundFile(path: file)
        arranged = resumed.arrange(sources)
        let start = resumed.startIndex(in: arranged)
        let resumeMs = (LoopClock.system.now() - began) * 1000
        let resumedWhereItStopped = arranged[start].path == expected
        arranged = []
        let heapAfter = mallinfo2().uordblks

        let grown = sources + (0..<arrivals).map { ImageSource(path: Self.path($0, prefix: "IMG"), stamp: FileStamp(size: 1, modified: 0)) }
        began = LoopClock.system.now()
        _ = resumed.arrange(grown)
        let arrivalsMs = (LoopClock.system.now() - began) * 1000
        resumed.finishWriting()
        return Figures(items: items, firstRoundMs: firstRoundMs, keptFileKB: Double(keptBytes) / 1024, resumeMs: resumeMs,
                       heldMB: heapAfter == 0 ? nil : Double(Int(heapAfter) - Int(heapBefore)) / 1_048_576,
                       resumedWhereItStopped: resumedWhereItStopped,
                       arrivals: arrivals, arrivalsMs: arrivalsMs)
    }
}
