import CarouselCore
import Glibc

/// An animated picture's frames as a video helper plays them through the clips' frame
/// path: each the whole canvas, composed as its format says, in RGBA.
public protocol AnimationFrames: AnyObject {
    var width: Int { get }
    var height: Int { get }
    /// How many times the whole animation plays: 0 for ever.
    var plays: Int { get }
    /// The library decoding it, named in the log line of each that plays.
    var decoder: String { get }
    /// Composes the next frame and copies the canvas (rows `width` × 4 bytes, no padding)
    /// into `buffer`; how long it shows, in seconds, or nil after the last frame.
    func next(into buffer: UnsafeMutableRawPointer) throws(ImageError) -> Double?
    /// Back before the first frame.
    func rewind() throws(ImageError)
}

/// An animation's frames with the colour its file declares (a WebP's ICCP chunk, an APNG's
/// iCCP, sRGB, gAMA or cICP; a GIF is sRGB) and a WebP's EXIF orientation: its frames are
/// converted and turned as its still is.
public struct ColouredFrames {
    public let frames: any AnimationFrames
    public let colour: EmbeddedColour
    public var orientation = ExifOrientation.up
}

/// Animated GIF, WebP and PNG: found when the picture is decoded (in the helper, from the
/// hostile file), played by a video helper with the reference libraries (giflib; libwebp's
/// animation decoder; libspng for each APNG frame, found by our own chunk reader), frame
/// delays and loop counts as browsers play them.
public enum PictureAnimation {
    /// The largest canvas played, 4K: the ring holds four of them. A larger animation
    /// shows as its still, with one line.
    public static let maxPixels = 3840 * 2160

    /// A frame's delay as browsers show it: under 11 ms (the 0 and 1 hundredths of a second
    /// many GIFs say) is 100 ms.
    public static func shownDelay(_ seconds: Double) -> Double { seconds < 0.011 ? 0.1 : seconds }

    /// Whether `head` starts like a format that animates: GIF, WebP (RIFF … WEBP) or PNG.
    public static func mayAnimate(_ head: [UInt8]) -> Bool {
        isGIF(head) || isWebP(head) || isPNG(head)
    }

    /// Whether the picture in `bytes` has more than one frame.
    public static func isAnimated(_ bytes: [UInt8]) -> Bool {
        if isGIF(bytes) { return GIFCodec.survey(bytes).hasSecondFrame }
        if isWebP(bytes) { return WebPCodec.frameCount(bytes) > 1 }
        if isPNG(bytes) { return APNGFrames.isAnimated(bytes) }
        return false
    }

    /// The frames of the animated picture in the open file `fd`, and its colour; nil when
    /// it is not one. The file is read (once) only when its first bytes are a GIF's, a
    /// WebP's or a PNG's.
    static func open(file fd: Int32, name: String) throws(ImageError) -> ColouredFrames? {
        var head = [UInt8](repeating: 0, count: 12)
        guard pread(fd, &head, head.count, 0) == head.count, mayAnimate(head) else { return nil }
        let bytes = try ImageFile.read(fd, name: name)
        guard isAnimated(bytes), let frames = try open(bytes, name: name) else { return nil }
        let colour = isWebP(bytes) ? ICCExtraction.webp(bytes) : isPNG(bytes) ? PNGCodec.declaredColour(bytes, path: name) : .sRGB
        return ColouredFrames(frames: frames, colour: colour, orientation: isWebP(bytes) ? ExifOrientation.read(webp: bytes) : .up)
    }

    /// The frames of the animation in `bytes`; nil: it is not one (one frame, or another format).
    public static func open(_ bytes: [UInt8], name: String) throws(ImageError) -> (any AnimationFrames)? {
        if isGIF(bytes) { return try GIFCodec.Frames(bytes, path: name) }
        if isWebP(bytes) { return try WebPCodec.Frames(bytes, path: name) }
        if isPNG(bytes) { return try APNGFrames(bytes, path: name) }
        return nil
    }

    /// Throws when a canvas is too large to play.
    static func check(width: Int, height: Int, path: String) throws(ImageError) {
        guard width >= 1, height >= 1 else { throw ImageError(path: path, reason: "is a corrupt animation (a canvas without pixels)") }
        guard width <= 16384, height <= 16384, width * height <= maxPixels else {
            throw ImageError(path: path, reason: "is an animation of \(width)x\(height), more than the \(maxPixels / 1_000_000) megapixels played; it shows still")
        }
    }

    private static func isGIF(_ b: [UInt8]) -> Bool {
        b.count >= 6 && b[0] == 0x47 && b[1] == 0x49 && b[2] == 0x46 && b[3] == 0x38
    }

    private static func isPNG(_ b: [UInt8]) -> Bool {
        b.count >= 8 && b[0] == 137 && b[1] == 80 && b[2] == 78 && b[3] == 71
    }

    private static func isWebP(_ b: [UInt8]) -> Bool {
        b.count >= 12 && b[0] == 0x52 && b[1] == 0x49 && b[2] == 0x46 && b[3] == 0x46
            && b[8] == 0x57 && b[9] == 0x45 && b[10] == 0x42 && b[11] == 0x50
    }
}
