import TOMLReader
import Testing

@Suite struct TOMLTests {
    @Test func readsADocumentWithItsLines() throws {
        let t = try TOML.parse("""
            # a comment
            title = "Lobby"   # trailing
            count = 1_000
            ratio = 0.5
            on = true

            [screen]
            size = "1920x1080"
            sides.left = 'raw \\n stays'

            [[item]]
            path = "a.jpg"

            [[item]]
            path = "b.jpg"
            tags = ["x", "y",]
            """)
        #expect(t.keys == ["title", "count", "ratio", "on", "screen", "item"])
        #expect(t["title"] == .string("Lobby") && t.line(of: "title") == 2)
        #expect(t["count"] == .integer(1000) && t["ratio"] == .float(0.5) && t["on"] == .bool(true))
        let screen = try #require(t["screen"]?.table)
        #expect(screen.line == 7 && screen["size"] == .string("1920x1080") && screen.line(of: "size") == 8)
        #expect(screen["sides"]?.table?["left"] == .string("raw \\n stays"))
        let items = try #require(t["item"]?.array)
        #expect(items.count == 2)
        #expect(items[0].table?.line == 11 && items[1].table?.line == 14)
        #expect(items[1].table?["tags"] == .array([.string("x"), .string("y")]))
        #expect(items[1].table?.line(of: "path") == 15)
    }

    @Test func everyKindOfString() throws {
        let t = try TOML.parse(#"""
            basic = "tab\there \"quoted\" \u00e9 \U0001F600 back\\slash"
            literal = 'C:\Users\kiosk'
            multi = """
            one
            two"""
            folded = """\
                   joined \
                   here"""
            lit = '''
            keeps \n as is'''
            quotes = """a ""quoted"" word"""
            "quoted key" = 1
            'literal key' = 2
            """#)
        #expect(t["basic"] == .string("tab\there \"quoted\" é 😀 back\\slash"))
        #expect(t["literal"] == .string(#"C:\Users\kiosk"#))
        #expect(t["multi"] == .string("one\ntwo"))
        #expect(t["folded"] == .string("joined here"))
        #expect(t["lit"] == .string(#"keeps \n as is"#))
        #expect(t["quotes"] == .string(#"a ""quoted"" word"#))
        #expect(t["quoted key"] == .integer(1) && t["literal key"] == .integer(2))
    }

    @Test func numbersDatesArraysAndInlineTables() throws {
        let t = try TOML.parse("""
            hex = 0xDEAD_beef
            oct = 0o755
            bin = 0b1101
            neg = -17
            plus = +3
            exp = 6.02e23
            small = -1.5E-3
            inf = -inf
            nan = nan
            when = 1979-05-27T07:32:00Z
            spaced = 1979-05-27 07:32:00
            day = 1979-05-27
            nested = [[1, 2], ["a"], []]
            point = { x = 1, y.z = "deep" }
            long = [
              1,   # one
              2,
            ]
            """)
        #expect(t["hex"] == .integer(0xDEADBEEF) && t["oct"] == .integer(0o755) && t["bin"] == .integer(13))
        #expect(t["neg"] == .integer(-17) && t["plus"] == .integer(3))
        #expect(t["exp"] == .float(6.02e23) && t["small"] == .float(-0.0015) && t["inf"] == .float(-.infinity))
        #expect(t["nan"]?.double?.isNaN == true)
        #expect(t["when"] == .dateTime("1979-05-27T07:32:00Z") && t["spaced"] == .dateTime("1979-05-27 07:32:00"))
        #expect(t["day"] == .dateTime("1979-05-27"))
        #expect(t["nested"] == .array([.array([.integer(1), .integer(2)]), .array([.string("a")]), .array([])]))
        #expect(t["point"]?.table?["x"] == .integer(1) && t["point"]?.table?["y"]?.table?["z"] == .string("deep"))
        #expect(t["long"] == .array([.integer(1), .integer(2)]))
    }

    @Test(arguments: [
        ("a = 1\na = 2", 2, "'a' is defined twice"),
        ("[t]\n[t]", 2, "[t] is defined twice"),
        ("a = [\n1,\n", 1, "the array that begins here is never closed"),
        ("a = \"open\nb = 1", 1, "a string is not closed on its line"),
        ("a = \"\"\"\nnever", 1, "the string that begins here is never closed"),
        ("a = b", 1, "'b' is not a value"),
        ("a = 007", 1, "'007' is not a value"),
        ("a = 1__0", 1, "'1__0' is not a value"),
        ("a = 99999999999999999999", 1, "is not a value"),
        ("a = \"\\q\"", 1, "unknown escape \\q"),
        ("a = \"\\uD800\"", 1, "\\u must be followed by 4 hex digits"),
        ("= 1", 1, "expected a key"),
        ("a 1", 1, "expected = after the key 'a'"),
        ("a = 1 b = 2", 1, "expected the end of the line"),
        ("p = { x = 1\n}", 1, "the inline table that begins here is not closed on its line"),
        ("p = { x = 1 }\n[p]", 2, "[p] is defined twice"),
        ("p = { x = 1 }\n[p.q]", 2, "'p' is an inline table"),
        ("a = 1\n[a.b]", 2, "'a' is already a value"),
        ("x = [1 2]", 1, "expected , or ] in an array"),
    ])
    func mistakesNameTheirLine(text: String, line: Int, message: String) {
        #expect {
            _ = try TOML.parse(text)
        } throws: { error in
            guard let e = error as? TOML.Error else { return false }
            return e.line == line && e.message.contains(message)
        }
    }

    @Test func deepNestingIsRefusedNotACrash() {
        let deep = "a = " + String(repeating: "[", count: 100_000)
        #expect(throws: TOML.Error.self) { _ = try TOML.parse(deep) }
        let deepTables = "a = " + String(repeating: "{ b = ", count: 100_000)
        #expect(throws: TOML.Error.self) { _ = try TOML.parse(deepTables) }
        let fine = "a = " + String(repeating: "[", count: TOML.maxDepth) + String(repeating: "]", count: TOML.maxDepth)
        #expect((try? TOML.parse(fine)) != nil)
    }
}
