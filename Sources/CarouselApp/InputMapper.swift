import CarouselCore
import CarouselSDL

/// What the window's input means to the program: pointers, the wheel and navigation keys
/// for the view's engine; the quit, full-screen and back keys, the window's close button and
/// other threads' wake-ups for the app. Kiosk key bindings are applied here.
struct InputMapper {
    var keys: KeyBindings
    /// The view shown was opened from another: Escape and Backspace go back to it instead
    /// of quitting (or doing nothing in a kiosk).
    var canGoBack = false
    /// The view scrolls up and down (the wall): Up and Down step it as Left and Right do.
    var verticalSteps = false

    init(keys: KeyBindings = KeyBindings()) {
        self.keys = keys
    }

    func map(_ input: WindowInput) -> [AppInput] {
        switch input {
        case .pointer(let p): [.view(.pointer(p))]
        case .scroll(let delta, let time): [.view(.scroll(delta, time: time))]
        case .zoomWheel(let notches, let p, let time):
            [.view(.zoom(by: Double.pow(ZoomSettings().wheelFactor, notches), about: p, time: time))]
        case .key(let press): key(press)
        case .windowClosed: [.windowClosed]
        case .displayLost: [.displayLost]
        case .resized: [.resized]
        case .renderReset: [.renderReset]
        case .redraw: [.redraw]
        case .wake(let code):
            switch WakeReason(rawValue: code) {
            case .quit: [.quit]
            case .reload: [.reload]
            case .foldersChanged: [.foldersChanged]
            case .memoryPressure: [.memoryPressureChanged]
            case .control: [.control]
            case .television: [.television]
            case .presenceKey: [.presenceKey]
            case .workDone: []
            case .imageReady, nil: [.redraw]
            }
        }
    }

    private func key(_ press: KeyPress) -> [AppInput] {
        if let combo = keys.quit, combo.matches(press) { return [.quit] }
        let step: Step?
        switch press.name {
        case .left: step = .previous
        case .right, .space: step = .next
        case .home: step = .first
        case .end: step = .last
        case .pageUp: step = .previousPage
        case .pageDown: step = .nextPage
        case .plus, .minus: return [.view(ZoomSettings.keyStep(in: press.name == .plus, time: press.time))]
        case .f11, .f: return keys.kiosk ? [] : [.toggleFullscreen]
        case .k, .playPause: return [.togglePause]
        // A wall opens the picture in focus; the carousel plays and pauses, as a TV's OK does.
        case .enter: return verticalSteps ? [.showView(.carousel)] : [.togglePause]
        case .j, .rewind: return [.seekClip(.by(-ClipSeek.step))]
        case .l, .fastForward: return [.seekClip(.by(ClipSeek.step))]
        case .escape where canGoBack: return [.back]
        case .backspace: return canGoBack ? [.back] : []
        case .escape, .q: return keys.kiosk ? [] : [.quit]
        case .up: step = verticalSteps ? .previous : nil
        case .down: step = verticalSteps ? .next : nil
        case nil: step = nil
        }
        return step.map { [.view(.step($0, time: press.time))] } ?? []
    }
}
