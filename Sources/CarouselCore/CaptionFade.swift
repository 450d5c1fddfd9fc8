/// How visible the centred item's caption is: fully at rest, fading out as the strip moves
/// off an item and back in as the next one arrives, so a caption never sits over the
/// wrong picture. By position alone, so render snapshots show exactly what the window does.
public enum CaptionFade {
    /// Within this many items of a resting place the caption shows fully.
    static let solid = 0.02
    /// Beyond this many items from it the caption is gone.
    static let gone = 0.25

    /// Opacity 0...1 at a fractional `position`.
    public static func opacity(at position: Double) -> Double {
        let off = abs(position - position.rounded())
        if off <= solid { return 1 }
        return max(0, 1 - (off - solid) / (gone - solid))
    }
}
