import CSDL2
import CSDL2TTF

/// Draws short text lines (placeholder labels, later captions) with SDL_ttf.
public final class TextRenderer {
    private let font: OpaquePointer
    public let pointSize: Int

    /// The font used when none is given: DejaVu Sans, from fonts-dejavu-core.
    public static let defaultFontPath = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"

    /// Holds SDL_ttf open itself (its TTF_Init counts): a font closed after the session
    /// that opened SDL_ttf has ended would crash in FreeType (seen at the end of a release
    /// `carousel bench`, where the optimiser freed the session first).
    public init(fontPath: String = TextRenderer.defaultFontPath, pointSize: Int) throws(SDLError) {
        guard TTF_Init() == 0 else { throw SDLError("TTF_Init") }
        guard let f = TTF_OpenFont(fontPath, Int32(pointSize)) else {
            let error = SDLError("TTF_OpenFont(\(fontPath))")
            TTF_Quit()
            throw error
        }
        font = f
        self.pointSize = pointSize
    }

    deinit {
        TTF_CloseFont(font)
        TTF_Quit()
    }

    /// `text` as a texture, cut with an ellipsis to fit `maxWidth` pixels; nil for empty text.
    public func texture(_ text: String, color: Color, maxWidth: Int, renderer: SDLRenderer) -> SDLTexture? {
        let fitted = fit(text, maxWidth: maxWidth)
        guard !fitted.isEmpty else { return nil }
        let c = SDL_Color(r: color.r, g: color.g, b: color.b, a: color.a)
        guard let surface = TTF_RenderUTF8_Blended(font, fitted, c) else { return nil }
        defer { SDL_FreeSurface(surface) }
        return renderer.texture(from: surface)
    }

    private func width(of text: String) -> Int {
        var w: Int32 = 0, h: Int32 = 0
        TTF_SizeUTF8(font, text, &w, &h)
        return Int(w)
    }

    private func fit(_ text: String, maxWidth: Int) -> String {
        guard maxWidth > 0 else { return "" }
        if width(of: text) <= maxWidth { return text }
        var chars = Array(text)
        while !chars.isEmpty {
            chars.removeLast()
            let candidate = String(chars) + "…"
            if width(of: candidate) <= maxWidth { return candidate }
        }
        return ""
    }
}
