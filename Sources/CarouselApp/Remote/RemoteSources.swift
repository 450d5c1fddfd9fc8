import CarouselMedia
import CarouselSDL
import Foundation
import CarouselClock
import CarouselCore
import CarouselSources

/// The download library of this process, made the first time a source is a web URL and
/// kept for the whole run (a SIGHUP reload with the same cache folder keeps it, its cache
/// and its polls). When its items change it wakes the run loop as a folder change does,
/// and the catalog is read again; its events go to the event log once one is attached.
enum RemoteSources {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var libraries: [String: RemoteLibrary] = [:]
    nonisolated(unsafe) private static var sink: (@Sendable (String, [(String, String)], Double) -> Void)?
    /// Events from before a log was attached (the first poll runs while the sources are
    /// scanned, before the screen is up), with their times: written when one is.
    nonisolated(unsafe) private static var early: [(type: String, fields: [(String, String)], time: Double)] = []

    /// `order`: a WebDAV folder's files, as a local folder's.
    static func library(_ options: RemoteOptions, order: SourceScanner.Order = .name) -> RemoteLibrary {
        var settings = options.librarySettings
        settings.order = order
        return lock.withLock {
            if let made = libraries[settings.cacheFolder] { return made }
            let made = RemoteLibrary(settings: settings, warn: { Log.warn($0) },
                                     changed: { WakeReason.foldersChanged.post() },
                                     event: { type, fields in RemoteSources.record(type, fields) })
            libraries[settings.cacheFolder] = made
            return made
        }
    }

    /// Logs `line` unless a library already said it: the views' failure lines go through
    /// here, so a picture whose download failed is not said again when shown as failed.
    static func warnUnlessSaid(_ line: String) {
        let all = lock.withLock { Array(libraries.values) }
        guard !all.contains(where: { $0.hasSaid(line) }) else { return }
        Log.warn(line)
    }

    /// Every web source of the run: URL, state, when its server last answered.
    static var sourceReport: [(url: String, state: String, lastSuccess: Double?)] {
        lock.withLock { Array(libraries.values) }.flatMap(\.sourceReport)
    }

    /// The library for `options` if one was made, without making one.
    static func existingLibrary(_ options: RemoteOptions) -> RemoteLibrary? {
        let folder = options.librarySettings.cacheFolder
        return lock.withLock { libraries[folder] }
    }

    /// Sends the libraries' events (`download_failed`, `source_status`) to `log`, timed from
    /// `origin` on the event queue's clock.
    static func report(to log: EventLog?, timeOrigin origin: Double) {
        guard let log else { return }
        let sink: @Sendable (String, [(String, String)], Double) -> Void = { type, fields, time in
            log.record(timeMs: max(0, Int(((time - origin) * 1000).rounded())), type: type, fields.map { ($0.0, .string($0.1)) })
        }
        let waiting = lock.withLock {
            defer { early = []; Self.sink = sink }
            return early
        }
        for e in waiting { sink(e.type, e.fields, e.time) }
    }

    private static func record(_ type: String, _ fields: [(String, String)]) {
        let time = LoopClock.system.now()
        let sink = lock.withLock {
            if Self.sink == nil && early.count < 200 { early.append((type, fields, time)) }
            return Self.sink
        }
        sink?(type, fields, time)
    }
}
