import CarouselCore
import CarouselMedia
import Synchronization

/// `--skip screenshots`: the pictures of folders and manifests left out of the show because
/// of what they are (`ScreenshotRule`), each said once in the log with why, and how many the
/// last scan left out (`/status`'s `pictures_skipped`). Any thread.
public enum SkippedPictures {
    private static let state = Mutex<(said: Set<String>, count: Int)>(([], 0))

    /// How many pictures the last scan left out.
    public static var count: Int { state.withLock { $0.count } }

    /// `found` without its screenshots; `note` hears each one left out, once per file.
    public static func leavingOutScreenshots(_ found: [ImageSource], note: (String) -> Void) -> [ImageSource] {
        var kept: [ImageSource] = [], left: [(String, String)] = []
        for source in found {
            if let reason = ScreenshotRule.reason(for: source) { left.append((source.path, reason)) } else { kept.append(source) }
        }
        let new = state.withLock { s -> [(String, String)] in
            s.count = left.count
            return left.filter { s.said.insert($0.0).inserted }
        }
        for (path, reason) in new { note("\(path): left out (--skip screenshots): \(reason)") }
        return kept
    }
}
