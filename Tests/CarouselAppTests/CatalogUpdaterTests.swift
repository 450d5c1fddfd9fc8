@testable import CarouselApp
import CarouselCore
import CarouselMedia
import Foundation
import Testing
import CarouselSources

/// The catalog watcher on a real temporary folder: inotify wake-ups are real, the times
/// given to `check` are chosen, so "complete after 2 s unchanged" is exact.
@Suite(.serialized) struct CatalogUpdaterTests {
    final class Wakes: @unchecked Sendable {
        let semaphore = DispatchSemaphore(value: 0)
        /// Waits up to 5 s for the watcher to report a change.
        func wait() -> Bool { semaphore.wait(timeout: .now() + 5) == .success }
    }

    func write(_ folder: String, _ name: String, width: Int = 32) throws {
        try Fixtures.bmp(width, 24) { _, _ in (200, 40, 40) }.write(to: URL(fileURLWithPath: folder + "/" + name))
    }

    func names(_ sources: [ImageSource]?) -> [String]? {
        sources?.map { String($0.path.split(separator: "/").last ?? "") }
    }

    /// A file copied in after the start-up scan but before the watch was set up (the window
    /// opening on a slow boot) raises no inotify event: the first check finds it anyway.
    @Test func aFileAddedBeforeTheWatchBeganIsFound() throws {
        let folder = try Fixtures.temporaryFolder("watch-late")
        try write(folder, "a.bmp")
        let options = try SourceOptions.parse([folder])
        let start = try options.scan { _ in }
        try write(folder, "b.bmp")  // between the scan and the watch
        let updater = CatalogUpdater(options: options, initial: start, rescanInterval: nil, now: 0, wake: {})
        #expect(updater.isDue(at: 0), "nothing would look again")
        #expect(updater.check(current: start.sources, now: 0) == nil, "held back until complete")
        #expect(names(updater.check(current: start.sources, now: 2)) == ["a.bmp", "b.bmp"])
        #expect(!updater.isDue(at: 3) && updater.nextCheck == nil, "and then rests")
    }

