import CSDL2
import Testing
@testable import CarouselCore
@testable import CarouselSDL

/// SDL events built by hand (no SDL_Init needed) and translated into engine input.
@Suite struct SDLInputTranslatorTests {
    /// A 640×360-point window drawn at 1280×720 pixels (a HiDPI screen), at (100, 50).
    let hidpi = InputGeometry(window: Size(width: 640, height: 360), drawable: Size(width: 1280, height: 720),
                              origin: Point(x: 100, y: 50))

    func finger(_ type: SDL_EventType, id: Int64 = 7, x: Float, y: Float, ms: UInt32,
                touch: Int64 = 1) -> SDL_Event {
        var e = SDL_Event()
        e.type = type.rawValue
        e.tfinger.timestamp = ms
        e.tfinger.touchId = touch
        e.tfinger.fingerId = id
        e.tfinger.x = x
        e.tfinger.y = y
        return e
    }

    func mouse(_ type: SDL_EventType, x: Int32, y: Int32, ms: UInt32, which: UInt32 = 0) -> SDL_Event {
        var e = SDL_Event()
        e.type = type.rawValue
        if type == SDL_MOUSEMOTION {
            e.motion.timestamp = ms
            e.motion.which = which
            e.motion.x = x
            e.motion.y = y
            e.motion.state = SDL_BUTTON_LMASK_VALUE
        } else {
            e.button.timestamp = ms
            e.button.which = which
            e.button.button = UInt8(SDL_BUTTON_LEFT)
            e.button.x = x
            e.button.y = y
        }
        return e
    }

    func pointer(_ inputs: [WindowInput]) -> PointerEvent? {
        guard inputs.count == 1, case .pointer(let p) = inputs[0] else { return nil }
        return p
    }

    @Test func fingerCoordinatesAreNormalisedToTheDrawable() {
        var t = SDLInputTranslator()
        let p = pointer(t.translate(finger(SDL_FINGERDOWN, x: 0.25, y: 0.5, ms: 1000), geometry: hidpi))
        #expect(p == PointerEvent(.down, .finger(7), x: 320, y: 360, time: 1.0))
    }

    @Test func outOfRangeFingersAreDisplayPixelsLoggedOnce() {
        var logged: [String] = []
        var t = SDLInputTranslator { logged.append($0) }
        let p = pointer(t.translate(finger(SDL_FINGERDOWN, x: 420, y: 230, ms: 0), geometry: hidpi))
        // Display pixel (420, 230) is window point (320, 180), drawable pixel (640, 360).
        #expect(p?.location == Point(x: 640, y: 360))
        _ = t.translate(finger(SDL_FINGERMOTION, x: 500, y: 230, ms: 10), geometry: hidpi)
        #expect(logged.count == 1)
    }

    @Test func mouseIsScaledForHiDPI() {
        var t = SDLInputTranslator()
        let p = pointer(t.translate(mouse(SDL_MOUSEBUTTONDOWN, x: 320, y: 180, ms: 5), geometry: hidpi))
        #expect(p == PointerEvent(.down, .mouse, x: 640, y: 360, time: 0.005))
    }

    @Test func synthesisedEventsAreDropped() {
        var t = SDLInputTranslator()
        // Mouse events SDL made from a touch…
        #expect(t.translate(mouse(SDL_MOUSEBUTTONDOWN, x: 1, y: 1, ms: 0, which: SDL_TOUCH_MOUSEID_VALUE), geometry: hidpi).isEmpty)
        #expect(t.translate(mouse(SDL_MOUSEMOTION, x: 2, y: 1, ms: 1, which: SDL_TOUCH_MOUSEID_VALUE), geometry: hidpi).isEmpty)
        // …and touch events SDL made from the mouse.
        #expect(t.translate(finger(SDL_FINGERDOWN, x: 0.5, y: 0.5, ms: 0, touch: SDL_MOUSE_TOUCHID_VALUE), geometry: hidpi).isEmpty)
        // Motion without the button held is not a drag.
        var hover = mouse(SDL_MOUSEMOTION, x: 5, y: 5, ms: 2)
        hover.motion.state = 0
        #expect(t.translate(hover, geometry: hidpi).isEmpty)
    }

