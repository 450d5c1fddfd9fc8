import CarouselCore
import CarouselMedia
import CarouselSDL

extension ViewOptions {
    /// The view `--view` asks for, over these pictures: what run, render and bench drive.
    func makeScene(sources: [ImageSource], viewport: Size, behaviour: BehaviourOptions, renderer: SDLRenderer,
                   painter: FramePainter, loading: ImageLoading, log: EventLog?, time: Double, timeOrigin: Double? = nil,
                   wake: @escaping @Sendable () -> Void = {}, warn: @escaping (String) -> Void) throws(SDLError) -> any Scene {
        switch home {
        case .carousel:
            return try CarouselScene(sources: sources, viewport: viewport, settings: carouselSettings(behaviour),
                                     startIndex: startIndex, renderer: renderer, painter: painter, loading: loading,
                                     log: log, time: time, timeOrigin: timeOrigin, warn: warn)
        case .mosaic:
            return try MosaicScene(sources: sources, viewport: viewport, settings: mosaicSettings, renderer: renderer,
                                   painter: painter, loading: loading, log: log, time: time, timeOrigin: timeOrigin,
                                   wake: wake, warn: warn)
        }
    }
}
