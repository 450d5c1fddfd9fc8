/// An opaque or translucent sRGB colour.
public struct Color: Hashable, Sendable {
    public var r: UInt8, g: UInt8, b: UInt8, a: UInt8

    public init(r: UInt8, g: UInt8, b: UInt8, a: UInt8 = 255) {
        self.r = r; self.g = g; self.b = b; self.a = a
    }

    public static let white = Color(r: 255, g: 255, b: 255)
    public static let black = Color(r: 0, g: 0, b: 0)

    /// Parses `#RRGGBB` or `RRGGBB`; nil otherwise.
    public init?(hex: String) {
        let digits = hex.hasPrefix("#") ? hex.dropFirst() : Substring(hex)
        guard digits.count == 6 || digits.count == 8, digits.allSatisfy(\.isHexDigit),
              let v = UInt32(digits, radix: 16) else { return nil }
        if digits.count == 8 {
            self.init(r: UInt8(v >> 24), g: UInt8(v >> 16 & 0xFF), b: UInt8(v >> 8 & 0xFF), a: UInt8(v & 0xFF))
        } else {
            self.init(r: UInt8(v >> 16 & 0xFF), g: UInt8(v >> 8 & 0xFF), b: UInt8(v & 0xFF))
        }
    }

    /// This colour moved `amount` (0–1) of the way towards white.
    public func lightened(_ amount: Double) -> Color {
        func mix(_ c: UInt8) -> UInt8 { UInt8((Double(c) + (255 - Double(c)) * amount).rounded()) }
        return Color(r: mix(r), g: mix(g), b: mix(b), a: a)
    }

    /// This colour moved `amount` (0–1) of the way towards black: a dimmed neighbour.
    public func darkened(_ amount: Double) -> Color {
        func mix(_ c: UInt8) -> UInt8 { UInt8((Double(c) * (1 - min(max(amount, 0), 1))).rounded()) }
        return Color(r: mix(r), g: mix(g), b: mix(b), a: a)
    }

    /// This colour with opacity `alpha` (0–1) times its own.
    public func withOpacity(_ alpha: Double) -> Color {
        Color(r: r, g: g, b: b, a: UInt8((Double(a) * min(max(alpha, 0), 1)).rounded()))
    }

    /// #rrggbb, or #rrggbbaa when translucent.
    public var hex: String {
        let v = Int(r) << 16 | Int(g) << 8 | Int(b)
        let s = String(v, radix: 16)
        let alpha = a == 255 ? "" : (a < 16 ? "0" : "") + String(a, radix: 16)
        return "#" + String(repeating: "0", count: 6 - s.count) + s + alpha
    }
}
