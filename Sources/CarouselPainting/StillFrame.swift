import CarouselCore
import CarouselSDL

/// What stays still in the frames of a crossfade (the background, the outgoing picture and
/// its neighbours), drawn once into a texture and copied into each frame under the
/// incoming picture, for the software renderer: it redrew all of it every frame, 2.5 ms of
/// a 6 ms fade frame at 1920×1080. Drawn again whenever what it shows changes (an item
/// moves, a slot gets a new picture); kept for the next fade (one screen-sized texture).
final class StillFrame {
    /// What the texture shows: the items, their slots' contents and uploads, the screen's size.
    struct Key: Equatable {
        var items: [VisibleItem]
        var contents: [SlotTextures.Content]
        var versions: [Int]
        var width: Int
        var height: Int
    }

    private var texture: SDLTexture?
    private var key: Key?
    /// Times the still part was drawn (the tests count them).
    private(set) var drawings = 0

    /// Copies the still part `key` describes into the frame, drawing it first with `draw`
    /// if the texture does not show it; without a texture, just `draw`.
    func draw(_ key: Key, on renderer: SDLRenderer, drawing draw: () -> Void) {
        if self.key != key {
            if texture?.width != key.width || texture?.height != key.height {
                texture = nil
                texture = try? renderer.makeTarget(width: key.width, height: key.height)
                texture?.setBlending(false)
            }
            guard let texture else { return draw() }
            renderer.drawing(into: texture, draw)
            self.key = key
            drawings += 1
        }
        guard let texture else { return draw() }
        renderer.draw(texture, source: (texture.width, texture.height),
                      in: Rect(x: 0, y: 0, width: Double(texture.width), height: Double(texture.height)))
    }

    /// Lets the texture go (a lost rendering device).
    func forget() {
        texture = nil
        key = nil
    }
}
