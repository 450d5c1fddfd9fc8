import CSDL2

/// A key with modifiers, written like `ctrl+alt+q`: the one way to quit a kiosk.
/// Parsed without SDL running, so a bad combination is an option error before any window.
public struct KeyCombo: Hashable, Sendable, CustomStringConvertible {
    public struct Modifiers: OptionSet, Hashable, Sendable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }
        public static let ctrl = Modifiers(rawValue: 1)
        public static let alt = Modifiers(rawValue: 2)
        public static let shift = Modifiers(rawValue: 4)
        public static let gui = Modifiers(rawValue: 8)
    }

    public var modifiers: Modifiers
    /// SDL's keycode: a printable key is its lower-case character.
    public var key: Int32
    public let description: String

    /// Named keys besides letters and digits: those a kiosk keyboard (if any) is likely to have.
    private static let named: [String: SDL_KeyCode] = [
        "escape": SDLK_ESCAPE, "esc": SDLK_ESCAPE, "backspace": SDLK_BACKSPACE, "delete": SDLK_DELETE,
        "insert": SDLK_INSERT, "home": SDLK_HOME, "end": SDLK_END, "pause": SDLK_PAUSE,
        "scrolllock": SDLK_SCROLLLOCK, "tab": SDLK_TAB, "return": SDLK_RETURN, "enter": SDLK_RETURN,
        "space": SDLK_SPACE, "f1": SDLK_F1, "f2": SDLK_F2, "f3": SDLK_F3, "f4": SDLK_F4, "f5": SDLK_F5,
        "f6": SDLK_F6, "f7": SDLK_F7, "f8": SDLK_F8, "f9": SDLK_F9, "f10": SDLK_F10, "f11": SDLK_F11,
        "f12": SDLK_F12,
    ]

    /// `ctrl+alt+q`, `shift+f12`, `ctrl+escape`; case ignored. Nil when not a combination.
    public init?(parsing text: String) {
        let parts = text.lowercased().split(separator: "+", omittingEmptySubsequences: false).map(String.init)
        guard let last = parts.last, !last.isEmpty else { return nil }
        var mods: Modifiers = []
        for m in parts.dropLast() {
            switch m {
            case "ctrl", "control": mods.insert(.ctrl)
            case "alt": mods.insert(.alt)
            case "shift": mods.insert(.shift)
            case "super", "gui", "meta", "win": mods.insert(.gui)
            default: return nil
            }
        }
        if let k = Self.named[last] {
            key = Int32(bitPattern: k.rawValue)
        } else if last.unicodeScalars.count == 1, let u = last.unicodeScalars.first,
                  u.isASCII, u.properties.isAlphabetic || u.properties.numericType != nil {
            key = Int32(u.value)
        } else {
            return nil
        }
        modifiers = mods
        description = text.lowercased()
    }

    /// Whether `press` is this combination. Extra modifiers do not matter; a missing one does.
    public func matches(_ press: KeyPress) -> Bool {
        press.keycode == key && press.modifiers.isSuperset(of: modifiers)
    }
}

extension KeyCombo.Modifiers {
    /// The modifiers held in SDL's modifier state (either side of each).
    init(sdl mod: UInt16) {
        self = []
        let held: [(KeyCombo.Modifiers, SDL_Keymod)] = [(.ctrl, KMOD_CTRL), (.alt, KMOD_ALT), (.shift, KMOD_SHIFT), (.gui, KMOD_GUI)]
        for (m, kmod) in held where UInt32(mod) & kmod.rawValue != 0 { insert(m) }
    }
}
