@testable import CarouselApp
import CarouselCore
import CarouselSDL
import Testing

/// What the window's input means to the program: navigation keys, the quit, full-screen and
/// back keys with the kiosk's bindings, and other threads' wake-ups.
@Suite struct InputMapperTests {
    /// Keycodes as SDL gives them: a printable key is its lower-case character.
    static let q = Int32(UInt8(ascii: "q")), a = Int32(UInt8(ascii: "a"))

    static func press(_ name: KeyPress.Name?, keycode: Int32 = 0, _ modifiers: KeyCombo.Modifiers = []) -> WindowInput {
        .key(KeyPress(name: name, keycode: name == .q ? q : keycode, modifiers: modifiers, time: 1))
    }

    @Test func keysStepTheViewOrAskTheApp() {
        let m = InputMapper()
        #expect(m.map(Self.press(.right)) == [.view(.step(.next, time: 1))])
        #expect(m.map(Self.press(.space)) == [.view(.step(.next, time: 1))])
        #expect(m.map(Self.press(.left)) == [.view(.step(.previous, time: 1))])
        #expect(m.map(Self.press(.home)) == [.view(.step(.first, time: 1))])
        #expect(m.map(Self.press(.end)) == [.view(.step(.last, time: 1))])
        #expect(m.map(Self.press(.pageDown)) == [.view(.step(.nextPage, time: 1))])
        #expect(m.map(Self.press(.f11)) == [.toggleFullscreen])
        #expect(m.map(Self.press(.k)) == [.togglePause] && m.map(Self.press(.playPause)) == [.togglePause])
        // J and L (and a remote's rewind and fast-forward): the clip 10 s back or on.
        #expect(m.map(Self.press(.j)) == [.seekClip(.by(-10))] && m.map(Self.press(.rewind)) == [.seekClip(.by(-10))])
        #expect(m.map(Self.press(.l)) == [.seekClip(.by(10))] && m.map(Self.press(.fastForward)) == [.seekClip(.by(10))])
        #expect(m.map(Self.press(.q)) == [.quit])
        #expect(m.map(Self.press(.escape)) == [.quit])
        #expect(m.map(Self.press(nil, keycode: Self.a)).isEmpty)
        #expect(m.map(.scroll(1, time: 2)) == [.view(.scroll(1, time: 2))])
        #expect(m.map(.resized) == [.resized] && m.map(.renderReset) == [.renderReset] && m.map(.windowClosed) == [.windowClosed]
                && m.map(.displayLost) == [.displayLost])
    }

    @Test func upAndDownStepOnlyAViewThatScrollsVertically() {
        var m = InputMapper()
        #expect(m.map(Self.press(.up)).isEmpty && m.map(Self.press(.down)).isEmpty, "the carousel moves sideways")
        m.verticalSteps = true
        #expect(m.map(Self.press(.up)) == [.view(.step(.previous, time: 1))])
        #expect(m.map(Self.press(.down)) == [.view(.step(.next, time: 1))])
    }

    /// Enter (and a TV remote's OK over HDMI-CEC) opens the picture in focus on a wall and
    /// plays and pauses the carousel; the TV's word wakes the loop for its inputs.
    @Test func enterOpensOnAWallAndPausesTheCarousel() {
        var m = InputMapper()
        #expect(m.map(Self.press(.enter)) == [.togglePause])
        m.verticalSteps = true
        #expect(m.map(Self.press(.enter)) == [.showView(.carousel)])
        #expect(m.map(.wake(WakeReason.television.rawValue)) == [.television])
    }

    @Test func kioskIgnoresQuitAndFullScreenKeysButNotItsCombination() {
        let m = InputMapper(keys: KeyBindings(kiosk: true, quit: KeyCombo(parsing: "ctrl+alt+q")))
        #expect(m.map(Self.press(.escape)).isEmpty)
        #expect(m.map(Self.press(.q)).isEmpty)
        #expect(m.map(Self.press(.f11)).isEmpty)
        #expect(m.map(Self.press(.q, [.ctrl])).isEmpty, "alt is missing")
        #expect(m.map(Self.press(.q, [.ctrl, .alt])) == [.quit])
        #expect(m.map(Self.press(.right)) == [.view(.step(.next, time: 1))], "navigation keys still work")
    }

    @Test func inAViewOpenedFromAnotherEscapeAndBackspaceGoBack() {
        for kiosk in [false, true] {
            var m = InputMapper(keys: KeyBindings(kiosk: kiosk, quit: nil))
            #expect(m.map(Self.press(.backspace)).isEmpty, "nothing to go back to")
            m.canGoBack = true
            #expect(m.map(Self.press(.escape)) == [.back])
            #expect(m.map(Self.press(.backspace)) == [.back])
            m.canGoBack = false
            #expect(m.map(Self.press(.escape)) == (kiosk ? [] : [.quit]), "back home, Escape quits a window")
        }
    }

    @Test func withoutACombinationNoKeyQuitsAKiosk() {
        let m = InputMapper(keys: KeyBindings(kiosk: true, quit: nil))
        #expect(m.map(Self.press(.q, [.ctrl, .alt])).isEmpty)
        #expect(m.map(Self.press(.escape)).isEmpty)
    }

    @Test func wakeUpsAreSignalsFoldersAndMemory() {
        let m = InputMapper()
        #expect(m.map(.wake(WakeReason.quit.rawValue)) == [.quit])
        #expect(m.map(.wake(WakeReason.reload.rawValue)) == [.reload])
        #expect(m.map(.wake(WakeReason.foldersChanged.rawValue)) == [.foldersChanged])
        #expect(m.map(.wake(WakeReason.memoryPressure.rawValue)) == [.memoryPressureChanged])
        #expect(m.map(.wake(EventQueue.readyCode)) == [.redraw])
        #expect(m.map(.wake(WakeReason.workDone.rawValue)).isEmpty, "a finished rescan draws only if it changed something")
        #expect(WakeReason.imageReady.rawValue == EventQueue.readyCode)
    }
}
