import Foundation
import Testing
@testable import CarouselMedia

/// The decoder helpers' default memory limit follows the machine's memory.
@Suite struct DecodeMemoryTests {
    @Test func aQuarterOfTheMachineWithinTheBounds() {
        #expect(DecodeMemory.limit(forPhysicalMB: 1024) == 384)    // a 1 GB Raspberry Pi: a phone's AVIF fits
        #expect(DecodeMemory.limit(forPhysicalMB: 512) == 384)
        #expect(DecodeMemory.limit(forPhysicalMB: 2048) == 512)
        #expect(DecodeMemory.limit(forPhysicalMB: 8192) == 1024)
    }

    @Test func readsThisMachinesMemory() throws {
        let meminfo = try String(contentsOfFile: "/proc/meminfo", encoding: .utf8)
        let line = meminfo.split(separator: "\n").first { $0.hasPrefix("MemTotal:") } ?? ""
        let kb = Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
        #expect(kb > 0)
        #expect(abs(DecodeMemory.physicalMB - kb / 1024) <= max(1, kb / 1024 / 100), "\(DecodeMemory.physicalMB) MB, /proc/meminfo says \(kb / 1024)")
    }
}