    /// A panel the program reads itself (KMS/DRM), its times the kernel's.
    static let panel = InputGeometry(window: Size(width: 1280, height: 720), drawable: Size(width: 1280, height: 720),
                                     origin: Point(x: 0, y: 0))

    @Test func aVeryShortStillTouchOnAPanelReadDirectlyIsNoise() {
        var t = SDLInputTranslator()
        func touch(_ phase: PointerEvent.Phase, x: Double, at ms: Double) -> PointerEvent? {
            guard case .pointer(let p)? = t.translate(.finger(3, phase, x: x, y: 0.5, time: ms / 1000), geometry: Self.panel,
                                                      time: { $0 }).first else { return nil }
            return p
        }
        _ = touch(.down, x: 0.5, at: 100)
        #expect(touch(.up, x: 0.5, at: 110)?.phase == .cancel)
        // 60 ms is a real tap.
        _ = touch(.down, x: 0.5, at: 200)
        #expect(touch(.up, x: 0.5, at: 260)?.phase == .up)
        // A quick touch that moved is a real (if fast) gesture.
        _ = touch(.down, x: 0.5, at: 300)
        _ = touch(.move, x: 0.45, at: 305)
        #expect(touch(.up, x: 0.4, at: 310)?.phase == .up)
    }

    @Test func noiseIsNotATapForTheEngine() {
        var t = SDLInputTranslator()
        var c = Carousel(itemCount: 5, viewport: Size(width: 1280, height: 720), startIndex: 2)
        _ = c.takeEvents()
        for (phase, ms) in [(PointerEvent.Phase.down, 100.0), (.up, 105)] {
            for case .pointer(let p) in t.translate(.finger(1, phase, x: 0.5, y: 0.5, time: ms / 1000), geometry: Self.panel,
                                                    time: { $0 }) { c.handle(.pointer(p)) }
        }
        #expect(c.takeEvents().isEmpty, "no tap, no activate")
    }

    /// SDL stamps a touch when it queues it (X11, Wayland): a compositor that delivers a
    /// 40-ms tap's down and up together gives both one time. It is a tap, not noise (the
    /// Wayland boot proof lost every tap of a round so under emulation).
    @Test func anSDLTapDeliveredAllAtOnceIsATap() {
        var t = SDLInputTranslator()
        var c = Carousel(itemCount: 5, viewport: Size(width: 1280, height: 720), startIndex: 2)
        _ = c.takeEvents()
        for e in [finger(SDL_FINGERDOWN, x: 0.5, y: 0.5, ms: 100), finger(SDL_FINGERUP, x: 0.5, y: 0.5, ms: 100)] {
            for case .pointer(let p) in t.translate(e, geometry: hidpi) {
                #expect(p.phase != .cancel)
                c.handle(.pointer(p))
            }
        }
        #expect(c.takeEvents().map(\.kind).contains(.tap(index: 2)), "a tap on the centred picture")
    }

    @Test func secondFingerIsIgnoredByTheEngine() {
        var t = SDLInputTranslator()
        var c = Carousel(itemCount: 5, viewport: Size(width: 1280, height: 720), startIndex: 2)
        let events = [
            finger(SDL_FINGERDOWN, id: 1, x: 0.6, y: 0.5, ms: 0),
            finger(SDL_FINGERDOWN, id: 2, x: 0.2, y: 0.5, ms: 10),
            finger(SDL_FINGERMOTION, id: 2, x: 0.9, y: 0.5, ms: 20),
            finger(SDL_FINGERMOTION, id: 1, x: 0.55, y: 0.5, ms: 30),
        ]
        for e in events { for case .pointer(let p) in t.translate(e, geometry: hidpi) { c.handle(.pointer(p)) } }
        // Only finger 1's 64 px count: 0.05 of 1280.
        #expect(abs(c.position - (2 + 64.0 / c.layout.stride)) < 1e-6)  // SDL gives floats
    }

