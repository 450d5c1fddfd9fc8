import CarouselCore
import CarouselSDL

/// A view that opens another on a tap (the mosaic and the grid open the carousel): what a
/// `SceneStack` needs of the view at its bottom.
public protocol OpeningScene: Scene, BenchSubject {
    /// Its name in `view` events: `mosaic`, `grid`.
    var viewName: String { get }
    /// The latest time its engine has seen.
    var time: Double { get }
    /// Items tapped since the last call, oldest first: what it opens.
    func takeTaps() -> [Int]
    /// A view was opened over it: it loads nothing meanwhile.
    func covered()
    /// Shown again, with the item the opened view showed last brought on screen.
    func returned(showing item: Int?, time: Double) throws(SDLError)
    /// As `Scene.apply(.catalog)`; `recording` false where the change was logged already.
    func replaceCatalog(_ new: [ImageSource], time: Double, recording: Bool) throws(SDLError)
}

/// A view opened from another (the carousel opened on a tile): what a `SceneStack` needs of
/// the view it opens.
public protocol OpenedScene: Scene, BenchSubject {
    var time: Double { get }
    var painter: FramePainter { get }
    /// Put aside when closed: nothing decodes, the textures stay for the next opening.
    func park()
    /// Shown again after `park`, on `index`, in `viewport`.
    func reopen(at index: Int, viewport: Size, time: Double) throws(SDLError)
    /// Puts stand-ins (`pipeline.standIn`) into the slots still waiting for their image.
    func showStandIns() throws(SDLError)
}
