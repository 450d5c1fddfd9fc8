import CarouselCore
import CarouselSDL

/// What the benchmark drives: a view moving by input and time, and a way of drawing it.
/// Every `Scene` is one; the naive gallery (the same engine, its images held at full size)
/// is another, so that only how images get on screen differs.
protocol BenchSubject: AnyObject {
    var isAnimating: Bool { get }
    var isInteracting: Bool { get }
    func handle(_ input: ViewInput) throws
    func advance(to time: Double) throws
    /// Uploads images that became ready; whether any did.
    func pump() throws -> Bool
    /// Draws the frame into the renderer's current target.
    func draw(on renderer: SDLRenderer)
    /// Visible items still without their image (a placeholder or a blank tile shows).
    var itemsWithoutImage: Int { get }
    /// Visible items showing a preview (a cached thumbnail) until their image comes.
    var itemsShowingPreview: Int { get }
    /// Whether images are still being decoded: not yet at rest, whatever the view does.
    var isLoading: Bool { get }
    /// Back from a picture opened on the wall.
    func goBack(time: Double) throws
}

extension BenchSubject {
    var showsPlaceholder: Bool { itemsWithoutImage > 0 }
}

extension CarouselScene: BenchSubject {
    var itemsWithoutImage: Int { pipeline.placeholders(carousel.visibleItems.map(\.slot)) }
    var itemsShowingPreview: Int { pipeline.previewsShown(carousel.visibleItems.map(\.slot)) }
}

extension WallScene: BenchSubject {
    /// Blank tiles (or, opened, placeholders) on screen; a screen not yet covered by tiles
    /// because their sizes are still being read counts one more.
    var itemsWithoutImage: Int {
        if let opened { return opened.itemsWithoutImage }
        let m = wall.mosaic
        let uncovered = m.placedCount < m.itemCount && m.layout.contentHeight < m.position + m.layout.viewport.height
        return (uncovered ? 1 : 0) + wall.pipeline.placeholders(m.visibleItems.map(\.slot))
    }
    var itemsShowingPreview: Int { opened?.itemsShowingPreview ?? 0 }
    var isLoading: Bool { opened?.isLoading ?? wall.isLoading }
}
