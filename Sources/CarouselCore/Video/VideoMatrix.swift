/// How a video stream's YUV values become colours: the three conversions a renderer makes
/// (SDL's). The stream says which; the drawing follows it.
public enum VideoMatrix: UInt8, Sendable {
    /// BT.601, limited range (SD video, most phone clips before HD).
    case bt601 = 1
    /// BT.709, limited range (HD video).
    case bt709
    /// BT.601, full range (JPEG's; some phones' clips).
    case full601
}
