import CarouselCore
import CarouselMedia
import CarouselPainting
import CarouselSDL
import Foundation

/// The wall's moving tiles: animated pictures (GIF, WebP, APNG) among the tiles on screen
/// play, each as the carousel plays one (`ClipStage`: its own video helper, its frames
/// paced on the loop's clock) and drawn cut to its tile. At most `budget` decode at once,
/// the first on screen first: a helper decoding is a core busy, and the wall's scrolling
/// and its thumbnails need the rest. One that has played as often as its file says keeps
/// its last frame and gives its turn to the next; it plays again once it has left the
/// screen and come back. A tile that leaves the screen stops and its helper goes; new ones
/// start only while the wall rests. `--motion off` keeps them still. Main thread.
final class TileAnimations {
    /// Animations decoding at once: two, or one on a machine of one core.
    static var budget: Int { min(2, max(1, ProcessInfo.processInfo.activeProcessorCount)) }

    private var stages: [ClipStage] = []
    private let make: () -> ClipStage
    /// Items that played to their end while on screen: not started again until they leave it.
    private var played: Set<Int> = []

    init(make: @escaping () -> ClipStage) { self.make = make }

    /// Follows the tiles on screen (`visible`, in the order they show): those gone stop;
    /// at rest, animated ones not playing start while the budget allows. `motion`: what
    /// the decoded tile says moves in it (nil until it is decoded).
    func update(visible: [Int], motion: (Int) -> PictureMotion?, source: (Int) -> ImageSource?, resting: Bool,
                at time: Double) {
        let onScreen = Set(visible)
        played.formIntersection(onScreen)
        for stage in stages {
            guard let item = stage.item else { continue }
            if !onScreen.contains(item) {
                stage.stop(at: time)
            } else if !stage.isDecoding {
                played.insert(item)
            }
        }
        guard resting else { return }
        let showing = Set(stages.compactMap(\.item))
        for item in visible where !showing.contains(item) && !played.contains(item) && motion(item) == .frames {
            guard stages.filter(\.isDecoding).count < Self.budget, let source = source(item) else { break }
            // A stage with nothing, or one whose animation has ended (its last frame goes).
            let stage: ClipStage
            if let idle = stages.first(where: { $0.item == nil }) ?? stages.first(where: { !$0.isDecoding }) {
                idle.stop(at: time)
                stage = idle
            } else {
                stage = make()
                stages.append(stage)
            }
            stage.show(source, motion: .frames, item: item, loop: false, at: time)
        }
    }

    /// Uploads the frames due at `now`; whether any tile changed.
    func pump(at now: Double) throws(SDLError) -> Bool {
        var changed = false
        for stage in stages where try stage.pump(at: now) { changed = true }
        return changed
    }

    /// When the next frame of any tile falls due.
    var nextDue: Double? { stages.compactMap(\.nextDue).min() }

    /// What the painter draws over the tiles.
    var drawings: [VideoDrawing] { stages.compactMap(\.drawing) }

    /// How many tiles decode now (tests: the budget holds).
    var decoding: Int { stages.filter(\.isDecoding).count }

    /// Every tile stops (the carousel opened over the wall, the screen went off).
    func stop(at time: Double) {
        for stage in stages { stage.stop(at: time) }
        played.removeAll()
    }
}
