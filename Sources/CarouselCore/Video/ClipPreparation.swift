/// When the clip autoplay goes to next is made ready (its helper started, its first frames
/// decoded and waiting), so that it shows its first frame the moment the strip comes to rest
/// on it instead of its poster while a helper starts (gapless): in the last `lead` seconds
/// before the show moves on (the clip playing ends, or the picture's interval does), and,
/// while a clip plays, only if the memory available leaves `reserve` free beyond a second
/// helper as large as the one playing. On a 1 GB board a 4K HEVC 10-bit clip's helper takes
/// about 360 MB, so two of those are never alive at once there: the next then starts on
/// arrival, as it did before; two 1080p clips (about 120 MB each) go gapless.
public enum ClipPreparation {
    /// Seconds ahead: a helper's start and a clip's first frame took 0.2-0.4 s on this
    /// machine, about a second on a Pi under load.
    public static let lead = 2.0

    /// Whether to start the next clip now, the show moving on in `remaining` seconds (nil:
    /// not known, a clip without a duration, or autoplay held).
    public static func isDue(remaining: Double?, lead: Double = lead) -> Bool {
        guard let remaining, remaining.isFinite else { return false }
        return remaining <= lead
    }

    /// The memory kept free for everything else: a quarter of the machine's, at least 256 MB.
    public static func reserve(totalBytes: Int) -> Int { max(256 << 20, totalBytes / 4) }

    /// Whether a second helper fits beside the one playing (`helperBytes` resident), the
    /// machine having `availableBytes` available of `totalBytes`.
    public static func memoryAllows(availableBytes: Int, totalBytes: Int, helperBytes: Int) -> Bool {
        availableBytes - max(helperBytes, 0) >= reserve(totalBytes: totalBytes)
    }
}
