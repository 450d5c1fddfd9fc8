import CarouselMedia
import ArgumentParser

/// How a view's images are loaded: the workers, how far ahead, reshuffling, waiting.
public struct ImageLoading {
    public var workers: DecodeWorkers
    /// Items prefetched beyond each end of the slot pool.
    public var prefetch: Int
    /// `--order random`: reshuffle the images off screen at each new pass.
    public var reshufflesEachPass = false
    /// `--order fair`: the round the show walks (kept as it rests, a new one each pass).
    var fairRound: FairRoundFile?
    /// `carousel render`: every update waits until each slot of the pool has its image
    /// or its failure, so frames and events never depend on how fast the workers were.
    public var waitsForImages = false
    /// Workers that decode cached thumbnails, shown while pictures decode at full size
    /// (the carousel, where a thumbnail cache is in use); nil: placeholders show.
    public var previews: DecodeWorkers?
    /// A worker that decodes parts of pictures, the sharp detail of a zoom (the carousel);
    /// nil for a view that does not zoom.
    public var detail: DecodeWorkers?
    /// The file holding a source's bytes: its path, or a web picture's cached copy
    /// (downloaded first; nil when it cannot be had). The wall reads sizes through it.
    public var locate: @Sendable (String) -> String? = { $0 }
    /// `--broken skip`: failures go here and the slot keeps its plain placeholder until the
    /// view leaves the picture out; nil (`--broken show`): the labelled failed placeholder.
    public var broken: BrokenPictures?
    /// How the centred clip plays (its own video helper, waking the loop as frames come);
    /// nil: clips show their poster only (a wall's tiles, the bench).
    public var clips: ClipPlaying?
    /// What was said of broken pictures, shared by the views of a show (`PictureReports`).
    public var reports = PictureReports()
    /// Where `{place}` of a local picture comes from (its GPS, named by GeoNames' tables),
    /// shared by the views of a show; nil: listed places only.
    public var places: PlaceLookup?
}

/// What a view needs to play a clip: the helpers' settings and the loop's wake-up.
public struct ClipPlaying: Sendable {
    public var settings: IsolatedDecoder.Settings
    public var wake: @Sendable () -> Void
    /// Under autoplay, the longest a clip holds the show, seconds (`--video-max`); nil: to its end.
    public var maxSeconds: Double?
    /// What a Motion Photo's clip does when the carousel arrives on it (`--motion`).
    public var motion: MotionPlay
    /// A clip's sound plays too (`--audio`); a picture's own motion stays silent.
    public var sound = false
    /// In a group with autoplay (`--group`, whose timeline steps the show instead of the
    /// view's autoplay): a clip plays once and holds the group's show until its end, its
    /// frames timed from the instant the strip came to rest on it, on every screen alike.
    public var holdsGroup = false
    /// The file a clip's source plays from: a file's own path, a web clip's cached copy once
    /// it is downloaded whole (its poster's decode fetched it), nil until then. Never waits.
    public var localFile: @Sendable (String) -> String? = { $0 }

    public init(settings: IsolatedDecoder.Settings, wake: @escaping @Sendable () -> Void, maxSeconds: Double? = nil,
                motion: MotionPlay = .once) {
        self.settings = settings
        self.wake = wake
        self.maxSeconds = maxSeconds
        self.motion = motion
    }
}

/// A Motion Photo's clip on arrival (`--motion`): played once, then the still stays; played
/// over and over while the carousel rests there; or never.
public enum MotionPlay: String, Sendable, CaseIterable, ExpressibleByArgument {
    case once, loop, off
}
