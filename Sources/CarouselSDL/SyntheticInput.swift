import CSDL2
import CarouselCore

/// Input made up by the program itself and put into SDL's queue as if a mouse, a touch
/// screen or a keyboard had sent it, so that it takes the whole way real input takes
/// (translation, the run loop, the engine). `carousel bench --soak` drives the program
/// with it. Call on the main thread; SDL stamps each event with the time it is queued.
public enum SyntheticInput {
    public enum Phase: Sendable { case down, move, up }

    /// A finger on the touch screen (`finger` true) or the left mouse button at drawable
    /// pixel (`x`, `y`) of a window of `size` (no HiDPI scaling assumed).
    public static func pointer(_ phase: Phase, x: Double, y: Double, finger: Bool, size: Size) {
        var e = SDL_Event()
        if finger {
            switch phase {
            case .down: e.type = SDL_FINGERDOWN.rawValue
            case .move: e.type = SDL_FINGERMOTION.rawValue
            case .up: e.type = SDL_FINGERUP.rawValue
            }
            e.tfinger.touchId = 1
            e.tfinger.fingerId = 0
            e.tfinger.x = Float(x / max(size.width, 1))
            e.tfinger.y = Float(y / max(size.height, 1))
            e.tfinger.pressure = phase == .up ? 0 : 1
        } else if phase == .move {
            e.type = SDL_MOUSEMOTION.rawValue
            e.motion.which = 0
            e.motion.state = SDL_BUTTON_LMASK_VALUE
            e.motion.x = Int32(x.rounded())
            e.motion.y = Int32(y.rounded())
        } else {
            e.type = (phase == .down ? SDL_MOUSEBUTTONDOWN : SDL_MOUSEBUTTONUP).rawValue
            e.button.which = 0
            e.button.button = UInt8(SDL_BUTTON_LEFT)
            e.button.state = UInt8(phase == .down ? SDL_PRESSED : SDL_RELEASED)
            e.button.clicks = 1
            e.button.x = Int32(x.rounded())
            e.button.y = Int32(y.rounded())
        }
        SDL_PushEvent(&e)
    }

    /// Wheel notches: positive scrolls down, as turning a wheel towards you does.
    public static func wheel(_ notches: Double) {
        var e = SDL_Event()
        e.type = SDL_MOUSEWHEEL.rawValue
        e.wheel.which = 0
        e.wheel.y = Int32(-notches.rounded())
        e.wheel.preciseY = Float(-notches)
        e.wheel.direction = SDL_MOUSEWHEEL_NORMAL.rawValue
        SDL_PushEvent(&e)
    }

    /// A key pressed, by SDL's name for it ("Left", "Space"); false for a name SDL does not know.
    @discardableResult
    public static func key(named name: String) -> Bool {
        let sym = SDL_GetKeyFromName(name)
        guard sym != SDLK_UNKNOWN.rawValue else { return false }
        var e = SDL_Event()
        e.type = SDL_KEYDOWN.rawValue
        e.key.state = UInt8(SDL_PRESSED)
        e.key.keysym.sym = sym
        SDL_PushEvent(&e)
        return true
    }
}
