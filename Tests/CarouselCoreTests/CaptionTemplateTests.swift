import CarouselCore
import Testing

/// `--caption-format`: fields filled from the item's facts, the text between them kept only
/// where both neighbours say something, a second line after `\n`, and mistakes named.
@Suite struct CaptionTemplateTests {
    static func facts(date: String? = "14 July 2024", caption: String? = nil) -> CaptionTemplate.Facts {
        CaptionTemplate.Facts(title: "Harbour", caption: caption, file: "IMG_0001.JPG", date: date.map { d in { $0 == "%Y" ? "2024" : d } })
    }

    @Test func fieldsAndTheTextBetweenThem() throws {
        let t = try CaptionTemplate(parsing: "{date} · {title}")
        #expect(t.lines(for: Self.facts()) == ["14 July 2024 · Harbour"])
        #expect(t.lines(for: Self.facts(date: nil)) == ["Harbour"], "undated: the title alone, no dangling dot")
        let around = try CaptionTemplate(parsing: "Taken {date:%Y} in the harbour")
        #expect(around.lines(for: Self.facts()) == ["Taken 2024 in the harbour"])
        #expect(around.lines(for: Self.facts(date: nil)).isEmpty, "nothing to say: no line")
        let file = try CaptionTemplate(parsing: "{file} ({caption})")
        #expect(file.lines(for: Self.facts(caption: "Boats")) == ["IMG_0001.JPG (Boats)"])
        #expect(file.lines(for: Self.facts()) == ["IMG_0001.JPG"])
    }

    /// Where and who, as the listing says: the people joined by commas, either left out
    /// with the text joining it when the listing does not say.
    @Test func placeAndPeople() throws {
        let t = try CaptionTemplate(parsing: "{date} · {place}\\n{people}")
        var facts = Self.facts()
        facts.place = "Lisbon, Portugal"
        facts.people = ["Anna", "Ben"]
        #expect(t.lines(for: facts) == ["14 July 2024 · Lisbon, Portugal", "Anna, Ben"])
        #expect(t.lines(for: Self.facts()) == ["14 July 2024"])
    }

    @Test func aSecondLineAndEmptyLinesLeftOut() throws {
        let t = try CaptionTemplate(parsing: "{title}\\n{caption}")
        #expect(t.lines(for: Self.facts(caption: "Boats at dawn")) == ["Harbour", "Boats at dawn"])
        #expect(t.lines(for: Self.facts()) == ["Harbour"])
    }

    @Test(arguments: ["{title", "{weather}", "{place:%Y}", "{title:%Y}", "{date:}", "just words", ""])
    func mistakesAreNamed(template: String) {
        #expect(throws: CaptionTemplate.ParseError.self) { try CaptionTemplate(parsing: template) }
    }
}
