import Foundation
import Testing
@testable import CarouselMedia

/// Memory pressure from an injected source: signalled at once, eased only after a calm spell.
@Suite struct MemoryPressureTests {
    /// A source the test signals, with a stall share it sets.
    final class FakeSource: PressureSource, @unchecked Sendable {
        private let signal = DispatchSemaphore(value: 0)
        private let lock = NSLock()
        private var stall = 0.0
        func press(stall: Double) { lock.withLock { self.stall = stall }; signal.signal() }
        func setStall(_ s: Double) { lock.withLock { stall = s } }
        func waitForStall(timeout: Double) -> Bool { signal.wait(timeout: .now() + min(timeout, 0.2)) == .success }
        func recentStall() -> Double? { lock.withLock { stall } }
    }

    final class Levels: @unchecked Sendable {
        private let lock = NSLock()
        private var seen: [MemoryPressureLevel] = []
        func add(_ l: MemoryPressureLevel) { lock.withLock { seen.append(l) } }
        var all: [MemoryPressureLevel] { lock.withLock { seen } }
        func wait(for count: Int, seconds: Double = 10) -> Bool {
            let end = Date().addingTimeInterval(seconds)
            while Date() < end { if all.count >= count { return true }; Thread.sleep(forTimeInterval: 0.01) }
            return false
        }
    }

    @Test func highWhenSignalledNormalOnlyAfterACalmSpell() {
        let source = FakeSource(), levels = Levels()
        var tuning = MemoryPressureWatcher.Tuning()
        tuning.calmBelow = 1
        tuning.calmFor = 0.3
        tuning.checkEvery = 0.02
        let watcher = MemoryPressureWatcher(source: source, tuning: tuning) { levels.add($0) }
        defer { watcher.stop() }
        #expect(watcher.level == .normal)
        source.press(stall: 40)
        #expect(levels.wait(for: 1))
        #expect(watcher.level == .high)
        // Still stalling: it stays high.
        Thread.sleep(forTimeInterval: 0.5)
        #expect(levels.all == [.high])
        source.setStall(0.2)
        #expect(levels.wait(for: 2), "never eased")
        #expect(levels.all == [.high, .normal] && watcher.level == .normal)
        // And rises again on the next signal.
        source.press(stall: 40)
        #expect(levels.wait(for: 3))
        #expect(levels.all == [.high, .normal, .high])
    }

    @Test func readsTheKernelsStallShare() {
        let text = "some avg10=12.50 avg60=3.10 avg300=0.70 total=123456\nfull avg10=1.00 avg60=0.20 avg300=0.00 total=2345\n"
        #expect(PSIMemorySource.someAvg10(text) == 12.5)
        #expect(PSIMemorySource.someAvg10("full avg10=1.00\n") == nil)
        #expect(PSIMemorySource.someAvg10("garbage") == nil)
    }
}
