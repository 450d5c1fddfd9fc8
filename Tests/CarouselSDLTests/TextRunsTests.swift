@testable import CarouselSDL
import CarouselCore
import CSDL2TTF
import Testing

/// A caption cut into runs of one font and one script: what the caption font lacks in the
/// font fontconfig finds for it, each run shaped in its own script and direction, a line
/// that begins right to left drawn from the right; a hostile line of many scripts opens a
/// bounded number of fonts.
@Suite(.serialized) @MainActor struct TextRunsTests {
    static func text() throws -> TextRenderer { try TextRenderer(pointSize: 20) }

    @Test func whatTheCaptionFontLacksComesFromAnother() throws {
        let t = try Self.text()
        let runs = t.runs(of: "東京 Tokyo")
        #expect(runs.map(\.text) == ["東京", " ", "Tokyo"])
        #expect(runs[0].font != runs[2].font && runs[1].font == runs[2].font, "the ideographs from another font, the Latin from the caption's")
        #expect(runs.map(\.script) == [.han, .han, .latin])
        // Thai marks stay with their consonants; emoji asked for as such in colour, even one
        // the caption font has a plain glyph for.
        let thai = t.runs(of: "สวัสดี")
        #expect(thai.count == 1 && thai[0].script == .thai && thai[0].font != t.runs(of: "a")[0].font)
        let heart = t.runs(of: "I ❤️")
        #expect(heart.count == 2 && heart[1].font != heart[0].font, "\(heart.map(\.text))")
        #expect(t.runs(of: "I ❤").count == 1, "without U+FE0F, the caption font's own heart")
    }

    @Test func arabicIsShapedRightToLeftAndALineBeginningSoIsDrawnFromTheRight() throws {
        let t = try Self.text()
        let arabic = t.runs(of: "مرحبا بالعالم")
        #expect(arabic.map(\.script) == [.arabic] && arabic[0].script.isRightToLeft)
        let mixed = t.runs(of: "مرحبا Café")
        #expect(mixed.map(\.text) == ["Café", "مرحبا "], "right to left: the Latin run on the left")
        #expect(t.runs(of: "Café مرحبا").map(\.text) == ["Café ", "مرحبا"])
        // Right to left, a Latin run's closing space stays between it and the Arabic after it.
        #expect(t.runs(of: "שלום · Café 2024 مرحبا").map(\.text) == ["مرحبا", " ", "Café 2024", "שלום · "])
    }

    @Test func aLineOfManyScriptsOpensAtMostABoundedNumberOfFonts() throws {
        let t = try Self.text()
        let many = "東京 สวัสดี नमस्ते 🎉 ᐊᐃ ꦲꦏ 𐌰𐌱 ግዕዝ ᏣᎳᎩ 𓀀 ᠮᠣᠩ ಕನ್ನಡ தமிழ் ქართ Հայ"
        let fonts = Set(t.runs(of: many).map { Int(bitPattern: $0.font) })
        #expect(fonts.count <= TextRenderer.fallbacksMost + 1, "\(fonts.count) fonts")
    }
}
