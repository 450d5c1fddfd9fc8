import CSDL2
import CarouselCore

/// An SDL window; destroyed with this object.
public final class SDLWindow {
    let handle: OpaquePointer
    /// SDL stays initialised while the window exists: destroyed after SDL_Quit, it would
    /// reach into unloaded drivers.
    private let session: SDLSession

    public struct Options: Sendable {
        public var title = "KioskCarousel"
        public var width = 1280
        public var height = 720
        public var hidden = false
        public var resizable = true
        public var fullscreen = false
        public var display = 0
        public init() {}
    }

    public init(_ o: Options, session: SDLSession) throws(SDLError) {
        self.session = session
        var flags = SDL_WINDOW_ALLOW_HIGHDPI.rawValue
        if o.hidden { flags |= SDL_WINDOW_HIDDEN.rawValue }
        if o.resizable { flags |= SDL_WINDOW_RESIZABLE.rawValue }
        var x = Int32(bitPattern: SDL_WINDOWPOS_CENTERED_MASK | UInt32(o.display)), y = x
        var width = Int32(o.width), height = Int32(o.height)
        var bounds = SDL_Rect()
        if o.fullscreen {
            flags |= SDL_WINDOW_FULLSCREEN_DESKTOP.rawValue
            // Full screen on X11 is a request to the window manager; an X session without
            // one (xinit running only the carousel) would leave a small window that SDL
            // nevertheless lays out at the display's size. A borderless window covering
            // the display is right either way.
            if SDL_GetDisplayBounds(Int32(o.display), &bounds) == 0 {
                flags |= SDL_WINDOW_BORDERLESS.rawValue
                (x, y, width, height) = (bounds.x, bounds.y, bounds.w, bounds.h)
            }
        }
        guard let w = SDL_CreateWindow(o.title, x, y, width, height, flags) else {
            throw SDLError("SDL_CreateWindow")
        }
        handle = w
    }

    deinit { SDL_DestroyWindow(handle) }

    /// Size in window coordinates (points on HiDPI screens).
    public var size: Size {
        var w: Int32 = 0, h: Int32 = 0
        SDL_GetWindowSize(handle, &w, &h)
        return Size(width: Double(w), height: Double(h))
    }

    public var origin: Point {
        var x: Int32 = 0, y: Int32 = 0
        SDL_GetWindowPosition(handle, &x, &y)
        return Point(x: Double(x), y: Double(y))
    }

    public var isFullscreen: Bool {
        SDL_GetWindowFlags(handle) & SDL_WINDOW_FULLSCREEN_DESKTOP.rawValue != 0
    }

    /// Full screen at the desktop's resolution, or back to a window.
    /// Asks for a new size in window coordinates; the size change arrives as an event.
    public func setSize(width: Int, height: Int) {
        SDL_SetWindowSize(handle, Int32(width), Int32(height))
    }

    public func setFullscreen(_ on: Bool) {
        SDL_SetWindowFullscreen(handle, on ? SDL_WINDOW_FULLSCREEN_DESKTOP.rawValue : 0)
    }
}