    @Test func addRemoveReplaceGrowAndEmpty() throws {
        let folder = try Fixtures.temporaryFolder("watch")
        try write(folder, "a.bmp")
        try write(folder, "b.bmp")
        let options = try SourceOptions.parse([folder])
        let start = try options.scan { _ in }
        let wakes = Wakes()
        let updater = CatalogUpdater(options: options, initial: start,
                                     rescanInterval: nil, now: 0, wake: { wakes.semaphore.signal() })
        var shown = start.sources
        func settle(_ change: () throws -> Void, at t: Double) throws -> [ImageSource]? {
            try change()
            #expect(wakes.wait(), "inotify never reported the change")
            while wakes.semaphore.wait(timeout: .now() + 0.7) == .success {}  // one check per burst
            updater.noteChange()
            #expect(updater.isDue(at: t))
            let fresh = updater.check(current: shown, now: t)
            if let fresh { shown = fresh }
            return fresh
        }
        #expect(updater.nextCheck == nil, "no periodic rescan asked for")

        // Added: shown once it has stayed the same for 2 s.
        #expect(try settle({ try write(folder, "c.bmp") }, at: 10) == nil)
        #expect(updater.nextCheck == 12)
        #expect(!updater.isDue(at: 11.9) && updater.isDue(at: 12))
        #expect(names(updater.check(current: shown, now: 12).map { shown = $0; return $0 }) == ["a.bmp", "b.bmp", "c.bmp"])

        // Removed: gone at once.
        #expect(names(try settle({ try FileManager.default.removeItem(atPath: folder + "/a.bmp") }, at: 20)) == ["b.bmp", "c.bmp"])

        // Replaced: the old version stays until the new one is complete.
        let oldB = shown[0]
        #expect(try settle({ try write(folder, "b.bmp", width: 64) }, at: 30) == nil)
        let newB = updater.check(current: shown, now: 32)
        #expect(names(newB) == ["b.bmp", "c.bmp"] && newB?[0].stamp != oldB.stamp)
        shown = newB ?? shown

        // A file still being written (it grows between looks) is not shown until it stops.
        let growing = folder + "/d.bmp"
        let full = Fixtures.bmp(64, 64) { _, _ in (1, 2, 3) }
        #expect(try settle({ try full.prefix(1000).write(to: URL(fileURLWithPath: growing)) }, at: 40) == nil)
        #expect(try settle({ try full.prefix(5000).write(to: URL(fileURLWithPath: growing)) }, at: 41) == nil)
        #expect(updater.check(current: shown, now: 42) == nil, "changed at 41: not complete before 43")
        try full.write(to: URL(fileURLWithPath: growing))
        #expect(updater.check(current: shown, now: 44) == nil, "changed again")
        let withD = updater.check(current: shown, now: 46)
        #expect(names(withD) == ["b.bmp", "c.bmp", "d.bmp"])
        #expect(withD?.last?.stamp?.size == Int64(full.count))
        shown = withD ?? shown

        // Copied under a temporary name (rsync's hidden ".name.XXXXXX", a browser's ".part"),
        // then renamed: nothing shows until the real name has stayed the same for 2 s.
        let partial = Fixtures.bmp(40, 24) { _, _ in (9, 9, 9) }
        #expect(try settle({
            try partial.write(to: URL(fileURLWithPath: folder + "/.e.bmp.Xy12ab"))
            try partial.write(to: URL(fileURLWithPath: folder + "/f.bmp.part"))
        }, at: 47) == nil)
        #expect(updater.check(current: shown, now: 49.5) == nil, "a temporary name is never shown")
        #expect(try settle({
            try FileManager.default.moveItem(atPath: folder + "/.e.bmp.Xy12ab", toPath: folder + "/e.bmp")
            try FileManager.default.moveItem(atPath: folder + "/f.bmp.part", toPath: folder + "/f.bmp")
        }, at: 50) == nil)
        let renamed = updater.check(current: shown, now: 52)
        #expect(names(renamed) == ["b.bmp", "c.bmp", "d.bmp", "e.bmp", "f.bmp"])
        shown = renamed ?? shown
        for n in ["e.bmp", "f.bmp"] { try FileManager.default.removeItem(atPath: folder + "/" + n) }
        #expect(names(try settle({}, at: 53)) == ["b.bmp", "c.bmp", "d.bmp"])

        // Everything removed, then restored.
        let aside = try Fixtures.temporaryFolder("aside")
        #expect(try settle({
            for n in ["b.bmp", "c.bmp", "d.bmp"] { try FileManager.default.moveItem(atPath: folder + "/" + n, toPath: aside + "/" + n) }
        }, at: 60) == [])
        #expect(try settle({
            for n in ["b.bmp", "c.bmp", "d.bmp"] { try FileManager.default.moveItem(atPath: aside + "/" + n, toPath: folder + "/" + n) }
        }, at: 70) == nil)
        #expect(names(updater.check(current: shown, now: 72)) == ["b.bmp", "c.bmp", "d.bmp"])
    }

    @Test func aRemovedSourceFolderIsEmptyNotAnError() throws {
        let parent = try Fixtures.temporaryFolder("gone")
        let folder = parent + "/photos"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try write(folder, "a.bmp")
        let options = try SourceOptions.parse([folder])
        let start = try options.scan { _ in }
        let updater = CatalogUpdater(options: options, initial: start,
                                     rescanInterval: 30, now: 0, wake: {})
        #expect(updater.nextCheck == nil, "inotify sees a local folder: no periodic rescan")
        try FileManager.default.removeItem(atPath: folder)
        #expect(updater.check(current: start.sources, now: 30) == [])
        #expect(updater.nextCheck == 60, "gone, it cannot be watched: looked for periodically")
    }

    @Test func aRescanRunsOnAThreadAndIsAppliedOnceFinished() throws {
        let folder = try Fixtures.temporaryFolder("async")
        try write(folder, "a.bmp")
        let options = try SourceOptions.parse([folder])
        let start = try options.scan { _ in }
        // A slow share: the scan is held until the test lets it go (2 s at most).
        let gate = DispatchSemaphore(value: 0), done = DispatchSemaphore(value: 0)
        let updater = CatalogUpdater(options: options, initial: start, rescanInterval: 30, now: 0,
                                     scan: { note in
                                         _ = gate.wait(timeout: .now() + 2)
                                         return try options.scan(tolerant: true, note: note)
                                     }, wake: {}, scanned: { done.signal() })
        try FileManager.default.removeItem(atPath: folder + "/a.bmp")
        updater.noteChange()
        #expect(updater.isDue(at: 5))
        updater.begin(now: 5)
        #expect(!updater.hasResult, "begin must not wait for the scan")
        #expect(!updater.isDue(at: 5) && updater.nextCheck == nil, "one scan at a time; its end wakes the loop")
        updater.noteChange()  // a change while it runs
        #expect(updater.finish(current: start.sources) == nil, "still scanning")
        gate.signal()
        #expect(done.wait(timeout: .now() + 5) == .success, "the end of the scan never woke the loop")
        #expect(updater.hasResult)
        #expect(updater.finish(current: start.sources) == [])
        #expect(!updater.hasResult && updater.isDue(at: 7), "the change made during the scan gets a scan of its own")
    }

    @Test func aSourceNotThereYetIsLookedForUntilItComes() throws {
        let folder = try Fixtures.temporaryFolder("later") + "/photos"
        let options = try SourceOptions.parse([folder])
        let start = try options.scan(tolerant: true) { _ in }
        let updater = CatalogUpdater(options: options, initial: start, rescanInterval: 30, now: 0, wake: {})
        #expect(start.sources.isEmpty && updater.nextCheck == 30)
        #expect(updater.check(current: [], now: 30) == nil && updater.nextCheck == 60)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try write(folder, "a.bmp")
        #expect(updater.check(current: [], now: 60) == nil, "new: not yet complete")
        #expect(names(updater.check(current: [], now: 62)) == ["a.bmp"])
        #expect(updater.nextCheck == nil, "there and watched now: no more periodic rescans")
    }

    @Test func aFolderOnANetworkShareIsRescannedPeriodically() throws {
        let folder = try Fixtures.temporaryFolder("share")
        try write(folder, "a.bmp")
        let options = try SourceOptions.parse([folder])
        let start = try options.scan { _ in }
        let updater = CatalogUpdater(options: options, initial: start, rescanInterval: 30, now: 0,
                                     watcher: { FolderWatcher(isRemote: { _ in true }, onChange: $0) }, wake: {})
        #expect(updater.nextCheck == 30)
        #expect(updater.check(current: start.sources, now: 30) == nil)
        #expect(updater.nextCheck == 60)
        let never = CatalogUpdater(options: options, initial: start, rescanInterval: nil, now: 0,
                                   watcher: { FolderWatcher(isRemote: { _ in true }, onChange: $0) }, wake: {})
        #expect(never.nextCheck == nil, "--rescan 0: never, even where inotify is blind")
    }

    @Test func aManifestEditedIntoAMistakeKeepsWhatIsShownAndIsNotRetriedAtOnce() throws {
        let folder = try Fixtures.temporaryFolder("manifest")
        try write(folder, "a.bmp")
        let manifest = folder + "/show.toml"
        try "[[item]]\npath = \"a.bmp\"\n".write(toFile: manifest, atomically: true, encoding: .utf8)
        let options = try SourceOptions.parse([manifest])
        let start = try options.scan { _ in }
        let updater = CatalogUpdater(options: options, initial: start,
                                     rescanInterval: 30, now: 0, wake: {})
        try write(folder, "b.bmp")
        try "[[item]]\npath = \"a.bmp\"\n[[item]]\npath = \"b.bmp\"\n".write(toFile: manifest, atomically: true, encoding: .utf8)
        #expect(updater.check(current: start.sources, now: 1) == nil, "b is new: not yet complete")
        #expect(updater.nextCheck == 3)
        try "[[item]\npath = \"a.bmp\"\n".write(toFile: manifest, atomically: true, encoding: .utf8)
        #expect(updater.check(current: start.sources, now: 3) == nil)
        #expect(updater.nextCheck == 33, "the next periodic rescan, not a check due at once")
    }

    @Test func randomOrderKeepsItsOrderAndPlacesNewFiles() {
        let s = { (n: String) in ImageSource(path: "/p/\(n)") }
        let kept = CatalogUpdater.keepingOrder(of: [s("c"), s("a"), s("b")], with: [s("a"), s("b"), s("c"), s("d")])
        #expect(kept.filter { $0.path != "/p/d" } == [s("c"), s("a"), s("b")])
        #expect(kept.count == 4)
        #expect(CatalogUpdater.keepingOrder(of: [s("c"), s("a"), s("b")], with: [s("a"), s("c")]) == [s("c"), s("a")])
    }

    /// `--on-this-day`: the show is looked at again at the next local midnight, when its
    /// day changes, even where nothing else would wake it; and after each scan, the next one.
    @Test func onThisDayLooksAgainAtMidnight() throws {
        let folder = try Fixtures.temporaryFolder("on-this-day")
        try write(folder, "a.bmp")
        let options = try SourceOptions.parse([folder, "--on-this-day"])
        let start = try options.scan { _ in }
        // 23:59:30 local time on the wall when the loop's clock reads 100.
        var parts = tm()
        parts.tm_year = 126; parts.tm_mon = 10; parts.tm_mday = 27; parts.tm_hour = 23; parts.tm_min = 59; parts.tm_sec = 30
        parts.tm_isdst = -1
        let wall = Double(mktime(&parts))
        let updater = CatalogUpdater(options: options, initial: start, rescanInterval: nil, now: 100, wallClock: { wall }, wake: {})
        #expect(updater.nextCheck.map { abs($0 - 130) < 0.001 } == true, "\(String(describing: updater.nextCheck))")
        let plain = CatalogUpdater(options: try SourceOptions.parse([folder]), initial: start, rescanInterval: nil, now: 100,
                                   wallClock: { wall }, wake: {})
        #expect(plain.nextCheck == nil, "without it nothing is due")
        _ = updater.check(current: start.sources, now: 131)
        #expect(updater.nextCheck.map { $0 > 131 } == true, "the next midnight after the scan, never one passed (that would spin)")
    }
}
