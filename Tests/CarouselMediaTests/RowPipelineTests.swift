@testable import CarouselMedia
import Foundation
import Testing

/// Rows decoded on one thread and fitted on another arrive whole, once each and in order;
/// a decoder's error stops both threads and is the caller's.
struct RowPipelineTests {
    struct Broken: Error, Equatable { let atRow: Int }

    /// Runs the pipeline over `rows` rows of `width` RGBA pixels, each filled with its
    /// number; failing at row `failAt` if given. Returns the row numbers consumed, in order.
    static func run(rows: Int, width: Int, batch: Int = 32, failAt: Int? = nil) throws(Broken) -> [Int] {
        final class Seen: @unchecked Sendable { var rows: [Int] = []; var whole = true }
        let seen = Seen()
        var next = 0
        try RowPipeline.run(rowBytes: width * 4, rows: rows, batch: batch, produce: { pointers throws(Broken) -> Int in
            var filled = 0
            while filled < batch && next < rows {
                if let failAt, next == failAt { throw Broken(atRow: next) }
                let row = pointers[filled]!
                for i in 0..<(width * 4) { row[i] = UInt8(truncatingIfNeeded: next &+ i / 4) }
                filled += 1
                next += 1
            }
            return filled
        }, consume: { first, count in
            for r in 0..<count {
                let row = first + r * width * 4
                let number = Int(row[0])
                // Every byte of the row as written: none overwritten by the next batch.
                for i in 0..<(width * 4) where row[i] != UInt8(truncatingIfNeeded: number &+ i / 4) { seen.whole = false }
                seen.rows.append(seen.rows.count)
                if UInt8(truncatingIfNeeded: seen.rows.count - 1) != row[0] { seen.whole = false }
            }
        })
        return seen.whole ? seen.rows : []
    }

    @Test func aLargePictureArrivesWholeOnceAndInOrder() throws {
        // 2000 x 1000: over the size where a second thread fits (on a machine with two cores).
        let rows = try Self.run(rows: 1000, width: 2000)
        #expect(rows == Array(0..<1000))
    }

    @Test func aSmallPictureToo() throws {
        let rows = try Self.run(rows: 37, width: 50, batch: 16)
        #expect(rows == Array(0..<37))
    }

    @Test func anErrorStopsBothThreadsAndIsThrown() {
        #expect(throws: Broken(atRow: 500)) { _ = try Self.run(rows: 1000, width: 2000, failAt: 500) }
        #expect(throws: Broken(atRow: 0)) { _ = try Self.run(rows: 1000, width: 2000, failAt: 0) }
    }
}
