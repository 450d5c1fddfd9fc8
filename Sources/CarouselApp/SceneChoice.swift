import CarouselCore
import CarouselMedia
import CarouselSDL
import CarouselPainting

extension ViewOptions {
    /// The view `--view` asks for, over these pictures: what run, render and bench drive.
    /// `loading` gives a view's loading: through the thumbnail cache at the size given
    /// (the wall's tiles), or straight (nil: the carousel, also when opened from the wall).
    public func makeScene(sources: [ImageSource], viewport: Size, behaviour: BehaviourOptions, renderer: SDLRenderer,
                   painter: FramePainter, loading: @escaping (ThumbnailCache.Size?) -> ImageLoading, log: EventLog?,
                   time: Double, timeOrigin: Double? = nil, wake: @escaping @Sendable () -> Void = {},
                   warn: @escaping (String) -> Void) throws(SDLError) -> any Scene {
        // The carousel, or a wall of any layout (a new wall is its layout and its line in
        // `ViewKind.tileLayouts`: nothing here) with the carousel it opens.
        guard home.isTiled else {
            return try CarouselScene(sources: sources, viewport: viewport, settings: carouselSettings(behaviour),
                                     startIndex: startIndex, renderer: renderer, painter: painter, loading: loading(nil),
                                     log: log, time: time, timeOrigin: timeOrigin, warn: warn)
        }
        var carousel = carouselSettings(behaviour)
        // --idle-home, decided here only: on a wall it takes the carousel opened from it
        // back to the wall (the pair does that); neither the wall nor the carousel goes
        // to its first item.
        let idleHome = carousel.attract.idleHome
        carousel.attract.idleHome = nil
        var settings = wallSettings
        settings.attract = carousel.attract
        let tileWidth = settings.kind.tileLayout(viewport: viewport, columns: (settings.portraitColumns, settings.landscapeColumns),
                                                  gap: settings.gap).tileWidth
        let wall = try WallScene(sources: sources, viewport: viewport, settings: settings, renderer: renderer,
                                 painter: painter, loading: loading(.atLeast(tileWidth)), log: log, time: time,
                                 timeOrigin: timeOrigin, wake: wake, warn: warn)
        return ScenePair(wall: wall, idleHome: idleHome) { [unowned wall] index, sources, t, parked throws(SDLError) in
            // Its own workers and helpers, stopped when it closes; frames and events
            // from the same clock as the wall's.
            try CarouselScene(sources: sources, viewport: wall.viewport, settings: carousel, startIndex: index,
                              renderer: renderer, painter: painter, loading: loading(nil), log: log, time: t,
                              timeOrigin: timeOrigin ?? time, parked: parked, warn: warn)
        }
    }
}
