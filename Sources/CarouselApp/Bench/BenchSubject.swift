import CarouselCore
import CarouselSDL

/// What the benchmark drives: a view moving by input and time, and a way of drawing it.
/// Every `Scene` is one; the naive gallery (the same engine, its images held at full size)
/// is another, so that only how images get on screen differs.
protocol BenchSubject: AnyObject {
    var isAnimating: Bool { get }
    var isInteracting: Bool { get }
    func handle(_ input: CarouselInput) throws
    func advance(to time: Double) throws
    /// Uploads images that became ready; whether any did.
    func pump() throws -> Bool
    /// Draws the frame into the renderer's current target.
    func draw(on renderer: SDLRenderer)
    /// Whether a visible item is still without its image (a placeholder shows).
    var showsPlaceholder: Bool { get }
    /// Whether images are still being decoded: not yet at rest, whatever the view does.
    var isLoading: Bool { get }
    /// Back from a picture opened on the wall.
    func goBack(time: Double) throws
}

extension CarouselScene: BenchSubject {
    var showsPlaceholder: Bool { pipeline.showsPlaceholder(carousel.visibleItems.map(\.slot)) }
}

extension WallScene: BenchSubject {
    /// A blank tile (or, opened, a placeholder) on screen, or screen not yet covered by
    /// tiles because their sizes are still being read.
    var showsPlaceholder: Bool {
        if let opened { return opened.showsPlaceholder }
        let m = wall.mosaic
        let uncovered = m.placedCount < m.itemCount && m.layout.contentHeight < m.position + m.layout.viewport.height
        return uncovered || wall.pipeline.showsPlaceholder(m.visibleItems.map(\.slot))
    }
    var isLoading: Bool { opened?.isLoading ?? wall.isLoading }
}
