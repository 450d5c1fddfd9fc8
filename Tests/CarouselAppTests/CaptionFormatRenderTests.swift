import Foundation
import TestSupport
import Testing

/// `--caption-format` in `carousel render`: a picture's date from its own file, in the
/// template's format, drawn as a title saying the same would be; an undated picture's
/// caption drops the date and the text joining it.
@Suite(.serialized) struct CaptionFormatRenderTests {
    @Test func theDateFromTheFileIsDrawnAsATitleSayingItWouldBe() throws {
        let dir = try Fixtures.temporaryFolder("caption-format")
        for (name, colour) in [("a.jpg", "firebrick"), ("b.jpg", "steelblue")] {
            let p = Process()
            p.executableURL = try OutsideProgram.convert.url
            p.arguments = ["-size", "320x240", "xc:\(colour)", dir + "/" + name]
            try p.run()
            p.waitUntilExit()
        }
        let exif = Process()
        exif.executableURL = try OutsideProgram.exiftool.url
        exif.arguments = ["-q", "-overwrite_original", "-DateTimeOriginal=2024:07:14 21:30:05", dir + "/a.jpg"]
        try exif.run()
        exif.waitUntilExit()
        #expect(exif.terminationStatus == 0, "exiftool (kiosk/setup installs it)")
        try "[[item]]\npath = \"a.jpg\"\ntitle = \"Harbour\"\n[[item]]\npath = \"b.jpg\"\ntitle = \"Harbour\"\n"
            .write(toFile: dir + "/plain.toml", atomically: true, encoding: .utf8)
        try "[[item]]\npath = \"a.jpg\"\ntitle = \"Sunday 14 July 2024 · Harbour\"\n[[item]]\npath = \"b.jpg\"\ntitle = \"Harbour\"\n"
            .write(toFile: dir + "/said.toml", atomically: true, encoding: .utf8)
        let script = "wait 200\nsnapshot a\nkey right\nwait 800\nsnapshot b\n"
        let (formatted, r1) = try CarouselBinary.render([dir + "/plain.toml"], script: script,
                                                        options: ["--caption-format", "{date:%A %-d %B %Y} · {title}"], environment: ["LANG": "C.UTF-8"])
        let (titled, r2) = try CarouselBinary.render([dir + "/said.toml"], script: script, options: ["--captions", "title"])
        #expect(r1.status == 0 && r2.status == 0, "\(r1.stderr) \(r2.stderr)")
        for name in ["a", "b"] {
            let ours = try ClockRenderTests.image(formatted, name), expected = try ClockRenderTests.image(titled, name)
            #expect(ClockRenderTests.difference(ours, expected) == nil, "\(name): the caption differs from the title saying it")
        }
    }
}
