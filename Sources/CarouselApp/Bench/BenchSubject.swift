import CarouselCore
import CarouselSDL

/// What the benchmark drives: the engine moving the strip, and a way of drawing it. Ours
/// (`CarouselScene`) and the naive gallery differ only in how their images get on screen.
protocol BenchSubject: AnyObject {
    var carousel: Carousel { get }
    func handle(_ input: CarouselInput) throws
    func advance(to time: Double) throws
    /// Uploads images that became ready; whether any did.
    func pump() throws -> Bool
    /// Draws the frame into the renderer's current target.
    func draw(on renderer: SDLRenderer)
    /// Whether a visible item is still without its image (a placeholder shows).
    var showsPlaceholder: Bool { get }
    /// Whether images are still being decoded: not yet at rest, whatever the strip does.
    var isLoading: Bool { get }
}

extension CarouselScene: BenchSubject {
    var showsPlaceholder: Bool {
        carousel.visibleItems.contains { item in
            if case .loading = slots.contents[item.slot] { return true }
            return false
        }
    }
}
