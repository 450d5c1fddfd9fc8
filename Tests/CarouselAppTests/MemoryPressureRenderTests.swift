import Foundation
import Testing

/// Memory pressure played by a script (as the kernel would report it in the window): the
/// cache keeps only the slot pool's images, one line is logged each way.
@Suite struct MemoryPressureRenderTests {
    @Test func underPressureOnlyThePoolsImagesAreKept() throws {
        let script = """
            wait 200
            memory-pressure high
            key right
            wait 400
            snapshot under
            memory-pressure normal
            wait 100
            """
        let (out, r) = try CarouselBinary.render([try InteractiveWindowTests.images()], script: script,
                                                 options: ["--prefetch", "4"])
        #expect(r.status == 0, "\(r.stderr)")
        let events = try String(contentsOfFile: out + "/events.jsonl", encoding: .utf8).split(separator: "\n")
            .compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        let pressure = events.filter { $0["type"] as? String == "memory_pressure" }
        let slots = events.first { $0["type"] as? String == "pool" }?["slots"] as? Int ?? 0
        #expect(pressure.map { $0["level"] as? String } == ["high", "normal"])
        let cached = pressure.first?["cached"] as? Int ?? -1, dropped = pressure.first?["dropped"] as? Int ?? -1
        #expect(cached >= 1 && cached <= slots, "\(cached) images kept under pressure, \(slots) slots")
        // Four prefetched beyond the pool's far end (the near end is the first item) went.
        #expect(dropped == 4, "\(dropped) images dropped")
        #expect(r.stderr.components(separatedBy: "memory is tight").count == 2)
        #expect(r.stderr.components(separatedBy: "memory pressure eased").count == 2)
        #expect(FileManager.default.fileExists(atPath: out + "/under.png"))
    }
}
