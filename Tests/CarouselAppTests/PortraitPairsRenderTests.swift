import Foundation
import TestSupport
import Testing

/// `--pair-portraits` through `carousel render`, against committed references: portraits
/// side by side on a landscape screen, partnered by the day they were taken, landscapes one
/// above the other on a portrait screen; a pair is one item of the strip.
@Suite struct PortraitPairsRenderTests {
    static func picture(_ dir: String, _ name: String, _ size: String, _ colour: String) throws {
        let p = Process()
        p.executableURL = try OutsideProgram.convert.url
        p.arguments = ["-size", size, "xc:\(colour)", dir + "/" + name]
        try p.run()
        p.waitUntilExit()
        #expect(p.terminationStatus == 0, "ImageMagick's convert (kiosk/setup installs it)")
    }

    static func settled(_ out: String) throws -> [Int] {
        try String(contentsOfFile: out + "/events.jsonl", encoding: .utf8).split(separator: "\n").compactMap { line in
            guard line.contains("\"type\":\"settled\""), let r = line.range(of: "\"index\":") else { return nil }
            return Int(line[r.upperBound...].prefix { $0.isNumber })
        }
    }

    @Test func portraitsPairTheSameDayFirstAsOneItem() throws {
        let dir = try Fixtures.temporaryFolder("pairs")
        let pictures = [("p1.jpg", "600x900", "firebrick", "2024-05-01T10:00"), ("l1.jpg", "900x600", "steelblue", nil),
                        ("p2.jpg", "600x800", "seagreen", "2024-06-10T09:00"), ("p3.jpg", "500x900", "goldenrod", "2024-05-01T18:00"),
                        ("p4.jpg", "600x900", "purple", "2024-06-10T12:00")]
        var manifest = ""
        for (name, size, colour, taken) in pictures {
            try Self.picture(dir, name, size, colour)
            manifest += "[[item]]\npath = \"\(name)\"\n" + (taken.map { "taken = \"\($0)\"\n" } ?? "")
        }
        try manifest.write(toFile: dir + "/show.toml", atomically: true, encoding: .utf8)
        let script = "snapshot pairs-first\nkey end\nwait 1500\nsnapshot pairs-last\n"
        let (out, r) = try CarouselBinary.render([dir + "/show.toml"], script: script,
                                                 options: ["--pair-portraits", "--captions", "title"], size: "640x360")
        #expect(r.status == 0, "\(r.stderr)")
        // p1 goes with p3 (the same day) though p2 comes first; l1 alone; p2 with p4: three items.
        #expect(try Self.settled(out).last == 2)
        for name in ["pairs-first", "pairs-last"] {
            if let problem = Golden.compare(out + "/\(name).png", to: name) { Issue.record("\(name): \(problem)") }
        }
        // Without the option: five items.
        let (alone, r2) = try CarouselBinary.render([dir + "/show.toml"], script: "key end\nwait 1500\n", size: "640x360")
        #expect(r2.status == 0)
        #expect(try Self.settled(alone).last == 4)
    }

    @Test func landscapesStackOnAPortraitScreen() throws {
        let dir = try Fixtures.temporaryFolder("pairs-stacked")
        try Self.picture(dir, "a.jpg", "900x600", "steelblue")
        try Self.picture(dir, "b.jpg", "600x900", "firebrick")
        try Self.picture(dir, "c.jpg", "1000x500", "seagreen")
        let (out, r) = try CarouselBinary.render([dir], script: "snapshot pairs-stacked\nkey end\nwait 1500\n",
                                                 options: ["--pair-portraits"], size: "360x640")
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try Self.settled(out).last == 1, "a with c, then b")
        if let problem = Golden.compare(out + "/pairs-stacked.png", to: "pairs-stacked") { Issue.record("\(problem)") }
    }
}
