/// What was said of the pictures that cannot be shown (`load_failed`) or show with a note
/// (`load_note`): each file once, across every view of a show. A wall and the carousel it
/// opens decode the same broken file each, and share one of these, so it is said once.
/// Main thread.
public final class PictureReports {
    private var failed: Set<String> = []
    private var noted: Set<String> = []

    public init() {}

    /// Whether `path`'s failure is said now (the first time).
    func firstFailure(of path: String) -> Bool { failed.insert(path).inserted }

    /// Whether `path`'s note is said now (the first time).
    func firstNote(of path: String) -> Bool { noted.insert(path).inserted }
}
