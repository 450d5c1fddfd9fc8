import CarouselCore

/// The folders kept in step (`CatalogUpdater`: new, gone and replaced files, applied at
/// rest) and broken pictures left out at rest (`--broken skip`), and what the empty view says.
final class CatalogPart: LoopPart {
    let catalog: CatalogUpdater
    /// `--broken skip`: pictures that failed, left out at rest; nil: they show as failed.
    let broken: BrokenPictures?
    /// Told when the pictures shown changed (the group checks messages against the show).
    private let showChanged: ([ImageSource]) -> Void
    /// What the empty view was last told to say.
    private var emptyMessage: String?

    init(catalog: CatalogUpdater, broken: BrokenPictures?, showChanged: @escaping ([ImageSource]) -> Void = { _ in }) {
        self.catalog = catalog
        self.broken = broken
        self.showChanged = showChanged
    }

    /// A check that fell due has begun by now, and while it runs or its result waits for the
    /// finger to lift there is no deadline: a passed one would spin the loop.
    func nextDue(now: Double, loop: InteractiveLoop) -> Double? { loop.screenOn ? catalog.nextCheck : nil }

    func perform(_ input: AppInput, now: Double, byPerson: Bool, loop: InteractiveLoop) throws -> PartHandling {
        guard case .foldersChanged = input else { return .notMine }
        catalog.noteChange()
        return .done
    }

    func pass(now: Double, loop: InteractiveLoop) throws {
        let scene = loop.scene
        let resting = scene.activity.resting
        // Scanned on a thread, so it may begin at any time; its end wakes the loop.
        if catalog.isDue(at: now) { catalog.begin(now: now) }
        // New, gone or replaced files, applied at rest only: the change jumps.
        if resting, let fresh = catalog.finish(current: scene.sources),
           case let admitted = broken?.admit(fresh) ?? fresh, admitted != scene.sources {
            try scene.apply(.catalog(admitted, time: now))
            showChanged(scene.sources)
            loop.needsDraw = true
        }
        if scene.sources.isEmpty, case let message = broken?.emptyMessage(otherwise: catalog.emptyMessage) ?? catalog.emptyMessage,
           message != emptyMessage {
            emptyMessage = message
            try scene.apply(.emptyMessage(message))
            loop.needsDraw = true
        }
        // Pictures that failed since, left out at rest (their placeholders were plain).
        if resting, try broken?.leaveOut(of: scene, time: now, otherwise: emptyMessage ?? SceneChange.noPictures) == true {
            loop.needsDraw = true
        }
    }
}
