import CarouselCore
import CarouselMedia
import Foundation
import Testing

/// How the show looks beyond sliding, through `carousel render` at 640×360 against
/// committed references: a crossfade half way, Ken Burns at two times of its dwell, the
/// blurred fill in the carousel and the full-screen pager.
@Suite(.serialized) struct LookRenderTests {
    func expectGoldens(_ out: String, _ names: [String]) {
        for name in names {
            if let problem = Golden.compare(out + "/\(name).png", to: name) { Issue.record("\(name): \(problem)") }
        }
    }

    @Test func aCrossfadeHalfWayShowsBothPicturesInPlace() throws {
        let (out, r) = try CarouselBinary.render([try Fixtures.imageFolder()], script: """
            key right
            wait 300
            snapshot mid-fade
            wait 400
            snapshot after-fade
            """, options: ["--transition", "fade"])
        #expect(r.status == 0, "stderr: \(r.stderr)")
        expectGoldens(out, ["mid-fade"])
        let events = try EventLines(path: out + "/events.jsonl")
        #expect(events.ofType("settled").map { $0["index"] as? Int } == [1])
        #expect(events.ofType("settled").first?["t_ms"] as? Int == 600)
    }

    @Test func kenBurnsMovesThroughTheDwell() throws {
        let (out, r) = try CarouselBinary.render([try Fixtures.imageFolder()], script: """
            wait 1000
            snapshot ken-burns-1s
            wait 3000
            snapshot ken-burns-4s
            """, options: ["--autoplay", "5", "--ken-burns", "--start-index", "2"])
        #expect(r.status == 0, "stderr: \(r.stderr)")
        expectGoldens(out, ["ken-burns-1s", "ken-burns-4s"])
    }

    @Test func theBlurredFillCoversTheBoxOrTheScreen() throws {
        let images = try Fixtures.imageFolder()
        // Paged, on the panorama (a gradient each way): its bars above and below show the
        // blurred picture's colours changing across the screen, which the average colour
        // (`--fill color`) cannot (the portrait's bars were one flat green either way).
        for (layout, name, start) in [("centered", "fill-blur", "0"), ("paged", "fill-blur-paged", "2")] {
            let (out, r) = try CarouselBinary.render([images], script: """
                key right
                wait 600
                snapshot \(name)
                """, options: ["--fill", "blur", "--layout", layout, "--start-index", start])
            #expect(r.status == 0, "stderr: \(r.stderr)")
            expectGoldens(out, [name])
        }
    }
}
