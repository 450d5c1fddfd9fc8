import CarouselCore
import Foundation

/// Where a picture was taken, in words, for `{place}`: its listing's place (Immich's city
/// and country, a manifest's `place`), else the place its own file's GPS coordinates fall
/// in (`PhotoLocation`, named by GeoNames' tables: `PlaceNames`). The tables (5 MB, ~40 ms
/// to read in a release build) are read once, on a thread of their own, only when a
/// caption asks for places; until they are in, a local picture has no place yet.
public final class PlaceLookup: @unchecked Sendable {
    /// Debian's `libtimezonemap-data`: GeoNames' cities of 15,000 people or more.
    public static let defaultTable = "/usr/share/libtimezonemap/ui/cities15000.txt"

    private enum State {
        case idle
        case loading
        case ready(PlaceNames)
        case unavailable
    }

    private let path: String
    private let lock = NSLock()
    private let loaded = DispatchGroup()
    private var state = State.idle
    private let say: @Sendable (String) -> Void

    /// `path`: the cities table (`--place-names`); `say`: where its one line goes when it
    /// cannot be read.
    public init(path: String = PlaceLookup.defaultTable, say: @escaping @Sendable (String) -> Void) {
        self.path = path
        self.say = say
    }

    /// Begins reading the tables, once.
    public func start() {
        lock.lock()
        guard case .idle = state else { lock.unlock(); return }
        state = .loading
        loaded.enter()
        lock.unlock()
        let (path, say) = (path, say)
        DispatchQueue.global(qos: .utility).async { [self] in
            let outcome: State
            do {
                outcome = .ready(try PlaceNames.load(path: path))
            } catch {
                say("captions: {place} of local pictures needs GeoNames' cities table: \(error) "
                    + "(apt install libtimezonemap-data, or --place-names FILE); listed places still show")
                outcome = .unavailable
            }
            lock.lock()
            state = outcome
            lock.unlock()
            loaded.leave()
        }
    }

    /// Starts the reading if need be and waits for it (`carousel render`: every frame the same).
    public func waitUntilRead() {
        start()
        loaded.wait()
    }

    /// The tables, once read; nil while they are read, or when they cannot be.
    public var names: PlaceNames? {
        lock.lock()
        defer { lock.unlock() }
        if case .ready(let names) = state { return names }
        return nil
    }

    /// Whether an answer for a file without a listed place may still come (the tables are
    /// being read): a caller keeps asking rather than remembering none.
    public var pending: Bool {
        lock.lock()
        defer { lock.unlock() }
        switch state {
        case .idle, .loading: return true
        case .ready, .unavailable: return false
        }
    }

    /// `source`'s place: listed, else from its file's coordinates (read once per stamp).
    public func place(of source: ImageSource) -> String? {
        if let listed = source.place, !listed.isEmpty { return listed }
        start()
        guard let names, let location = PhotoLocation.of(source) else { return nil }
        return names.name(of: location)
    }
}
