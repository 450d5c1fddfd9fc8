import ArgumentParser
import CarouselCore
import CarouselMedia
import CarouselSDL

/// `--broken`: what a picture that cannot be shown does on screen.
public enum BrokenMode: String, ExpressibleByArgument, CaseIterable, Sendable {
    /// Its labelled placeholder shows (an integrator previewing in a window sees what is broken).
    case show
    /// It is left out of every view as if it were not there (a public screen).
    case skip
}

/// `--broken skip`: the pictures that failed to decode or download, left out of the
/// carousel and the wall until their file changes (a new size or time: tried again). The
/// failure is still logged (`load_failed`, one line); leaving the picture out is a change
/// of the catalogue like a file deleted, logged as `catalog_changed`, so indices in later
/// events are those of what shows. A web picture whose download failed has no stamp: it is
/// tried again when the manifest changes or the program reloads. Main thread only.
public final class BrokenPictures {
    /// Each broken picture's path and the version of its file that failed.
    private var failed: [String: FileStamp?] = [:]
    /// A picture failed since `takeNews`: the views should leave it out.
    private var news = false

    public init() {}

    /// How many pictures are left out now.
    public var count: Int { failed.count }

    /// `source` failed: from now on it is left out.
    public func record(_ source: ImageSource) {
        if failed.updateValue(source.stamp, forKey: source.path) == nil { news = true }
    }

    /// Whether a picture failed since the last call.
    public func takeNews() -> Bool {
        defer { news = false }
        return news
    }

    /// `sources` without the broken pictures. A file that changed since it failed is let
    /// in again (and forgotten): its new version is tried.
    public func admit(_ sources: [ImageSource]) -> [ImageSource] {
        guard !failed.isEmpty else { return sources }
        return sources.filter { source in
            guard let stamp = failed[source.path] else { return true }
            if stamp != source.stamp {
                failed[source.path] = nil
                return true
            }
            return false
        }
    }

    /// What the screen says when every picture is broken.
    public func emptyMessage(otherwise message: String) -> String {
        guard !failed.isEmpty else { return message }
        return failed.count == 1 ? "The only picture cannot be shown (see the log)"
                                 : "None of the \(failed.count) pictures can be shown (see the log)"
    }
}

extension BrokenPictures {
    /// Leaves the pictures that failed since the last call out of `scene`; call it at rest
    /// (the change moves what is on screen). Whether the scene changed.
    @discardableResult
    func leaveOut(of scene: any ShownView, time: Double, otherwise message: String) throws(SDLError) -> Bool {
        guard takeNews() else { return false }
        let kept = admit(scene.sources)
        guard kept != scene.sources else { return false }
        try scene.apply(.catalog(kept, time: time))
        if kept.isEmpty { try scene.apply(.emptyMessage(emptyMessage(otherwise: message))) }
        return true
    }
}
