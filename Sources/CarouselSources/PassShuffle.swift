/// `--order random` reshuffles on every pass through the images, so a long-running kiosk
/// does not repeat one sequence. The items on screen (or about to be) keep their places,
/// so nothing visibly jumps.
public enum PassShuffle {
    /// `sources` with every index outside `keeping` shuffled among those indices.
    public static func reshuffle<G: RandomNumberGenerator>(_ sources: [ImageSource], keeping: Set<Int>,
                                                           using rng: inout G) -> [ImageSource] {
        let free = sources.indices.filter { !keeping.contains($0) }
        let shuffled = free.map { sources[$0] }.shuffled(using: &rng)
        var out = sources
        for (i, s) in zip(free, shuffled) { out[i] = s }
        return out
    }

    /// Tracks passes: a pass ends when the first item is centred again after the last one was.
    public struct Tracker: Sendable {
        private var sawLast = false
        public init() {}

        /// Feed each `settled` index; true when a new pass begins and it is time to reshuffle.
        public mutating func settled(at index: Int, count: Int) -> Bool {
            if index == count - 1 { sawLast = true }
            guard index == 0, sawLast, count > 1 else { return false }
            sawLast = false
            return true
        }
    }
}

import CarouselMedia
import CarouselCore