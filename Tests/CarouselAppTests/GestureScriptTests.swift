import Testing
@testable import CarouselApp
import CarouselCore

@Suite struct GestureScriptTests {
    @Test func parsesEveryVerb() throws {
        let s = try GestureScript(parsing: """
            # a comment line
            mouse-down 10 20
            mouse-move 11 20   # trailing comment
            mouse-up 12 20
            touch-down 3 1 2
            touch-move 3 1 5
            touch-up 3 1 5
            drag 900 360 300 360 150 touch hold 200
            drag 1 2 3 4 100

            tap 640 360 touch
            key PageDown
            wheel 0 -1
            wait 500
            resize 720 1280
            snapshot after-swipe_1
            """)
        #expect(s.actions.count == 14)
        #expect(s.actions[0].line == 2)
        #expect(s.actions[6].action == .drag(from: Point(x: 900, y: 360), to: Point(x: 300, y: 360),
                                             ms: 150, device: .touch, holdMs: 200))
        #expect(s.actions[7].action == .drag(from: Point(x: 1, y: 2), to: Point(x: 3, y: 4),
                                             ms: 100, device: .mouse, holdMs: nil))
        #expect(s.actions[9].action == .key(.pagedown))
        #expect(s.actions[13].action == .snapshot("after-swipe_1"))
    }

    @Test(arguments: [
        ("wait 100\nfly 1 2", 2, "unknown action 'fly'"),
        ("mouse-down 10", 1, "mouse-down: missing Y"),
        ("\n\ntap x 3", 3, "tap: X 'x' is not a number"),
        ("drag 1 2 3 4 100 sideways", 1, "drag: unexpected 'sideways' (expected mouse, touch or hold MS2)"),
        ("key F13", 1, "key: unknown key 'F13'"),
        ("wait -5", 1, "wait: MS must not be negative"),
        ("snapshot ../escape", 1, "snapshot: NAME '../escape'"),
        ("resize 0 10", 1, "resize: W and H must be whole numbers"),
        ("wheel 1 2 3", 1, "wheel: unexpected '3'"),
        ("touch-down 1.5 2 3", 1, "touch-down: ID must be a whole number"),
        // Found by fuzzing: an ID past Int64 trapped in the conversion.
        ("touch-down 1e30 2 3", 1, "touch-down: ID must be a whole number from 0 to 2147483647"),
        ("wait 1e30", 1, "wait: MS must be at most 3600000 (an hour)"),
        ("drag 1 2 3 4 10 hold 4000000", 1, "drag: MS2 must be at most 3600000"),
    ])
    func malformedLineNamesItsNumber(text: String, line: Int, message: String) {
        #expect {
            _ = try GestureScript(parsing: text)
        } throws: { error in
            guard let e = error as? GestureScript.ParseError else { return false }
            return e.line == line && e.message.hasPrefix(message)
        }
    }
}
