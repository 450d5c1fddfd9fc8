import CSDL2
import CarouselCore

/// An SDL window; destroyed with this object.
public final class SDLWindow {
    let handle: OpaquePointer

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

    public init(_ o: Options) throws(SDLError) {
        var flags = SDL_WINDOW_ALLOW_HIGHDPI.rawValue
        if o.hidden { flags |= SDL_WINDOW_HIDDEN.rawValue }
        if o.resizable { flags |= SDL_WINDOW_RESIZABLE.rawValue }
        if o.fullscreen { flags |= SDL_WINDOW_FULLSCREEN_DESKTOP.rawValue }
        let pos = Int32(bitPattern: SDL_WINDOWPOS_CENTERED_MASK | UInt32(o.display))
        guard let w = SDL_CreateWindow(o.title, pos, pos, Int32(o.width), Int32(o.height), flags) else {
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
    public func setFullscreen(_ on: Bool) {
        SDL_SetWindowFullscreen(handle, on ? SDL_WINDOW_FULLSCREEN_DESKTOP.rawValue : 0)
    }
}
