import CarouselCore
import Testing

/// `--group`'s shared timeline: every screen computes the same show from the epoch, the
/// interval and the group's commands, whenever it joined and in whatever order they came.
@Suite struct GroupTimelineTests {
    typealias C = GroupTimeline.Command
    static let epoch = 1_790_000_000.0  // a wall-clock instant in 2026

    @Test func fromTheEpochTheShowStepsEveryIntervalAndGoesRound() {
        let t = GroupTimeline(epoch: Self.epoch, interval: 8)
        #expect(t.item(at: Self.epoch, count: 5) == 0)
        #expect(t.item(at: Self.epoch + 7.999, count: 5) == 0)
        #expect(t.item(at: Self.epoch + 8, count: 5) == 1, "the first step one interval in")
        #expect(t.item(at: Self.epoch + 8 * 7 + 1, count: 5) == 2, "round again")
        #expect(t.nextStep(after: Self.epoch + 3) == Self.epoch + 8)
        #expect(t.nextStep(after: Self.epoch + 8) == Self.epoch + 16, "a step's own instant is behind it")
        // A screen that joins an hour late computes the same item as one that was there.
        let late = GroupTimeline(epoch: Self.epoch, interval: 8)
        #expect(late.item(at: Self.epoch + 3_600.5, count: 5) == t.item(at: Self.epoch + 3_600.5, count: 5))
        #expect(t.item(at: Self.epoch, count: 0) == nil)
        #expect(GroupTimeline(epoch: Self.epoch, interval: nil).nextStep(after: Self.epoch) == nil)
    }

