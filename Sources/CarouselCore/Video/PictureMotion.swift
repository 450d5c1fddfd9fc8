/// What moves in a picture, found when it is decoded: a clip inside its file (a Motion
/// Photo's MP4 after its JPEG), or the picture's own frames (an animated GIF or WebP).
public enum PictureMotion: Hashable, Sendable {
    /// Where the clip lies in the picture's file.
    case clip(ByteRange)
    /// The file is an animation: its frames play with their own delays and loop count.
    case frames
}
