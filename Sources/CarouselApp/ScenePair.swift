import CarouselCore
import CarouselMedia
import CarouselSDL
import CarouselPainting

/// A view and the view it opens, one over the other: `--view mosaic` or `grid` and the
/// carousel a tap opens, centred on that picture. Escape, Backspace, a script's `key back`
/// or the button in the top-left corner go back to the view below, scrolled so that the
/// picture shown last is on it. Events: `view` {mode, index}. The run loop, render and bench
/// drive it as any view; it knows the two only by their roles (`OpeningScene`, `OpenedScene`).
public final class ScenePair: Scene {
    /// The view at the bottom (the wall).
    public let wall: any OpeningScene
    /// The view opened over it, nil while the wall shows.
    public private(set) var opened: (any OpenedScene)?
    /// The carousel last closed, kept with its slot textures (its images let go) so that
    /// the next tap opens it in one frame; made ahead at the first rest of the wall.
    /// Dropped when the pictures change, the textures are lost or memory is tight.
    private var parked: (any OpenedScene)?
    /// Makes the view opened on an item, over the same pictures.
    /// `parked`: made ahead, to be opened later: its slots and textures, nothing decoded.
    private let open: (_ index: Int, _ sources: [ImageSource], _ time: Double, _ parked: Bool) throws(SDLError) -> any OpenedScene
    /// The back button's pointer went down inside it: its release goes back.
    private var pressedBack = false
    /// `--idle-home`: seconds without input after which an opened carousel goes back to the wall.
    private let idleHome: Double?
    /// The latest input while the carousel is open.
    private var lastInput = 0.0
    /// The view changed since the last `pump`: the frame needs drawing.
    private var switched = false
    /// Pictures that changed while the carousel was open: the wall's when it shows again.
    private var wallCatalog: [ImageSource]?
    /// The picture moving between the wall and the carousel (`ViewMorph`): its texture, the
    /// motion, the carousel's background that fades in behind it, and whether it opens.
    private var morph: (motion: ViewMorph, picture: ShownPicture, veil: Color, opening: Bool)?
    /// The latest time the views were advanced to.
    private var now = 0.0

    /// Its events (`view`) go to the wall's log, on the wall's clock.
    public init(wall: any OpeningScene, idleHome: Double? = nil,
                open: @escaping (Int, [ImageSource], Double, Bool) throws(SDLError) -> any OpenedScene) {
        self.wall = wall
        self.idleHome = idleHome
        self.open = open
    }

    private var active: any Scene { opened ?? wall }

    /// The opened view's, or the wall's, with the way back.
    public var state: ViewState {
        var shown = active.state
        shown.canGoBack = opened != nil
        return shown
    }
    private var viewport: Size { active.state.viewport }
    public var activity: ViewActivity {
        let shown = active.activity
        var pair = ViewActivity(moving: shown.moving || morph != nil, held: shown.held || pressedBack, nextStep: shown.nextStep,
                                heldUntil: morph == nil ? shown.heldUntil : nil)
        // An opened view goes home by itself once nobody has touched it for `idleHome`.
        if opened != nil, shown.resting, let idleHome {
            pair.nextStep = [shown.nextStep, lastInput + idleHome].compactMap { $0 }.min()
        }
        return pair
    }
    public var sources: [ImageSource] { wallCatalog ?? wall.sources }
    public var pipeline: ImagePipeline { active.pipeline }

    /// The back button: at least 64 px square (a touch target), in the top-left corner.
    public var backButton: Rect {
        let side = max(64, (min(viewport.width, viewport.height) / 12).rounded())
        return Rect(x: 12, y: 12, width: side, height: side)
    }

    public func handle(_ input: ViewInput) throws(SDLError) {
        if case .resize = input {} else { lastInput = input.time }
        if opened != nil, case .pointer(let e) = input {
            // The button takes a press that starts on it, and goes back when it is let go there.
            if e.phase == .down, !active.activity.held, backButton.contains(e.location) { pressedBack = true; return }
            if pressedBack {
                if e.phase == .up || e.phase == .cancel {
                    pressedBack = false
                    if e.phase == .up, backButton.contains(e.location) { try goBack(time: e.time) }
                }
                return
            }
        }
        if case .resize = input, opened != nil {
            // Both views follow the screen; the hidden one is laid out again when it returns.
            try wall.handle(input)
        }
        try active.handle(input)
        try openTapped(time: input.time)
    }

    public func advance(to time: Double) throws(SDLError) {
        now = max(now, time)
        if let m = morph, m.motion.isDone(at: now) {
            morph = nil
            switched = true
        }
        try active.advance(to: time)
        if let opened, let idleHome, opened.activity.resting, !pressedBack, time >= lastInput + idleHome {
            try goBack(time: max(lastInput + idleHome, opened.time))
        }
        try openTapped(time: time)
    }

