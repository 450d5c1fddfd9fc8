import CarouselCore
import CarouselSDL

/// A playing clip's frame as the painter draws it in its item's place, over its poster:
/// the YUV texture, its stored size, how it is turned upright and its colour matrix.
public struct VideoDrawing {
    public var item: Int
    public var texture: SDLTexture
    public var width: Int
    public var height: Int
    public var quarterTurns: Int
    public var matrix: VideoMatrix

    public init(item: Int, texture: SDLTexture, width: Int, height: Int, quarterTurns: Int, matrix: VideoMatrix) {
        self.item = item
        self.texture = texture
        self.width = width
        self.height = height
        self.quarterTurns = quarterTurns
        self.matrix = matrix
    }
}
