import Foundation
import Testing

/// Captions in every script, through `carousel render` against committed references: a
/// Japanese name (Noto Sans CJK), Arabic joined and right to left (DejaVu Sans, shaped as
/// Arabic), Thai (Noto Sans Thai) and emoji in colour (Noto Color Emoji), each where the
/// caption font has no glyph or no shaping of its own. The fonts are Debian's
/// fonts-noto-cjk, fonts-noto-core and fonts-noto-color-emoji (kiosk/setup installs them).
@Suite(.serialized) struct CaptionScriptsRenderTests {
    static let captions = [("caption-japanese", "東京の夜景 · 서울 · 北京"), ("caption-arabic", "مرحبا بالعالم"),
                           ("caption-thai", "สวัสดีครับ กรุงเทพ"), ("caption-emoji", "Party 🎉😀 ❤️")]

    @Test func eachScriptIsDrawnInAFontThatHasItShapedAsItsOwn() throws {
        let dir = try Fixtures.temporaryFolder("caption-scripts")
        try Data(try ImmichRenderTests.jpeg("steelblue")).write(to: URL(fileURLWithPath: dir + "/a.jpg"))
        try Self.captions.map { "[[item]]\npath = \"a.jpg\"\ntitle = \"\($0.1)\"\n" }.joined()
            .write(toFile: dir + "/show.toml", atomically: true, encoding: .utf8)
        let script = Self.captions.map(\.0).enumerated().map { n, name in (n == 0 ? "" : "key right\nwait 800\n") + "snapshot \(name)\n" }.joined()
        let (out, r) = try CarouselBinary.render([dir + "/show.toml"], script: script, options: ["--captions", "title", "--size", "480x270"])
        #expect(r.status == 0, "\(r.stderr)")
        for (name, _) in Self.captions {
            if let problem = Golden.compare(out + "/\(name).png", to: name) { Issue.record("\(name): \(problem)") }
        }
    }
}
