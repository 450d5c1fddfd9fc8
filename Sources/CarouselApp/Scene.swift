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

/// A view the run loop, `carousel render` and `carousel bench` drive: an engine (its layout
/// and physics), the shared image pipeline and a painter. The carousel is one; the loop
/// knows nothing of strips or walls. Lives on the main thread.
public protocol Scene: DrivenView {
    /// The size laid out, in logical pixels.
    var viewport: Size { get }
    /// The pictures shown, in order.
    var sources: [ImageSource] { get }
    /// The item in focus (the centred picture), nil when there are none.
    var currentIndex: Int? { get }
    var pipeline: ImagePipeline { get }

    /// Waits until every image asked for has arrived (render only).
    func finishLoading() throws(SDLError)
    /// Shows a view opened from another (the carousel opened from the wall): Escape,
    /// Backspace and the back button return (`.back`).
    var canGoBack: Bool { get }
    /// Which view shows (the control API's status, MQTT, the `view` event).
    var shows: ViewKind { get }
}

extension Scene {
    /// Logs `catalog_changed` for a change from `old` to `new`.
    public func recordCatalogChange(from old: [ImageSource], to new: [ImageSource], at time: Double) {
        pipeline.recordCatalogChange(from: old, to: new, at: time)
    }
    public var canGoBack: Bool { false }
    public var shows: ViewKind { .carousel }
    /// The view scrolls up and down (a wall): the Up and Down keys step it too.
    public var scrollsVertically: Bool { shows.isTiled }
}