    @Test func aCommandFixesTheItemUntilTheIdleTimeThenTheShowStepsOn() {
        var t = GroupTimeline(epoch: Self.epoch, interval: 8)
        do { let applied = t.apply(C(time: Self.epoch + 20, screen: "b", action: .show(item: 4, idle: 30))); #expect(applied) }
        #expect(t.item(at: Self.epoch + 20, count: 10) == 4)
        #expect(t.item(at: Self.epoch + 57.9, count: 10) == 4)
        #expect(t.item(at: Self.epoch + 58, count: 10) == 5, "idle 30 s, then one interval")
        #expect(t.nextStep(after: Self.epoch + 21) == Self.epoch + 58)
        // Paused: held until play, then one interval on.
        do { let applied = t.apply(C(time: Self.epoch + 60, screen: "a", action: .pause(item: 5))); #expect(applied) }
        #expect(t.isPaused && t.nextStep(after: Self.epoch + 61) == nil && t.item(at: Self.epoch + 999, count: 10) == 5)
        do { let applied = t.apply(C(time: Self.epoch + 1_000, screen: "a", action: .play(item: 5))); #expect(applied) }
        #expect(!t.isPaused && t.item(at: Self.epoch + 1_008, count: 10) == 6)
    }

    @Test func theSameCommandsGiveTheSameShowInWhateverOrderTheyCame() {
        let commands = [C(time: Self.epoch + 10, screen: "b", action: .show(item: 3, idle: 5)),
                        C(time: Self.epoch + 10, screen: "a", action: .show(item: 7, idle: 5)),
                        C(time: Self.epoch + 9, screen: "c", action: .pause(item: 1))]
        var shows: Set<GroupTimeline> = []
        for order in [[0, 1, 2], [2, 1, 0], [1, 0, 2], [2, 0, 1]] {
            var t = GroupTimeline(epoch: Self.epoch, interval: 8)
            for i in order { t.apply(commands[i]) }
            shows.insert(t)
        }
        #expect(shows.count == 1)
        // At the same instant the later screen id wins: "b" over "a".
        #expect(shows.first?.item(at: Self.epoch + 11, count: 10) == 3)
        // One that comes after a later one was applied is superseded.
        var t = shows.first!
        do { let applied = t.apply(commands[2]); #expect(!applied) }
    }

    @Test func whatIsNotACommandIsRefused() {
        var t = GroupTimeline(epoch: Self.epoch, interval: 8)
        do { let applied = t.apply(C(time: .nan, screen: "a", action: .show(item: 1, idle: 0))); #expect(!applied) }
        do { let applied = t.apply(C(time: .infinity, screen: "a", action: .show(item: 1, idle: 0))); #expect(!applied) }
        do { let applied = t.apply(C(time: Self.epoch, screen: "a", action: .show(item: -1, idle: 0))); #expect(!applied) }
        do { let applied = t.apply(C(time: Self.epoch, screen: "a", action: .show(item: 1, idle: -5))); #expect(!applied) }
        #expect(t.last == nil && t.item(at: Self.epoch + 9, count: 3) == 1)
        #expect(GroupTimeline(epoch: Self.epoch, interval: -1).interval == nil)
    }
}

/// `--group` without a configured epoch: the screens agree on the earliest proposal, and a
/// screen with another show is told apart by its fingerprint.
@Suite struct GroupAgreementTests {
    @Test func everyScreenEndsOnTheEarliestEpochAndTheRetainedOneOnlyMovesEarlier() {
        // Three screens started at 100, 40 and 70 (seconds, say), each reading the retained
        // epoch when it subscribes, in the order they came.
        var retained: Double? = nil
        var held: [Double] = []
        for own in [100.0, 40, 70] {
            let epoch = GroupAgreement.epoch(own: own, seen: retained.map { [$0] } ?? [])
            if GroupAgreement.publishes(held: epoch, retained: retained) { retained = epoch }
            held.append(epoch)
        }
        #expect(retained == 40)
        // The first screen sees 40 published: it moves to it; the others are there already.
        held = held.map { GroupAgreement.epoch(own: $0, seen: [retained!]) }
        #expect(held == [40, 40, 40])
        #expect(!GroupAgreement.publishes(held: 40, retained: 40) && GroupAgreement.publishes(held: 39, retained: 40))
        #expect(GroupAgreement.epoch(own: 5, seen: [.nan, -.infinity]) == 5, "what is not an instant is not seen")
    }

    @Test func theFingerprintFollowsTheNamesInOrderAndTheIntervalNotTheFolders() {
        let a = GroupAgreement.fingerprint(names: ["a.jpg", "b.jpg"], interval: 8)
        #expect(a.count == 16 && a.allSatisfy(\.isHexDigit))
        #expect(a == GroupAgreement.fingerprint(names: ["a.jpg", "b.jpg"], interval: 8))
        #expect(a != GroupAgreement.fingerprint(names: ["b.jpg", "a.jpg"], interval: 8))
        #expect(a != GroupAgreement.fingerprint(names: ["a.jpgb.jpg"], interval: 8))
        #expect(a != GroupAgreement.fingerprint(names: ["a.jpg", "b.jpg"], interval: 10))
        #expect(a != GroupAgreement.fingerprint(names: ["a.jpg", "b.jpg"], interval: nil))
    }

    /// A group's order under --order fair or random: the same on every screen (from the group
    /// and the identities alone: other folders, other order of listing), a shuffle rather than
    /// the names' order, another for another group, and an item arriving moves no other.
    @Test func aGroupsSeededOrderIsTheSameOnEveryScreen() {
        let names = (0..<40).map { "IMG_\($0).jpg" }
        func order(_ root: String, _ names: [String], _ group: String) -> [String] {
            let identity = ShowIdentity(given: [root])
            let sources = names.map { ImageSource(path: root + "/" + $0) }
            return GroupAgreement.seededOrder(sources.map(identity.of), group: group).map { identity.of(sources[$0]) }
        }
        let a = order("/srv/a", names, "hall")
        let b = order("/media/usb", names.reversed(), "hall")
        #expect(a == b, "every screen the same")
        #expect(a != names && Set(a) == Set(names), "a shuffle of them all")
        #expect(order("/srv/a", names, "lobby") != a, "another group, another order")
        let grown = order("/srv/a", names + ["IMG_new.jpg"], "hall")
        #expect(grown.filter { $0 != "IMG_new.jpg" } == a, "an arrival moves no other")
    }

    /// Two Immich albums of the same length were one show (every picture's last path
    /// component is `thumbnail?size=preview`), and two folders whose files have the same names
    /// in other sub-folders were one too: an asset is its id, a web picture its URL, a file
    /// its path below the folder it was given by and its size.
    @Test func anItemIsItsImmichIdItsURLOrItsPathBelowItsFolder() {
        let server = "https://photos.example/api/assets/"
        let web = ShowIdentity(given: [])
        #expect(web.of(ImageSource(path: server + "0000-1/thumbnail?size=preview")) == "immich:0000-1")
        #expect(web.of(ImageSource(path: "http://10.0.0.2:2283/api/assets/0000-1/original")) == "immich:0000-1", "however the server is reached")
        #expect(web.of(ImageSource(path: server + "0000-2/video/playback#clip.mp4")) == "immich:0000-2")
        #expect(web.of(ImageSource(path: "https://example.com/show/a.jpg#x")) == "https://example.com/show/a.jpg")
        let one = [server + "0000-1/thumbnail?size=preview", server + "0000-2/thumbnail?size=preview"].map { ImageSource(path: $0) }
        let other = [server + "0000-3/thumbnail?size=preview", server + "0000-4/thumbnail?size=preview"].map { ImageSource(path: $0) }
        #expect(GroupAgreement.fingerprint(names: one.map(web.of), interval: 8)
                != GroupAgreement.fingerprint(names: other.map(web.of), interval: 8), "two albums of the same length differ")

        let stamp = FileStamp(size: 2_345_678, modified: 1)
        let here = ShowIdentity(given: ["/srv/photos/", "https://example.com/show.json"])
        let there = ShowIdentity(given: ["/media/usb/pictures"])
        #expect(here.of(ImageSource(path: "/srv/photos/2024/a.jpg", stamp: stamp)) == "2024/a.jpg 2345678")
        #expect(here.of(ImageSource(path: "/srv/photos/2024/a.jpg", stamp: stamp))
                == there.of(ImageSource(path: "/media/usb/pictures/2024/a.jpg", stamp: FileStamp(size: 2_345_678, modified: 99))),
                "the same picture mounted elsewhere and copied (another modification time)")
        #expect(here.of(ImageSource(path: "/srv/photos/2024/a.jpg", stamp: stamp))
                != there.of(ImageSource(path: "/media/usb/pictures/2025/a.jpg", stamp: stamp)), "another folder's a.jpg")
        #expect(here.of(ImageSource(path: "/srv/photos/2024/a.jpg", stamp: stamp))
                != there.of(ImageSource(path: "/media/usb/pictures/2024/a.jpg", stamp: FileStamp(size: 1_000, modified: 1))),
                "a file replaced under the same name")
        let manifest = ShowIdentity(given: ["/srv/show/wall.toml"])
        #expect(manifest.of(ImageSource(path: "/srv/show/lobby/b.png")) == "lobby/b.png", "below the manifest's folder")
        #expect(manifest.of(ImageSource(path: "/elsewhere/c.png")) == "c.png", "outside every folder: its name")
        #expect(ShowIdentity(given: ["/srv/one.jpg"]).of(ImageSource(path: "/srv/one.jpg")) == "one.jpg", "a file given by itself")
        #expect(ShowIdentity(given: ["/srv", "/srv/photos"]).of(ImageSource(path: "/srv/photos/x/d.jpg")) == "x/d.jpg",
                "the nearest folder given")
    }
}

extension GroupTimelineTests {
    @Test func sinceIsTheInstantTheShownItemBegan() {
        var t = GroupTimeline(epoch: Self.epoch, interval: 8)
        #expect(t.since(Self.epoch + 3) == Self.epoch)
        #expect(t.since(Self.epoch + 8) == Self.epoch + 8)
        #expect(t.since(Self.epoch + 23.5) == Self.epoch + 16)
        t.apply(C(time: Self.epoch + 30, screen: "a", action: .show(item: 2, idle: 10)))
        #expect(t.since(Self.epoch + 31) == Self.epoch + 30, "the command's instant")
        #expect(t.since(Self.epoch + 49) == Self.epoch + 48, "idle 10, then one interval")
        t.apply(C(time: Self.epoch + 50, screen: "a", action: .pause(item: 3)))
        #expect(t.since(Self.epoch + 500) == Self.epoch + 50)
    }
}
