/// Which decoders play clips (`--video-decoder`).
public enum VideoDecoders: String, Sendable, CaseIterable {
    /// The decoder of the highest rank: a hardware one where the machine has it (V4L2 on a
    /// Raspberry Pi, VA-API on Intel and AMD), else software.
    case auto
    /// Software only (libav, libvpx, libaom), never a hardware decoder.
    case software
}
