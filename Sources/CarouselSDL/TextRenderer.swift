import CSDL2
import CSDL2TTF

/// Draws short text lines (placeholder labels, captions, the clock) with SDL_ttf, shaped by
/// its HarfBuzz. A character the font lacks (a Japanese or Thai name, an emoji) is drawn
/// in the font fontconfig chooses for it (`FontFallback`): the line is cut into runs of one
/// font each, drawn one after the other on a shared baseline; a colour emoji font's large
/// bitmaps are scaled to the line's height.
public final class TextRenderer {
    private let font: OpaquePointer
    public let pointSize: Int
    private let fallback = FontFallback()
    /// The fallback faces opened so far (nil: one that would not open), at most `fallbacksMost`.
    private var fallbacks: [FontFallback.Face: OpaquePointer?] = [:]
    static let fallbacksMost = 8

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
        for case let opened? in fallbacks.values { TTF_CloseFont(opened) }
        TTF_CloseFont(font)
        TTF_Quit()
    }

    /// `text` as a texture, cut with an ellipsis to fit `maxWidth` pixels; nil for empty text.
    public func texture(_ text: String, color: Color, maxWidth: Int, renderer: SDLRenderer) -> SDLTexture? {
        let fitted = fit(text, maxWidth: maxWidth)
        guard !fitted.isEmpty else { return nil }
        let c = SDL_Color(r: color.r, g: color.g, b: color.b, a: color.a)
        let runs = self.runs(of: fitted)
        if runs.count == 1, runs[0].font == font {
            prepare(runs[0])
            guard let surface = TTF_RenderUTF8_Blended(font, fitted, c) else { return nil }
            defer { SDL_FreeSurface(surface) }
            return renderer.texture(from: surface)
        }
        guard let surface = compose(runs, color: c) else { return nil }
        defer { SDL_FreeSurface(surface) }
        return renderer.texture(from: surface)
    }

    // MARK: - Runs of one font

    struct Run {
        var font: OpaquePointer
        var script: TextScript
        var text: String
    }

    /// `text` cut where the font drawing it or its script changes, in the order they are
    /// drawn: each character (a grapheme cluster: an emoji sequence, a Thai syllable's marks)
    /// in the caption font when it has every character of it, else in the fallback for the
    /// first it lacks; spaces, digits and punctuation in the run they stand in. Each run is
    /// shaped in its script and direction; a line whose first letter is right-to-left
    /// (Arabic, Hebrew) has its runs from right to left.
    func runs(of text: String) -> [Run] {
        var runs: [Run] = []
        for character in text {
            let chosen = fontFor(character)
            let script = TextScript.of(character)
            if let last = runs.last, last.font == chosen, script == nil || script == last.script || last.script == .common {
                runs[runs.count - 1].text.append(character)
                if last.script == .common, let script { runs[runs.count - 1].script = script }
            } else {
                runs.append(Run(font: chosen, script: script ?? runs.last?.script ?? .common, text: String(character)))
            }
        }
        guard let first = runs.first(where: { $0.script != .common })?.script, first.isRightToLeft else { return runs }
        // A right-to-left line: the spaces ending a left-to-right run belong between it and
        // what follows, so they become a run of their own before the order turns round.
        var split: [Run] = []
        for run in runs {
            let trailing = run.script.isRightToLeft ? 0 : run.text.reversed().prefix { $0 == " " }.count
            guard trailing > 0, trailing < run.text.count else { split.append(run); continue }
            split.append(Run(font: run.font, script: run.script, text: String(run.text.dropLast(trailing))))
            split.append(Run(font: run.font, script: .common, text: String(repeating: " ", count: trailing)))
        }
        return split.reversed()
    }

    /// Sets the run's font to shape it as its script (SDL_ttf keeps it per font).
    private func prepare(_ run: Run) {
        _ = TTF_SetFontScriptName(run.font, run.script.rawValue)
        _ = TTF_SetFontDirection(run.font, run.script.isRightToLeft ? TTF_DIRECTION_RTL : TTF_DIRECTION_LTR)
    }

    private func fontFor(_ character: Character) -> OpaquePointer {
        // Joiners and variation selectors take the font of what they join.
        let significant = character.unicodeScalars.filter { !(0xFE00...0xFE0F ~= $0.value) && $0.value != 0x200D && $0.value != 0x20E3 }
        // An emoji drawn as one (its own presentation, or asked for with U+FE0F): the colour
        // emoji font, even where the caption font has a plain glyph for it (❤).
        let emoji = character.unicodeScalars.contains { $0.value == 0xFE0F }
            || (significant.first.map { $0.properties.isEmojiPresentation } ?? false)
        let missing = emoji ? significant.first : significant.first(where: { TTF_GlyphIsProvided32(font, $0.value) == 0 })
        guard let missing else { return font }
        guard let face = fallback.face(for: missing, emoji: emoji) else { return font }
        if let opened = fallbacks[face] { return opened ?? font }
        guard fallbacks.count < Self.fallbacksMost else { return font }
        let opened = TTF_OpenFontIndex(face.file, Int32(pointSize), face.index)
        fallbacks[face] = opened
        return opened ?? font
    }

    /// The height a run is drawn at: its font's, unless that is much larger than the
    /// caption font's (a bitmap emoji font has one size, 109 px), then the caption font's.
    private func scale(of run: Run) -> Double {
        guard run.font != font else { return 1 }
        let own = Double(TTF_FontHeight(run.font)), line = Double(TTF_FontHeight(font))
        return own > line * 1.3 ? line / own : 1
    }

    private func width(of run: Run) -> Int {
        var w: Int32 = 0, h: Int32 = 0
        prepare(run)
        TTF_SizeUTF8(run.font, run.text, &w, &h)
        return Int((Double(w) * scale(of: run)).rounded())
    }

    /// The runs drawn side by side on the caption font's baseline, in one ARGB surface.
    private func compose(_ runs: [Run], color: SDL_Color) -> UnsafeMutablePointer<SDL_Surface>? {
        var pieces: [(surface: UnsafeMutablePointer<SDL_Surface>, ascent: Int)] = []
        defer { for p in pieces { SDL_FreeSurface(p.surface) } }
        for run in runs {
            prepare(run)
            guard let drawn = TTF_RenderUTF8_Blended(run.font, run.text, color) else { continue }
            let s = scale(of: run)
            guard s < 1 else { pieces.append((drawn, Int(TTF_FontAscent(run.font)))); continue }
            let w = max(1, Int((Double(drawn.pointee.w) * s).rounded())), h = max(1, Int((Double(drawn.pointee.h) * s).rounded()))
            guard let scaled = SDL_CreateRGBSurfaceWithFormat(0, Int32(w), Int32(h), 32, drawn.pointee.format.pointee.format) else {
                SDL_FreeSurface(drawn); continue
            }
            var to = SDL_Rect(x: 0, y: 0, w: Int32(w), h: Int32(h))
            _ = SDL_SoftStretchLinear(drawn, nil, scaled, &to)
            SDL_FreeSurface(drawn)
            // Scaled to the line: it sits where the caption font's glyphs do.
            pieces.append((scaled, Int(TTF_FontAscent(font))))
        }
        guard !pieces.isEmpty else { return nil }
        let ascent = pieces.map(\.ascent).max() ?? 0
        let descent = pieces.map { Int($0.surface.pointee.h) - $0.ascent }.max() ?? 0
        let width = pieces.reduce(0) { $0 + Int($1.surface.pointee.w) }
        guard let line = SDL_CreateRGBSurfaceWithFormat(0, Int32(max(1, width)), Int32(max(1, ascent + descent)), 32,
                                                        SDL_PIXELFORMAT_ARGB8888.rawValue) else { return nil }
        var x = 0
        for piece in pieces {
            // Copied as they are, alpha and all: the runs never overlap.
            SDL_SetSurfaceBlendMode(piece.surface, SDL_BLENDMODE_NONE)
            var at = SDL_Rect(x: Int32(x), y: Int32(ascent - piece.ascent), w: piece.surface.pointee.w, h: piece.surface.pointee.h)
            _ = SDL_UpperBlit(piece.surface, nil, line, &at)
            x += Int(piece.surface.pointee.w)
        }
        return line
    }

    private func width(of text: String) -> Int {
        runs(of: text).reduce(0) { $0 + width(of: $1) }
    }

    /// `text`, or its longest beginning that fits with an ellipsis: found by halving, so a
    /// title of thousands of characters costs a few measurements, not one per character.
    private func fit(_ text: String, maxWidth: Int) -> String {
        guard maxWidth > 0 else { return "" }
        if width(of: text) <= maxWidth { return text }
        let chars = Array(text)
        var fits = 0, tooLong = chars.count
        while tooLong - fits > 1 {
            let mid = (fits + tooLong) / 2
            if width(of: String(chars[..<mid]) + "…") <= maxWidth { fits = mid } else { tooLong = mid }
        }
        return fits == 0 && width(of: "…") > maxWidth ? "" : String(chars[..<fits]) + "…"
    }
}
