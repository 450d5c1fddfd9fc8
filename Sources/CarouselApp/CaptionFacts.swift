import CarouselCore
import CarouselMedia

/// What `--caption-format` may say of each picture: its listing's facts, and what its own
/// file says (when and where it was taken), read the first time the strip rests on it
/// (a head of at most 64 KB), never while it moves, and kept for 4,096 pictures. A place
/// waits for GeoNames' tables (`PlaceLookup`, read on a thread of its own): until they
/// are in, a local picture's caption has no place and is asked again at the next rest.
/// Main thread.
final class CaptionFacts {
    private struct Read {
        var date: PhotoDate?
        /// Where its file's GPS says it was taken; nil: not known yet. A listed place is
        /// taken from the listing as it is now, not kept here (a manifest edited gives another).
        var place: String??
    }

    private var read: [String: Read] = [:]
    private let places: PlaceLookup?
    /// `carousel render`: the place tables are waited for (every frame the same).
    private let waits: Bool

    init(places: PlaceLookup?, waits: Bool) {
        self.places = places
        self.waits = waits
    }

    /// `source`'s facts; `atRest`: its file may be read now.
    func of(_ source: ImageSource, atRest: Bool, template: CaptionTemplate) -> CaptionTemplate.Facts {
        var known = read[source.path]
        if atRest, known == nil || known?.place == nil {
            if read.count >= 4096 { read.removeAll() }
            var r = known ?? Read(date: PhotoDate.of(source), place: nil)
            if let places, template.says(.place) {
                if waits { places.waitUntilRead() }
                let place = places.place(of: ImageSource(path: source.path, stamp: source.stamp))
                // None while the tables are still read: asked again at the next rest.
                if place != nil || !places.pending { r.place = .some(place) }
            } else {
                r.place = .some(nil)
            }
            read[source.path] = r
            known = r
        }
        let file = source.path.split(separator: "/").last.map(String.init) ?? source.path
        let taken = known?.date
        return CaptionTemplate.Facts(title: source.title, caption: source.caption, file: file,
                                     date: taken.map { date in { date.formatted($0) } },
                                     place: source.place ?? (known?.place ?? nil), people: source.people)
    }
}
