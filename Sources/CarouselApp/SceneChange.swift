import CarouselCore
import CarouselMedia

/// What happens to a view from outside its engine's input, told by the run loop, `render`
/// and `bench` through `DrivenView.apply`: one input for all of it, so a new kind (a remote
/// command's) is a case here, not a member of every scene.
public enum SceneChange: Sendable {
    /// New pictures (at rest): the one in focus stays if it is still there.
    case catalog([ImageSource], time: Double)
    /// Opening hours turned the screen off, or a touch or the hours turned it on.
    case screenOff(time: Double)
    case screenOn(time: Double, reason: String)
    /// The renderer lost every texture (SDL_RENDER_DEVICE_RESET, SDL_RENDER_TARGETS_RESET).
    case texturesLost(time: Double)
    /// Memory got tight or eased.
    case memoryPressure(MemoryPressureLevel, time: Double)
    /// Escape, Backspace or the back button: back from a view opened from another.
    case back(time: Double)
    /// What to say instead of an empty view (no pictures found, every one broken, the
    /// server not answering).
    case emptyMessage(String)
    /// A remote `view carousel`: the view below opens the carousel on the item in focus.
    case open(time: Double)
    /// J, L, a remote's rewind or fast-forward key, or a remote `seek`: the clip playing
    /// in focus moves.
    case seek(ClipSeek, time: Double)
    /// Where the show steps next and when (the loop's clock), when a group's timeline steps
    /// it instead of the view's autoplay; nil: it does not. A clip there is made ready.
    case nextStep((item: Int, at: Double)?)

    /// What an empty view says until told otherwise.
    public static let noPictures = "No images found"
}
