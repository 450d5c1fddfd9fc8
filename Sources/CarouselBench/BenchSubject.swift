import CarouselApp
import CarouselCore
import CarouselSDL

/// What the benchmark drives: a view moving by input and time, and a way of drawing it
/// (`DrivenView`), and what it counts on screen. Every scene is one; the naive gallery (the
/// same engine, its images held at full size) is another, so that only how images get on
/// screen differs.
public protocol BenchSubject: DrivenView {
    /// Visible items still without their image (a placeholder or a blank tile shows).
    var itemsWithoutImage: Int { get }
    /// Visible items showing a preview (a cached thumbnail) until their image comes.
    var itemsShowingPreview: Int { get }
    /// Whether images are still being decoded: not yet at rest, whatever the view does.
    var isLoading: Bool { get }
    /// How far one step of the mix's gestures goes, and along which axis: the strip's
    /// stride sideways, a wall's screen height downwards.
    var gestureStep: (length: Double, axis: Axis) { get }
    /// The box its pictures are fitted into: what the decode figures are measured for.
    var pictureBox: Size { get }
}

extension BenchSubject {
    var showsPlaceholder: Bool { itemsWithoutImage > 0 }
}

extension CarouselScene: BenchSubject {
    public var gestureStep: (length: Double, axis: Axis) { (carousel.layout.stride, .horizontal) }
    public var pictureBox: Size { imageBoxSize }
    public var itemsWithoutImage: Int { pipeline.placeholders(carousel.visibleItems.map(\.slot)) }
    public var itemsShowingPreview: Int { pipeline.previewsShown(carousel.visibleItems.map(\.slot)) }
}

extension WallScene: BenchSubject {
    /// Blank tiles on screen; a screen not yet covered by tiles because their sizes are
    /// still being read counts one more.
    public var itemsWithoutImage: Int {
        let m = wall
        let uncovered = m.placedCount < m.itemCount && m.layout.contentHeight < m.position + m.layout.viewport.height
        return (uncovered ? 1 : 0) + pipeline.placeholders(m.visibleItems.map(\.slot))
    }
    public var itemsShowingPreview: Int { 0 }
    public var gestureStep: (length: Double, axis: Axis) { (viewport.height, .vertical) }
    public var pictureBox: Size { tileBox }
}

extension ScenePair: BenchSubject {
    /// The wall and the opened view as the bench sees them: every scene the program makes
    /// is a subject, by the extensions above.
    private var wallSubject: (any BenchSubject)? { wall as? any BenchSubject }
    private var openedSubject: (any BenchSubject)? { opened.flatMap { $0 as? any BenchSubject } }

    /// The view showing: blank tiles on the wall, or placeholders in the opened view.
    public var itemsWithoutImage: Int { (openedSubject ?? wallSubject)?.itemsWithoutImage ?? 0 }
    public var itemsShowingPreview: Int { (openedSubject ?? wallSubject)?.itemsShowingPreview ?? 0 }
    public var isLoading: Bool { (openedSubject ?? wallSubject)?.isLoading ?? false }
    /// The wall's: the mix starts on it.
    public var gestureStep: (length: Double, axis: Axis) { wallSubject?.gestureStep ?? (state.viewport.height, .vertical) }
    public var pictureBox: Size { wallSubject?.pictureBox ?? state.viewport }
}
