/// A slow zoom and pan over the centred picture while autoplay dwells on it (`--ken-burns`):
/// from the whole picture to 1/1.12 of it, drifting towards a point chosen per picture from
/// a seed, so the same picture makes the same motion on every run. It eases in and out over
/// the dwell, holds its last frame while the strip moves on, and stops the moment anyone
/// touches the screen.
public enum KenBurns {
    /// How far in it ends.
    public static let endScale = 1.12

    /// The part of the picture shown (fractions 0–1 of it) `progress` (0–1) through the
    /// dwell on item `item`.
    public static func crop(progress: Double, item: Int, seed: UInt64 = 0x4B42_5552_4E53) -> Rect {
        var random = SeededRandom(seed: seed ^ UInt64(truncatingIfNeeded: item) &* 0x9E37_79B9_7F4A_7C15)
        // Where in the room the shrinking window leaves it ends (0: the left or top edge,
        // 1: the right or bottom), from the middle outwards: a drift, never hard into a corner.
        let fx = 0.1 + 0.8 * Double(random.next() % 10_001) / 10_000
        let fy = 0.1 + 0.8 * Double(random.next() % 10_001) / 10_000
        let u = min(max(progress, 0), 1)
        let p = u * u * (3 - 2 * u)
        let side = 1 / (1 + (endScale - 1) * p)
        let room = 1 - side
        return Rect(x: room * (0.5 + (fx - 0.5) * p), y: room * (0.5 + (fy - 0.5) * p), width: side, height: side)
    }
}
