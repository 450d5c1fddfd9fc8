import CarouselCore
import CarouselSDL
import CarouselPainting

/// A view that opens another on a tap (the mosaic and the grid open the carousel): what a
/// `ScenePair` needs of the view at its bottom.
public protocol OpeningScene: Scene {
    /// The latest time its engine has seen.
    var time: Double { get }
    /// Items tapped since the last call, oldest first: what it opens.
    func takeTaps() -> [Int]
    /// A view was opened over it: it loads nothing meanwhile.
    func covered()
    /// Shown again, with the item the opened view showed last brought on screen.
    func returned(showing item: Int?, time: Double) throws(SDLError)
    /// The tile showing `item`, if it is on screen with its picture: what grows into the
    /// carousel when tapped.
    func tile(showing item: Int) -> PlacedPicture?
    /// As `Scene.apply(.catalog)`; `recording` false where the change was logged already.
    func replaceCatalog(_ new: [ImageSource], time: Double, recording: Bool) throws(SDLError)
}

/// A view opened from another (the carousel opened on a tile): what a `ScenePair` needs of
/// the view it opens.
public protocol OpenedScene: Scene {
    var time: Double { get }
    var painter: FramePainter { get }
    /// Put aside when closed: nothing decodes, the textures stay for the next opening.
    func park()
    /// Shown again after `park`, on `index`, in `viewport`.
    func reopen(at index: Int, viewport: Size, time: Double) throws(SDLError)
    /// Puts stand-ins (`pipeline.standIn`) into the slots still waiting for their image.
    func showStandIns() throws(SDLError)
    /// The centred picture where it rests, if it has its picture (or a stand-in).
    var focusedPicture: PlacedPicture? { get }
}

/// A picture on the screen: its texture, where it is drawn and which part of it shows
/// (fractions 0–1: a tile's cover crop, or all of it).
public struct PlacedPicture {
    public var picture: ShownPicture
    public var frame: Rect
    public var crop: Rect

    /// `picture` covering `box`: its middle, cropped to the box's shape (a tile, the pager).
    static func covering(_ picture: ShownPicture, _ box: Rect) -> PlacedPicture {
        PlacedPicture(picture: picture, frame: box,
                      crop: AspectFit.coverPart(of: Size(width: Double(picture.width), height: Double(picture.height)), in: box.size))
    }

    /// `picture` whole, fitted in `box`.
    static func fitting(_ picture: ShownPicture, _ box: Rect) -> PlacedPicture {
        PlacedPicture(picture: picture, frame: AspectFit.rect(of: Size(width: Double(picture.width), height: Double(picture.height)), in: box),
                      crop: Rect(x: 0, y: 0, width: 1, height: 1))
    }
}
