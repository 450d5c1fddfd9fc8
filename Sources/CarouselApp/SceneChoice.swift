import CarouselCore
import CarouselMedia
import CarouselSDL

extension ViewOptions {
    /// The view `--view` asks for, over these pictures: what run, render and bench drive.
    /// `reloading` gives the loading for a carousel opened from the wall.
    func makeScene(sources: [ImageSource], viewport: Size, behaviour: BehaviourOptions, renderer: SDLRenderer,
                   painter: FramePainter, loading: ImageLoading, log: EventLog?, time: Double, timeOrigin: Double? = nil,
                   wake: @escaping @Sendable () -> Void = {}, reloading: @escaping () -> ImageLoading,
                   warn: @escaping (String) -> Void) throws(SDLError) -> any Scene {
        switch home {
        case .carousel:
            return try CarouselScene(sources: sources, viewport: viewport, settings: carouselSettings(behaviour),
                                     startIndex: startIndex, renderer: renderer, painter: painter, loading: loading,
                                     log: log, time: time, timeOrigin: timeOrigin, warn: warn)
        case .mosaic:
            let wall = try MosaicScene(sources: sources, viewport: viewport, settings: mosaicSettings, renderer: renderer,
                                       painter: painter, loading: loading, log: log, time: time, timeOrigin: timeOrigin,
                                       wake: wake, warn: warn)
            let settings = carouselSettings(behaviour)
            return WallScene(wall: wall, log: log, timeOrigin: timeOrigin ?? time) { [unowned wall] index, sources, t throws(SDLError) in
                // Its own workers and helpers, stopped when it closes; frames and events
                // from the same clock as the wall's.
                try CarouselScene(sources: sources, viewport: wall.viewport, settings: settings, startIndex: index,
                                  renderer: renderer, painter: painter, loading: reloading(), log: log, time: t,
                                  timeOrigin: timeOrigin ?? time, warn: warn)
            }
        }
    }
}