    @discardableResult
    public func pump() throws(SDLError) -> Bool {
        let changed = try active.pump()
        try openTapped(time: nil)
        try makeAhead()
        defer { switched = false }
        return changed || switched
    }

    public func draw(on renderer: SDLRenderer) {
        if let m = morph {
            // The wall under the carousel's background fading in (out, closing), the
            // picture between its two places.
            let p = m.motion.progress(at: now)
            wall.draw(on: renderer)
            renderer.fill(Rect(x: 0, y: 0, width: viewport.width, height: viewport.height), m.veil.withOpacity(m.opening ? p : 1 - p))
            renderer.draw(m.picture.texture, source: (m.picture.width, m.picture.height), cropping: m.motion.crop(at: now),
                          in: m.motion.frame(at: now))
            return
        }
        active.draw(on: renderer)
        if let opened { opened.painter.drawBackButton(backButton, on: renderer) }
    }

    /// At the wall's first rest, the carousel is made and parked, so that a tap opens it
    /// without making its textures on the opening frames.
    private func makeAhead() throws(SDLError) {
        guard opened == nil, parked == nil, morph == nil, wall.activity.resting,
              let index = wall.state.focus, !wall.sources.isEmpty else { return }
        parked = try open(index, wall.sources, wall.time, true)
    }

    public func finishLoading() throws(SDLError) { try active.finishLoading() }

    public func apply(_ change: SceneChange) throws(SDLError) {
        switch change {
        case .catalog(let new, _):
            // New pictures: an opened view stays open on its picture (a visitor's view does
            // not close because a file came or a broken one was left out) and the wall takes
            // the same list when it shows again.
            parked = nil
            if let opened {
                // The wall's tiles stand in by item number, which the change moves.
                opened.pipeline.standIn = nil
                try opened.apply(change)
                wallCatalog = new
                return
            }
            try wall.apply(change)
        case .emptyMessage:
            try wall.apply(change)
        case .screenOff, .screenOn, .seek, .nextStep:
            try active.apply(change)
        case .texturesLost, .memoryPressure:
            if case .memoryPressure(.normal, _) = change {} else { parked = nil }
            try wall.apply(change)
            try opened?.apply(change)
        case .back(let t):
            try goBack(time: t)
        case .open(let t):
            if opened == nil, let index = wall.state.focus { try open(index, time: t) }
        }
    }

    /// Back to the wall, scrolled to the picture the carousel showed last.
    private func goBack(time: Double) throws(SDLError) {
        guard let carousel = opened else { return }
        let shown = carousel.state.focus
        let leaving = carousel.focusedPicture
        carousel.park()
        opened = nil
        pressedBack = false
        switched = true
        if let new = wallCatalog {
            // The change was logged when the carousel took it.
            wallCatalog = nil
            try wall.replaceCatalog(new, time: time, recording: false)
        } else {
            parked = carousel
        }
        try wall.returned(showing: shown, time: time)
        morph = nil
        if let leaving, let shown, let tile = wall.tile(showing: shown) {
            now = max(now, time)
            morph = (ViewMorph(from: leaving.frame, to: tile.frame, fromCrop: leaving.crop, toCrop: tile.crop, time: time),
                     leaving.picture, carousel.painter.style.background, false)
        }
        wall.pipeline.record("view", at: time, ["mode": .string(wall.state.kind.rawValue), "index": .int(shown ?? -1)])
    }

    /// A tile tapped on the wall opens the carousel on it.
    private func openTapped(time: Double?) throws(SDLError) {
        guard opened == nil, let index = wall.takeTaps().last else { return }
        try open(index, time: time ?? wall.time)
    }

    /// Opens the carousel on `index`, over the wall.
    private func open(_ index: Int, time t: Double) throws(SDLError) {
        guard wall.sources.indices.contains(index) else { return }
        lastInput = t
        wall.covered()
        let carousel: any OpenedScene
        if let parked {
            self.parked = nil
            carousel = parked
            try carousel.reopen(at: index, viewport: wall.state.viewport, time: t)
        } else {
            carousel = try open(index, wall.sources, t, false)
        }
        // While a picture decodes at full size, its tile from the wall stands in, scaled up.
        carousel.pipeline.standIn = { [feed = wall.pipeline.feed] item in
            if case .image(let tile)? = feed.outcome(for: item) { return tile }
            return nil
        }
        try carousel.showStandIns()
        morph = nil
        if let tile = wall.tile(showing: index), let target = carousel.focusedPicture {
            now = max(now, t)
            morph = (ViewMorph(from: tile.frame, to: target.frame, fromCrop: tile.crop, toCrop: target.crop, time: t),
                     tile.picture, carousel.painter.style.background, true)
        }
        opened = carousel
        switched = true
        wall.pipeline.record("view", at: t, ["mode": .string("carousel"), "index": .int(index)])
    }

}
