import CSDL2
import CarouselCore
import CarouselDevices
import CarouselClock

/// Turns SDL events into `WindowInput`, counting each gesture once:
/// - mouse events SDL synthesises from touches (`which == SDL_TOUCH_MOUSEID`) and touch
///   events it synthesises from the mouse (`touchId == SDL_MOUSE_TOUCHID`) are dropped;
/// - finger coordinates, normalised 0–1, become viewport pixels; a driver that reports them
///   outside 0–1 (seen on KMS/DRM and Wayland) is taken to give display pixels, logged once;
/// - a touch shorter than `noiseDuration` that never moved is noise: it is cancelled, not a
///   tap. Only a panel the program reads itself (KMS/DRM: the kernel stamps each event); an
///   SDL touch (X11, Wayland) carries the time SDL queued it, and a down and an up delivered
///   together (a compositor or a client busy for 40 ms, a Pi decoding a clip) carry the same
///   time: a real tap looked like noise and was lost (1 round in 20 of the Wayland boot
///   proof's under emulation). There the display server's input stack stands for the panel.
/// One finger owning the gesture is the engine's rule (`GestureTracker`).
public struct SDLInputTranslator {
    /// Touches shorter than this without motion are electrical noise, not taps (seconds).
    public static let noiseDuration = 0.020

    /// Told once when finger coordinates arrive outside 0–1.
    public var log: (String) -> Void
    private var warnedOutOfRange = false
    private var fingerDown: [Int64: (time: Double, moved: Bool)] = [:]

    public init(log: @escaping (String) -> Void = { _ in }) {
        self.log = log
    }

    public mutating func translate(_ event: SDLEvent, geometry g: InputGeometry) -> [WindowInput] {
        switch event.origin {
        case .sdl(let e): translate(e, geometry: g, time: EventQueue.fromSDL)
        case .device(let d): translate(d, geometry: g, time: LoopClock.fromMonotonic)
        }
    }

    /// An input device's event as `EventDeviceReader` read it (KMS/DRM): positions 0–1 of
    /// the panel or screen; `time` turns its CLOCK_MONOTONIC time into the loop's clock.
    mutating func translate(_ d: DeviceInput, geometry g: InputGeometry, time: (Double) -> Double) -> [WindowInput] {
        switch d {
        case .finger(let id, let phase, let x, let y, let t):
            return [finger(id, phase, fingerPoint(x, y, g), time: time(t), filtersNoise: true)]
        case .pointer(let phase, let x, let y, let t):
            let p = scaleWindowPoint(x * g.window.width, y * g.window.height, g)
            return [.pointer(PointerEvent(phase, .mouse, x: p.x, y: p.y, time: time(t)))]
        case .wheel(let vertical, let horizontal, let t):
            return wheel(up: vertical, right: horizontal, at: nil, g, time: time(t))
        case .activity:
            return []
        }
    }

