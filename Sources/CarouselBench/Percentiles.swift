import CarouselApp
/// Percentiles of a set of samples by the nearest-rank method: p(q) is the smallest sample
/// with at least q of all samples at or below it, so every figure is a real measurement.
struct Percentiles: Sendable {
    let sorted: [Double]

    init(_ samples: [Double]) { sorted = samples.sorted() }

    var count: Int { sorted.count }
    var isEmpty: Bool { sorted.isEmpty }

    /// `q` from 0 to 1 (0.99 for p99); nil without samples.
    func at(_ q: Double) -> Double? {
        guard !sorted.isEmpty else { return nil }
        let rank = Int((q * Double(sorted.count)).rounded(.up))
        return sorted[Swift.min(Swift.max(rank, 1), sorted.count) - 1]
    }

    var largest: Double? { sorted.last }

    /// How many samples are above `limit`.
    func countAbove(_ limit: Double) -> Int { sorted.count - sorted.partitioningIndex { $0 > limit } }
}

extension Array where Element == Double {
    /// The index of the first element for which `belongs` is true, in a sorted array.
    func partitioningIndex(where belongs: (Double) -> Bool) -> Int {
        var lo = 0, hi = count
        while lo < hi {
            let mid = (lo + hi) / 2
            if belongs(self[mid]) { hi = mid } else { lo = mid + 1 }
        }
        return lo
    }
}
