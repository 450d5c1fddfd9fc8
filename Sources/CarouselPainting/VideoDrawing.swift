import CarouselCore
import CarouselSDL

/// A playing clip's frame as the painter draws it in its item's place, over its poster:
/// the YUV texture, its stored size, how it is turned upright and its colour matrix. An
/// animated picture's frame (RGBA, maybe transparent) is drawn instead of its still.
public struct VideoDrawing {
    public var item: Int
    public var texture: SDLTexture
    public var width: Int
    public var height: Int
    public var quarterTurns: Int
    public var matrix: VideoMatrix
    /// Drawn instead of the item's picture, not over it (an animation: what its frames
    /// leave transparent must not show the still).
    public var replacesPicture: Bool

    /// The item whose picture is not drawn under it.
    public var replacedPicture: Int? { replacesPicture ? item : nil }

    public init(item: Int, texture: SDLTexture, width: Int, height: Int, quarterTurns: Int, matrix: VideoMatrix,
                replacesPicture: Bool = false) {
        self.replacesPicture = replacesPicture
        self.item = item
        self.texture = texture
        self.width = width
        self.height = height
        self.quarterTurns = quarterTurns
        self.matrix = matrix
    }
}
