import Foundation

/// The one folder under which this test process makes its folders:
/// `$TMPDIR/carousel-tests/<pid>`, removed when the process ends. Folders left by test
/// processes that died (a crash, a SIGKILL) are removed by the next test process.
public enum ScratchRoot {
    public static let path: String = {
        let parent = NSTemporaryDirectory() + "carousel-tests"
        let files = FileManager.default
        for name in (try? files.contentsOfDirectory(atPath: parent)) ?? [] {
            if let pid = Int32(name), kill(pid, 0) != 0, errno == ESRCH {
                try? files.removeItem(atPath: parent + "/" + name)
            }
        }
        let path = parent + "/\(getpid())"
        try? files.createDirectory(atPath: path, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(atPath: ScratchRoot.path) }
        return path
    }()
}
