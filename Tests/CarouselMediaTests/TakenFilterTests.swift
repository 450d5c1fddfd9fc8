import CarouselCore
@testable import CarouselMedia
import Foundation
import TestSupport
import Testing
@testable import CarouselSources

/// `--taken` and `--on-this-day`: ranges with open ends and whole years or months, today's
/// date in earlier years (the 29th of February on the 28th), undated files out; in a scan,
/// the files kept and, for a day with none, everything with one line.
@Suite struct TakenFilterTests {
    static func date(_ y: Int, _ m: Int, _ d: Int) -> PhotoDate { PhotoDate(year: y, month: m, day: d, hour: 12)! }
    static let today = TakenFilter.Day(year: 2026, month: 11, day: 27)

    @Test func rangesWithOpenEndsAndWholeYearsOrMonths() throws {
        let year = try TakenFilter(parsingRange: "2019..2019")
        #expect(year.admits(Self.date(2019, 1, 1), today: Self.today) && year.admits(Self.date(2019, 12, 31), today: Self.today))
        #expect(!year.admits(Self.date(2018, 12, 31), today: Self.today) && !year.admits(Self.date(2020, 1, 1), today: Self.today))
        let upTo = try TakenFilter(parsingRange: "..2015-06")
        #expect(upTo.admits(Self.date(1999, 5, 5), today: Self.today) && upTo.admits(Self.date(2015, 6, 30), today: Self.today))
        #expect(!upTo.admits(Self.date(2015, 7, 1), today: Self.today))
        let from = try TakenFilter(parsingRange: "2024-02-29..")
        #expect(from.admits(Self.date(2024, 2, 29), today: Self.today) && !from.admits(Self.date(2024, 2, 28), today: Self.today))
        #expect(!from.admits(nil, today: Self.today), "a file that says no date stays out")
        let month = try TakenFilter(parsingRange: "2024-02")
        #expect(month.admits(Self.date(2024, 2, 29), today: Self.today) && !month.admits(Self.date(2024, 3, 1), today: Self.today), "a month alone")
        for bad in ["", "..", "2019-13..", "2023-02-29..", "2020..2019", "x..2019", "2019-1-1-1.."] {
            #expect(throws: TakenFilter.ParseError.self, "\(bad)") { try TakenFilter(parsingRange: bad) }
        }
    }

    @Test func onThisDayInEarlierYears() {
        let filter = TakenFilter(onThisDay: true)
        #expect(filter.admits(Self.date(2019, 11, 27), today: Self.today))
        #expect(!filter.admits(Self.date(2026, 11, 27), today: Self.today), "today's own pictures are not memories")
        #expect(!filter.admits(Self.date(2019, 11, 26), today: Self.today) && !filter.admits(nil, today: Self.today))
        let leapless = TakenFilter.Day(year: 2027, month: 2, day: 28)
        #expect(filter.admits(Self.date(2024, 2, 29), today: leapless) && filter.admits(Self.date(2020, 2, 28), today: leapless))
        #expect(!filter.admits(Self.date(2024, 2, 29), today: TakenFilter.Day(year: 2028, month: 2, day: 28)), "a leap year has its own 29th")
    }

    @Test func aScanKeepsTheDatedFilesAndADayWithNoneShowsEverything() throws {
        let dir = try MediaFixtures.folder("taken")
        for (name, date) in [("a.jpg", "2019:11:27 10:00:00"), ("b.jpg", "2021:06:01 10:00:00"), ("c.jpg", nil)] as [(String, String?)] {
            try ReferenceEncoders.run(.convert, ["-size", "32x24", "xc:red", dir + "/" + name])
            if let date { try ReferenceEncoders.run(.exiftool, ["-q", "-overwrite_original", "-DateTimeOriginal=" + date, dir + "/" + name]) }
        }
        var scanner = SourceScanner()
        scanner.today = { TakenFilterTests.today }
        func names(_ filter: TakenFilter, notes: inout [String]) throws -> [String] {
            scanner.taken = filter
            var said: [String] = []
            let found = try scanner.scan([dir]) { said.append($0) }
            notes = said
            return found.map { ($0.path as NSString).lastPathComponent }
        }
        var notes: [String] = []
        #expect(try names(TakenFilter(parsingRange: "2020.."), notes: &notes) == ["b.jpg"])
        #expect(try names(TakenFilter(onThisDay: true), notes: &notes) == ["a.jpg"])
        scanner.today = { TakenFilter.Day(year: 2026, month: 3, day: 3) }
        #expect(try names(TakenFilter(onThisDay: true), notes: &notes) == ["a.jpg", "b.jpg", "c.jpg"], "none that day: everything")
        #expect(notes.count == 1 && notes[0].contains("--on-this-day") && notes[0].contains("03-03"), "\(notes)")
        #expect(try names(TakenFilter(parsingRange: "..2000"), notes: &notes).isEmpty)
        #expect(notes.count == 1 && notes[0].contains("--taken"), "\(notes)")
    }

    /// Web items are judged by the date their listing gives (Immich's, a manifest's
    /// `taken`); one listed without a date is not judged, and no file of the web is read.
    @Test func listedDatesAreJudgedAndUndatedWebItemsPass() {
        let items = [ImageSource(path: "https://photos.example/api/assets/1/thumbnail", taken: "2019-11-27T10:00:00"),
                     ImageSource(path: "https://photos.example/api/assets/2/thumbnail", taken: "2021-06-01T10:00:00+02:00"),
                     ImageSource(path: "https://photos.example/c.jpg")]
        var notes: [String] = []
        func kept(_ filter: TakenFilter) -> [String] {
            SourceScanner.keep(items, taken: filter, today: Self.today) { notes.append($0) }.map(\.path)
        }
        #expect(kept(TakenFilter(onThisDay: true)) == [items[0].path, items[2].path])
        #expect(kept((try? TakenFilter(parsingRange: "2020..")) ?? TakenFilter()) == [items[1].path, items[2].path])
        #expect(notes.isEmpty, "\(notes)")
    }

    @Test(arguments: [("2024-07-14", "2024-07-14 00:00:00"), ("2024-07-14T18:22", "2024-07-14 18:22:00"),
                      ("2024-07-14T18:22:05.123Z", "2024-07-14 18:22:05+00:00"), ("2024-07-14 18:22:05-05:30", "2024-07-14 18:22:05-05:30"),
                      ("2024-07-14T18:22:05+0200", "2024-07-14 18:22:05+02:00")])
    func aListedDateReads(_ text: String, _ said: String) {
        #expect(PhotoDate(listed: text)?.description == said)
    }

    @Test(arguments: ["", "2024", "2024-13-01", "2024-07-14T25:00", "2024-07-14T18:22:05+02", "2024-07-14x", "14/07/2024"])
    func notADateIsRefused(_ text: String) {
        #expect(PhotoDate(listed: text) == nil)
    }
}
