import CarouselCore
import CarouselSDL

/// Caption textures made once and reused while the same text shows: rendering text with
/// SDL_ttf every frame would cost more than drawing the whole strip.
final class TextCache {
    private struct Key: Hashable {
        var text: String
        var color: Color
        var maxWidth: Int
    }

    private var textures: [Key: SDLTexture] = [:]
    /// More than a few lines means the caption changed: start again.
    private let limit = 8

    /// Drops every texture, for a lost rendering device.
    func removeAll() { textures.removeAll() }

    func texture(_ text: String, color: Color, maxWidth: Int, font: TextRenderer, renderer: SDLRenderer) -> SDLTexture? {
        let key = Key(text: text, color: color, maxWidth: maxWidth)
        if let t = textures[key] { return t }
        if textures.count >= limit { textures.removeAll() }
        let made = font.texture(text, color: color, maxWidth: maxWidth, renderer: renderer)
        textures[key] = made
        return made
    }
}