    @Test func keysAndWheel() {
        var t = SDLInputTranslator()
        func key(_ k: SDL_KeyCode, mod: SDL_Keymod = KMOD_NONE) -> KeyPress? {
            guard case .key(let press)? = t.translate(keyDown(k, mod: mod), geometry: hidpi).first else { return nil }
            return press
        }
        let named: [(SDL_KeyCode, KeyPress.Name)] = [(SDLK_RIGHT, .right), (SDLK_LEFT, .left), (SDLK_HOME, .home), (SDLK_END, .end),
                                                     (SDLK_PAGEDOWN, .pageDown), (SDLK_PAGEUP, .pageUp), (SDLK_SPACE, .space),
                                                     (SDLK_F11, .f11), (SDLK_q, .q), (SDLK_ESCAPE, .escape), (SDLK_BACKSPACE, .backspace)]
        for (k, name) in named { #expect(key(k) == KeyPress(name: name, keycode: Int32(bitPattern: k.rawValue), time: 1), "\(name)") }
        #expect(key(SDLK_a)?.name == nil && key(SDLK_a)?.keycode == Int32(SDLK_a.rawValue))
        let both = SDL_Keymod(KMOD_RCTRL.rawValue | KMOD_LALT.rawValue)
        #expect(key(SDLK_q, mod: both)?.modifiers == [.ctrl, .alt], "either side of a modifier counts")

        var w = SDL_Event()
        w.type = SDL_MOUSEWHEEL.rawValue
        w.wheel.timestamp = 2000
        w.wheel.preciseY = -1  // scrolled down: forward
        #expect(t.translate(w, geometry: hidpi) == [.scroll(1, time: 2)])
        w.wheel.direction = UInt32(SDL_MOUSEWHEEL_FLIPPED.rawValue)
        #expect(t.translate(w, geometry: hidpi) == [.scroll(-1, time: 2)])
    }

    @Test func deviceResetAndResize() {
        var t = SDLInputTranslator()
        var e = SDL_Event()
        e.type = SDL_RENDER_DEVICE_RESET.rawValue
        #expect(t.translate(e, geometry: hidpi) == [.renderReset])
        e.type = SDL_WINDOWEVENT.rawValue
        e.window.event = UInt8(SDL_WINDOWEVENT_SIZE_CHANGED.rawValue)
        #expect(t.translate(e, geometry: hidpi) == [.resized])
    }

    func keyDown(_ k: SDL_KeyCode, mod: SDL_Keymod = KMOD_NONE) -> SDL_Event {
        var e = SDL_Event()
        e.type = SDL_KEYDOWN.rawValue
        e.key.timestamp = 1000
        e.key.keysym.sym = SDL_Keycode(k.rawValue)
        e.key.keysym.mod = UInt16(mod.rawValue)
        return e
    }

    @Test func theWindowCloseTheDisplayLostAndWakeUpsAreTold() {
        var t = SDLInputTranslator()
        var e = SDL_Event()
        e.type = SDL_WINDOWEVENT.rawValue
        e.window.event = UInt8(SDL_WINDOWEVENT_CLOSE.rawValue)
        #expect(t.translate(e, geometry: hidpi) == [.windowClosed])
        // SDL_QUIT comes only from a display connection lost (SDLSession's hints).
        e.type = SDL_QUIT.rawValue
        #expect(t.translate(e, geometry: hidpi) == [.displayLost])
        e.type = SDL_USEREVENT.rawValue
        for code: Int32 in [0, 2, 5] {
            e.user.code = code
            #expect(t.translate(e, geometry: hidpi) == [.wake(code)])
        }
    }

    @Test func aKeyComboMatchesItsKeyWithAtLeastItsModifiers() {
        let combo = KeyCombo(parsing: "ctrl+alt+q")!
        let q = Int32(SDLK_q.rawValue)
        #expect(combo.matches(KeyPress(name: .q, keycode: q, modifiers: [.ctrl, .alt], time: 0)))
        #expect(combo.matches(KeyPress(name: .q, keycode: q, modifiers: [.ctrl, .alt, .shift], time: 0)))
        #expect(!combo.matches(KeyPress(name: .q, keycode: q, modifiers: [.ctrl], time: 0)), "alt is missing")
        #expect(!combo.matches(KeyPress(name: nil, keycode: Int32(SDLK_w.rawValue), modifiers: [.ctrl, .alt], time: 0)))
    }

    @Test func keyCombinationsParse() {
        let c = KeyCombo(parsing: "Ctrl+Alt+Q")
        #expect(c?.modifiers == [.ctrl, .alt] && c?.key == Int32(SDLK_q.rawValue))
        #expect(KeyCombo(parsing: "shift+f12")?.key == Int32(bitPattern: SDLK_F12.rawValue))
        #expect(KeyCombo(parsing: "ctrl+escape")?.modifiers == [.ctrl])
        #expect(KeyCombo(parsing: "x")?.modifiers == [])
        for bad in ["", "ctrl+", "hyper+q", "ctrl+alt+qq", "ctrl++q", "+"] {
            #expect(KeyCombo(parsing: bad) == nil, "\(bad)")
        }
    }

    @Test func rotatedPanelsAndTouchCorrectionsMapToTheLogicalScreen() {
        // A 1280x720 panel showing a portrait carousel turned 90 degrees clockwise.
        let g = InputGeometry(window: Size(width: 1280, height: 720), drawable: Size(width: 1280, height: 720),
                              rotation: .quarter)
        var t = SDLInputTranslator()
        // The mouse at the physical top-right corner is the logical top-left.
        #expect(pointer(t.translate(mouse(SDL_MOUSEBUTTONDOWN, x: 1280, y: 0, ms: 0), geometry: g))?.location == Point(x: 0, y: 0))
        // A finger a quarter across the physical width, halfway down.
        #expect(pointer(t.translate(finger(SDL_FINGERDOWN, x: 0.25, y: 0.5, ms: 0), geometry: g))?.location
                == Point(x: 360, y: 960))
        // The same panel with its touch axes swapped and x inverted: corrected first.
        var h = g
        h.touch = [.swapXY, .invertX]
        var u = SDLInputTranslator()
        // Raw (0.5, 0.75) → swapped (0.75, 0.5) → inverted (0.25, 0.5) → as above.
        #expect(pointer(u.translate(finger(SDL_FINGERDOWN, x: 0.5, y: 0.75, ms: 0), geometry: h))?.location
                == Point(x: 360, y: 960))
    }
}

extension SDLInputTranslator {
    /// SDL's ticks as seconds, as they come (the loop's clock is `EventQueue.fromSDL`'s).
    mutating func translate(_ e: SDL_Event, geometry g: InputGeometry) -> [WindowInput] {
        translate(e, geometry: g, time: { Double($0) / 1000 })
    }
}

@Suite struct SDLTicksTests {
    /// SDL's event times are 32-bit milliseconds: they wrap after 49.7 days, which a kiosk
    /// lives through; counted back from the 64-bit ticks they stay in step.
    @Test func anEventsTicksAreCountedBackFromSDLsAcrossTheWrap() {
        #expect(EventQueue.ticksOf(1000, now: 1016) == 1000)
        let wrap: UInt64 = 1 << 32
        #expect(EventQueue.ticksOf(UInt32.max - 5, now: wrap + 10) == wrap - 6)
        #expect(EventQueue.ticksOf(3, now: 3 * wrap + 20) == 3 * wrap + 3)
        #expect(EventQueue.ticksOf(50, now: 20) == 0)
    }
}
