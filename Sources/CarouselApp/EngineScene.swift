import CarouselCore
import CarouselMedia
import CarouselSDL

/// A scene over one engine (`ViewEngine`): what every such view hands to its engine and
/// reads from it is written here once; a scene gives its engine, its pipeline and what to do
/// after the engine moved (`engineMoved`: log its events, fill the slots it reassigned,
/// plan the decodes).
public protocol EngineScene: Scene {
    associatedtype Engine: ViewEngine
    var engine: Engine { get set }
    func engineMoved() throws(SDLError)
}

extension EngineScene {
    public var sources: [ImageSource] { pipeline.sources }
    public var viewport: Size { engine.viewport }
    public var activity: ViewActivity {
        ViewActivity(moving: engine.isAnimating, held: engine.isInteracting, nextStep: engine.nextScheduledTime)
    }
    /// The latest time the engine has seen.
    public var time: Double { engine.time }

    public func handle(_ input: ViewInput) throws(SDLError) {
        if case .resize(let size, let t) = input { pipeline.recordResize(size, at: t) }
        engine.handle(input)
        try engineMoved()
    }

    public func advance(to time: Double) throws(SDLError) {
        engine.advance(to: time)
        try engineMoved()
    }
}
