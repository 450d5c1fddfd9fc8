import CarouselControl
import CarouselCore

extension ControlCommand {
    /// The inputs that carry the command out, as keys would, or why it cannot be: a picture
    /// that is not there (404), a finger on the screen or a dark screen for a command that
    /// moves the view, autoplay that is not set (409).
    func inputs(scene: any ShownView, screenOn: Bool, canPlay: Bool, now: Double) -> Result<[AppInput], ControlRefusal> {
        inputs(state: scene.state, sources: scene.sources, held: scene.activity.held, screenOn: screenOn, canPlay: canPlay, now: now)
    }

    /// The same, from what the scene shows (`state`, `sources`) and whether a finger holds it.
    func inputs(state: ViewState, sources: [ImageSource], held: Bool, screenOn: Bool, canPlay: Bool,
                now: Double) -> Result<[AppInput], ControlRefusal> {
        switch self {
        case .next, .previous, .first, .last, .gotoIndex, .gotoSource, .view:
            if held { return .failure(.conflict("someone is touching the screen (the finger wins)")) }
            if !screenOn { return .failure(.conflict("the screen is off; turn it on first (POST /screen {\"on\": true})")) }
        case .pause, .play:
            // A clip in focus pauses and plays without autoplay too.
            let clip = state.focus.map { sources.indices.contains($0) && sources[$0].isClip } == true
            if !canPlay && !clip {
                return .failure(.conflict("autoplay is off on this screen and no clip is in focus (--autoplay SECONDS sets it)"))
            }
        case .seek:
            let clip = state.kind.hasCentredItem && state.focus.map { sources.indices.contains($0) && sources[$0].isClip } == true
            if !clip { return .failure(.conflict("no clip is in focus")) }
            if !screenOn { return .failure(.conflict("the screen is off; turn it on first (POST /screen {\"on\": true})")) }
        case .screen, .brightness, .reload, .presence:
            break
        }
        let count = sources.count
        switch self {
        case .next: return .success([.view(.step(.next, time: now))])
        case .previous: return .success([.view(.step(.previous, time: now))])
        case .first: return .success([.view(.step(.first, time: now))])
        case .last: return .success([.view(.step(.last, time: now))])
        case .gotoIndex(let i):
            guard sources.indices.contains(i) else {
                return .failure(ControlRefusal(404, count == 0 ? "the show has no pictures" : "no picture \(i): the show has \(count) (0 to \(count - 1))"))
            }
            return .success([.view(.step(.item(i), time: now))])
        case .gotoSource(let s):
            guard let i = sources.firstIndex(where: { $0.path == s }) else {
                return .failure(ControlRefusal(404, "no picture in the show comes from \(ControlRoute.clip(s))"))
            }
            return .success([.view(.step(.item(i), time: now))])
        case .pause: return .success([.view(.autoplay(false, time: now))])
        case .play: return .success([.view(.autoplay(true, time: now))])
        case .seek(let seek): return .success([.seekClip(seek)])
        case .view(let kind) where kind.isTiled && state.kind.opensFromWall && !state.canGoBack:
            return .failure(.conflict("this screen shows the carousel only (--view mosaic or grid gives it a wall)"))
        case .view(.carousel) where state.kind.isTiled && !state.canGoBack && state.focus == nil:
            // The wall places its tiles as their sizes are read: until the first is placed
            // there is nothing to open the carousel on (it answered 200 and stayed on the wall).
            return .failure(count == 0 ? ControlRefusal(404, "the show has no pictures")
                                       : .conflict("the wall has not placed its pictures yet; ask again in a moment"))
        case .view(let mode): return .success([.showView(mode)])
        case .screen(let on): return .success([.screen(on: on)])
        case .brightness(let v): return .success([.brightness(v)])
        case .reload: return .success([.reload])
        case .presence(let p): return .success([.presence(p)])
        }
    }
}
