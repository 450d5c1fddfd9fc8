import Foundation
import Testing
import Glibc
@testable import CarouselMedia
@testable import CarouselSources

/// Whether this process may mount a file system: root outside a restricted container.
let canMount: Bool = {
    guard geteuid() == 0, let point = try? MediaFixtures.folder("can-mount") else { return false }
    guard mount("none", point, "tmpfs", 0, "size=64k") == 0 else { return false }
    umount2(point, 0)
    return true
}()

/// What the watcher can see, and the changes inotify alone would miss.
@Suite struct FolderWatcherTests {
    final class Wakes: @unchecked Sendable {
        let semaphore = DispatchSemaphore(value: 0)
        func wait(_ seconds: Double) -> Bool { semaphore.wait(timeout: .now() + seconds) == .success }
    }

    @Test func itSaysWhichFoldersItCannotSee() throws {
        let local = try MediaFixtures.folder("watch-local")
        let share = try MediaFixtures.folder("watch-share")
        let gone = local + "/not-there"
        let watcher = try #require(FolderWatcher(isRemote: { $0 == share }) {})
        #expect(watcher.watch([local, share, gone]) == [share, gone])
        #expect(watcher.watch([local]) == [], "a local folder is seen by inotify")
    }

    @Test func aLocalFolderIsNotRemote() throws {
        #expect(!RemoteFileSystem.holds(try MediaFixtures.folder("watch-kind")))
        #expect(!RemoteFileSystem.holds("/dev/shm"))
        #expect(!RemoteFileSystem.holds("/no/such/folder"), "what cannot be told is not remote")
    }

    /// A USB stick mounted on a watched, empty folder makes no inotify event in that
    /// folder; the mount table's change must wake the caller all the same.
    @Test(.enabled(if: canMount, "mounting a file system needs root (CAP_SYS_ADMIN)"))
    func aFileSystemMountedOverAWatchedFolderIsAChange() throws {
        let point = try MediaFixtures.folder("watch-mount")
        let wakes = Wakes()
        let watcher = try #require(FolderWatcher(debounce: 0.1) { wakes.semaphore.signal() })
        watcher.watch([point])
        #expect(!wakes.wait(0.5), "nothing has changed yet")
        try #require(mount("none", point, "tmpfs", 0, "size=1m") == 0, "mount: \(String(cString: strerror(errno)))")
        defer { umount2(point, Int32(MNT_DETACH)) }
        #expect(wakes.wait(5), "the mount was not reported")
        umount2(point, 0)
        #expect(wakes.wait(5), "the unmount was not reported")
    }
}