    /// - Parameter time: an SDL event's ticks (milliseconds) on the loop's clock.
    mutating func translate(_ e: SDL_Event, geometry g: InputGeometry, time ticksTime: (UInt32) -> Double) -> [WindowInput] {
        let time = ticksTime(e.common.timestamp)
        switch SDL_EventType(e.type) {
        case SDL_QUIT:
            // Only a lost display connection sends it: SDL has no signal handlers and does
            // not quit when the last window closes (SDLSession).
            return [.displayLost]

        case SDL_MOUSEBUTTONDOWN, SDL_MOUSEBUTTONUP:
            guard e.button.which != SDL_TOUCH_MOUSEID_VALUE, e.button.button == UInt8(SDL_BUTTON_LEFT) else { return [] }
            let p = scaleWindowPoint(Double(e.button.x), Double(e.button.y), g)
            let phase: PointerEvent.Phase = e.type == SDL_MOUSEBUTTONDOWN.rawValue ? .down : .up
            return [.pointer(PointerEvent(phase, .mouse, x: p.x, y: p.y, time: time))]

        case SDL_MOUSEMOTION:
            guard e.motion.which != SDL_TOUCH_MOUSEID_VALUE, e.motion.state & SDL_BUTTON_LMASK_VALUE != 0 else { return [] }
            let p = scaleWindowPoint(Double(e.motion.x), Double(e.motion.y), g)
            return [.pointer(PointerEvent(.move, .mouse, x: p.x, y: p.y, time: time))]

        case SDL_MOUSEWHEEL:
            guard e.wheel.which != SDL_TOUCH_MOUSEID_VALUE else { return [] }
            let flip: Double = e.wheel.direction == UInt32(SDL_MOUSEWHEEL_FLIPPED.rawValue) ? -1 : 1
            return wheel(up: Double(e.wheel.preciseY) * flip, right: Double(e.wheel.preciseX) * flip,
                         at: scaleWindowPoint(Double(e.wheel.mouseX), Double(e.wheel.mouseY), g), g, time: time)

        case SDL_FINGERDOWN, SDL_FINGERMOTION, SDL_FINGERUP:
            guard e.tfinger.touchId != SDL_MOUSE_TOUCHID_VALUE else { return [] }
            let p = fingerPoint(Double(e.tfinger.x), Double(e.tfinger.y), g)
            let phase: PointerEvent.Phase = switch SDL_EventType(e.type) {
            case SDL_FINGERDOWN: .down
            case SDL_FINGERMOTION: .move
            default: .up
            }
            return [finger(e.tfinger.fingerId, phase, p, time: time, filtersNoise: false)]

        case SDL_KEYDOWN:
            return key(e.key.keysym.sym, mod: e.key.keysym.mod, time: time)

        case SDL_WINDOWEVENT:
            switch SDL_WindowEventID(UInt32(e.window.event)) {
            case SDL_WINDOWEVENT_SIZE_CHANGED: return [.resized]
            case SDL_WINDOWEVENT_CLOSE: return [.windowClosed]
            case SDL_WINDOWEVENT_EXPOSED, SDL_WINDOWEVENT_RESTORED, SDL_WINDOWEVENT_SHOWN: return [.redraw]
            default: return []
            }

        case SDL_DISPLAYEVENT:
            return [.resized]  // orientation or mode change: re-read the drawable size

        case SDL_USEREVENT:
            return [.wake(e.user.code)]
        case SDL_RENDER_TARGETS_RESET, SDL_RENDER_DEVICE_RESET:
            return [.renderReset]

        default:
            return []
        }
    }

    /// A finger; `filtersNoise` (its times are the device's own): a touch shorter than
    /// `noiseDuration` that never moved is cancelled.
    private mutating func finger(_ id: Int64, _ phase: PointerEvent.Phase, _ p: Point, time: Double, filtersNoise: Bool) -> WindowInput {
        var phase = phase
        switch phase {
        case .down:
            fingerDown[id] = (time, false)
        case .move:
            fingerDown[id]?.moved = true
        case .up:
            if let d = fingerDown.removeValue(forKey: id), filtersNoise, !d.moved, time - d.time < Self.noiseDuration { phase = .cancel }
        case .cancel:
            fingerDown[id] = nil
        }
        return .pointer(PointerEvent(phase, .finger(id), x: p.x, y: p.y, time: time))
    }

    /// Wheel notches (up and right positive): a scroll, or with Ctrl held a zoom about the
    /// pointer (`at`; the centre when the pointer's place is not known).
    private func wheel(up: Double, right: Double, at point: Point?, _ g: InputGeometry, time: Double) -> [WindowInput] {
        if SDL_GetModState().rawValue & KMOD_CTRL.rawValue != 0 {
            guard up != 0 else { return [] }
            let centre = Self.onCanvas(Point(x: g.drawable.width / 2, y: g.drawable.height / 2), g)
            return [.zoomWheel(up, at: point ?? centre, time: time)]
        }
        // Up scrolls back, right forward.
        let delta = right - up
        return delta == 0 ? [] : [.scroll(delta, time: time)]
    }

