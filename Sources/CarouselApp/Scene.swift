import CarouselCore
import CarouselMedia
import CarouselSDL

/// Anything driven frame by frame, by the run loop, `carousel render` or `carousel bench`:
/// inputs and time in, images up, a frame out. Every `Scene` is one; so is the bench's naive
/// gallery. Lives on the main thread.
public protocol DrivenView: AnyObject {
    /// Moving, held by a pointer, or resting until when.
    var activity: ViewActivity { get }
    func handle(_ input: ViewInput) throws(SDLError)
    func advance(to time: Double) throws(SDLError)
    /// Uploads the images the workers finished, without waiting; whether any arrived.
    func pump() throws(SDLError) -> Bool
    /// Draws the current frame into the renderer's current target.
    func draw(on renderer: SDLRenderer)
    /// Something that happened outside the engine's input: new pictures, the screen, the
    /// textures, memory, back, what to say when empty.
    func apply(_ change: SceneChange) throws(SDLError)
}

/// A view as the run loop and its parts see it: driven frame by frame, showing these
/// pictures in this state. Every `Scene` is one; a test's stand-in is one without SDL.
public protocol ShownView: DrivenView {
    /// Which view shows, at what size, on which item, and whether Back leads somewhere.
    var state: ViewState { get }
    /// The pictures shown, in order.
    var sources: [ImageSource] { get }
}

/// A view the run loop, `carousel render` and `carousel bench` drive: an engine (its layout
/// and physics), the shared image pipeline and a painter. The carousel is one; the loop
/// knows nothing of strips or walls. Lives on the main thread.
public protocol Scene: ShownView {
    var pipeline: ImagePipeline { get }
    /// Waits until every image asked for has arrived (render only).
    func finishLoading() throws(SDLError)
}

extension Scene {
    /// Logs `catalog_changed` for a change from `old` to `new`.
    public func recordCatalogChange(from old: [ImageSource], to new: [ImageSource], at time: Double) {
        pipeline.recordCatalogChange(from: old, to: new, at: time)
    }
}

extension ShownView {
    /// The view scrolls up and down (a wall): the Up and Down keys step it too.
    public var scrollsVertically: Bool { state.kind.isTiled }
}