    private func key(_ sym: SDL_Keycode, mod: UInt16, time: Double) -> [WindowInput] {
        let names: [Int: KeyPress.Name] = [
            Int(SDLK_LEFT.rawValue): .left, Int(SDLK_RIGHT.rawValue): .right, Int(SDLK_UP.rawValue): .up,
            Int(SDLK_DOWN.rawValue): .down, Int(SDLK_HOME.rawValue): .home, Int(SDLK_END.rawValue): .end,
            Int(SDLK_PAGEUP.rawValue): .pageUp, Int(SDLK_PAGEDOWN.rawValue): .pageDown, Int(SDLK_SPACE.rawValue): .space,
            Int(SDLK_ESCAPE.rawValue): .escape, Int(SDLK_BACKSPACE.rawValue): .backspace, Int(SDLK_F11.rawValue): .f11,
            Int(SDLK_f.rawValue): .f, Int(SDLK_q.rawValue): .q, Int(SDLK_k.rawValue): .k, Int(SDLK_AUDIOPLAY.rawValue): .playPause,
            Int(SDLK_j.rawValue): .j, Int(SDLK_l.rawValue): .l, Int(SDLK_AUDIOREWIND.rawValue): .rewind,
            Int(SDLK_AUDIOFASTFORWARD.rawValue): .fastForward,
            Int(SDLK_PLUS.rawValue): .plus, Int(SDLK_EQUALS.rawValue): .plus, Int(SDLK_KP_PLUS.rawValue): .plus,
            Int(SDLK_MINUS.rawValue): .minus, Int(SDLK_KP_MINUS.rawValue): .minus,
            Int(SDLK_RETURN.rawValue): .enter, Int(SDLK_KP_ENTER.rawValue): .enter, Int(SDLK_SELECT.rawValue): .enter,
        ]
        return [.key(KeyPress(name: names[Int(sym)], keycode: sym, modifiers: KeyCombo.Modifiers(sdl: mod), time: time))]
    }

    /// Window coordinates to the engine's: drawable pixels (they differ on HiDPI screens),
    /// turned back to the logical screen of a rotated panel.
    private func scaleWindowPoint(_ x: Double, _ y: Double, _ g: InputGeometry) -> Point {
        let sx = g.window.width > 0 ? g.drawable.width / g.window.width : 1
        let sy = g.window.height > 0 ? g.drawable.height / g.window.height : 1
        return Self.onCanvas(Point(x: x * sx, y: y * sy), g)
    }

    /// A point of the drawable on the view's canvas: turned back to the logical screen of a
    /// rotated panel, then moved to the panel's place on a spanned wall.
    private static func onCanvas(_ p: Point, _ g: InputGeometry) -> Point {
        let q = g.rotation.toLogical(p, physical: g.drawable)
        return Point(x: q.x + g.canvasOrigin.x, y: q.y + g.canvasOrigin.y)
    }

    private mutating func fingerPoint(_ x: Double, _ y: Double, _ g: InputGeometry) -> Point {
        if (0...1).contains(x) && (0...1).contains(y) {
            let (tx, ty) = g.touch.apply(x: x, y: y)
            return Self.onCanvas(Point(x: tx * g.drawable.width, y: ty * g.drawable.height), g)
        }
        if !warnedOutOfRange {
            warnedOutOfRange = true
            log("touch coordinates arrive outside 0–1 (\(x), \(y)); treating them as display pixels")
        }
        return scaleWindowPoint(x - g.origin.x, y - g.origin.y, g)
    }
}

/// SDL's id of the mouse events it makes from touches (a C macro Swift cannot import).
let SDL_TOUCH_MOUSEID_VALUE = UInt32.max
/// SDL's id of the touch events it makes from the mouse.
let SDL_MOUSE_TOUCHID_VALUE: Int64 = -1
/// SDL_BUTTON_LMASK, a C macro.
let SDL_BUTTON_LMASK_VALUE = UInt32(1) << (UInt32(SDL_BUTTON_LEFT) - 1)
