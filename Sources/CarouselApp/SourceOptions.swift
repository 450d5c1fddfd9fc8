import ArgumentParser
import CarouselCore
import CarouselMedia
import Foundation
import CarouselSources

/// Order of the images when no manifest gives one.
public enum SourceOrder: String, ExpressibleByArgument, CaseIterable, Sendable {
    case name, mtime, random, fair
}

/// Where the images come from and how they are loaded: shared by every command that shows them.
public struct SourceOptions: ParsableArguments, Sendable {
    @Argument(help: "Image files, folders and .toml manifests (default: the bundled demo images).")
    public var paths: [String] = []

    @Flag(inversion: .prefixedNo, help: "Descend into sub-folders (symbolic links followed, loops detected).")
    public var recursive = false

    @Option(help: "Order without a manifest: name (natural order), mtime (oldest first), random (reshuffled each pass) or fair (every picture once before any repeats, the round kept across restarts). Default: fair with --autoplay, else name.")
    public var order: SourceOrder?

    @Option(help: ArgumentHelp("With --order fair, bring earlier in each round the pictures taken within the last year (recent) and within three weeks of today's date in earlier years (season), by weight W from 1 to 10 (3: before any other three times in four); each still once a round.", valueName: "recent:W,season:W"))
    public var prefer: String?

    @Option(help: ArgumentHelp("Refuse images larger than this, judged from the file's header.", valueName: "MP"))
    public var maxMegapixels: Double = 100

    @Option(help: ArgumentHelp("Images decoded ahead beyond each end of the slot pool.", valueName: "N"))
    public var prefetch: Int = 2

    @Option(help: ArgumentHelp("A picture still decoding after SECONDS is shown as failed and its decoder process replaced.", valueName: "SECONDS"))
    public var decodeTimeout: Double = 10

    @Option(help: ArgumentHelp("Memory limit of each decoder process (address space), in MB; a picture needing more is shown as failed. Default: a quarter of this machine's memory, from \(DecodeMemory.floorMB) to \(DecodeMemory.ceilingMB).", valueName: "MB"))
    public var decodeMemory: Int = DecodeMemory.defaultLimitMB

    @Option(help: ArgumentHelp("Which decoders play video clips: auto takes a hardware decoder where the machine has one (V4L2 on a Raspberry Pi, VA-API on Intel and AMD), else software; software never a hardware one; a GStreamer decoder's name (v4l2h264dec, v4l2slh265dec, vah265dec, avdec_h264) puts that one first wherever it can play the clip. Each clip's log line names its decoder.", valueName: "auto|software|NAME"))
    public var videoDecoder: VideoDecoders = .auto

    @Option(help: ArgumentHelp("Whether decoder processes may decode without their system-call filter (seccomp), on a machine that cannot install it: required refuses them, so nothing is decoded there and one line says why; optional lets them, with their other limits, and says so once.", valueName: "required|optional"))
    public var decoderFilter: DecoderFilter = .required

    @Option(help: ArgumentHelp("With --autoplay, a clip holds the show until it ends, or for at most SECONDS; then the show moves on.", valueName: "SECONDS"))
    public var videoMax: Double?

    @Flag(help: "Play the sound of the clip in the centre (its first sound stream, through the sound output SDL finds: PipeWire, PulseAudio or ALSA); its picture then keeps to the sound. Motion Photos, Live Photos and animations stay silent. Default: clips play muted.")
    public var audio = false

    @Option(help: ArgumentHelp("A Motion Photo's clip when the carousel arrives on it: once (then the still stays), loop, or off (the still only; animated GIFs and WebPs stay still too).", valueName: "once|loop|off"))
    public var motion: MotionPlay = .once

    @Option(help: ArgumentHelp("Where the walls (mosaic, grid) keep their thumbnails: a folder, or none. Default: the freedesktop folder ($XDG_CACHE_HOME/thumbnails, shared with file managers); carousel render uses none unless given.", valueName: "none|DIR"))
    public var thumbnailCache: String?

    @Option(help: ArgumentHelp("A picture that cannot be shown: skip leaves it out as if it were not there (tried again when its file changes), show shows a labelled placeholder. Default: skip with --kiosk, else show.", valueName: "show|skip"))
    public var broken: BrokenMode?

    @Option(help: ArgumentHelp("The screen's ICC profile (a calibrated screen): pictures are converted to it instead of sRGB.", valueName: "FILE"))
    public var displayProfile: String?

    @Option(help: ArgumentHelp("Only pictures and clips taken in these days, as their files say (EXIF, a clip's creation date): FROM..TO, each YYYY, YYYY-MM or YYYY-MM-DD, one end may be left open (2019.., ..2015-06, 2024-07-01..2024-07-31), or one of them alone (2019, 2024-07). Files that say no date stay out; Immich's pictures and manifest items with 'taken' are judged by their listed date, other web pictures not at all.", valueName: "FROM..TO"))
    public var taken: String?

    @Option(help: ArgumentHelp("Leave these kinds of picture out of the show: screenshots (told by their EXIF's comment, their name or folder, a screen grabber's name, or a PNG or HEIC without a camera at a screen's exact size; each said once in the log, counted in /status).", valueName: "screenshots"))
    public var skip: String?

    @Flag(help: "Two portrait pictures side by side on a landscape screen (two landscape ones one above the other on a portrait screen), as one item: partners taken the same day first, else close in time, from the next few such pictures; the show keeps its order otherwise. Pictures in folders and manifests (their headers read once); clips and web pictures stay on their own.")
    public var pairPortraits = false

    @Option(help: ArgumentHelp("GeoNames' cities table, which names where local pictures and clips were taken (their GPS) for a caption's {place}: the nearest city within 25 km, else its region within 150 km, with the country; admin1Codes.txt and countryInfo.txt are read from beside it. Default: \(PlaceLookup.defaultTable) (Debian's libtimezonemap-data).", valueName: "FILE"))
    public var placeNames: String?

    @Flag(help: "Only pictures and clips taken on today's date in earlier years, as their files say (the whole show when there are none, said once); it changes at midnight. Immich's own: --immich-memories.")
    public var onThisDay = false

    @OptionGroup public var remote: RemoteOptions

    public init() {}

    public func validate() throws {
        if let t = thumbnailCache, t != "none", t.isEmpty { throw ValidationError("--thumbnail-cache must be none or a folder") }
        if !(maxMegapixels > 0) { throw ValidationError("--max-megapixels must be more than 0, not \(maxMegapixels)") }
        if prefetch < 0 || prefetch > 50 { throw ValidationError("--prefetch must be 0 to 50, not \(prefetch)") }
        if let prefer {
            guard order == .fair || order == nil else { throw ValidationError("--prefer weighs --order fair's rounds, not --order \(order?.rawValue ?? "")") }
            do { _ = try FairPreference(parsing: prefer) } catch { throw ValidationError("--prefer \(prefer): \(error.reason)") }
        }
        if let videoMax, !(videoMax >= 1 && videoMax <= 86400) {
            throw ValidationError("--video-max must be 1 to 86400 seconds, not \(videoMax)")
        }
        if !(decodeTimeout >= 0.1 && decodeTimeout <= 3600) {
            throw ValidationError("--decode-timeout must be 0.1 to 3600 seconds, not \(decodeTimeout)")
        }
        if decodeMemory < 128 || decodeMemory > 65536 {
            throw ValidationError("--decode-memory must be 128 to 65536 MB, not \(decodeMemory)")
        }
        for path in paths where DAVSource.isDAV(path) {
            do { _ = try DAVSource(path) } catch { throw ValidationError(error.description) }
        }
        if let t = taken {
            do { _ = try TakenFilter(parsingRange: t) } catch { throw ValidationError("--taken '\(t)': \(error)") }
        }
        if let skip {
            for kind in skip.split(separator: ",", omittingEmptySubsequences: false).map({ $0.trimmingCharacters(in: .whitespaces) }) where kind != "screenshots" {
                throw ValidationError(kind == "bursts" ? "--skip '\(skip)': bursts cannot be left out yet; screenshots can"
                                                       : "--skip '\(skip)': '\(kind)' is not a kind of picture to leave out (screenshots)")
            }
        }
        if let file = displayProfile {
            let bytes: [UInt8]
            guard FileManager.default.fileExists(atPath: file) else { throw ValidationError("--display-profile \(file) does not exist") }
            do { bytes = try ImageFile.read(file) } catch { throw ValidationError("--display-profile \(file) \(error.reason)") }
            if let problem = ColourConverter.checkDisplayProfile(bytes) {
                throw ValidationError("--display-profile \(file) \(problem)")
            }
        }
        if let file = placeNames, !FileManager.default.fileExists(atPath: file) {
            throw ValidationError("--place-names \(file) does not exist")
        }
    }

    /// What the window says when the sources hold no images: the web sources that have not
    /// answered yet are waited for; once every one has, an empty list is said as a folder's is.
    public var emptyMessage: String {
        let library = RemoteSources.existingLibrary(remote)
        let waiting = (paths.filter(RemoteURL.isRemote) + (remote.immichSource.map { [$0.sourceURL] } ?? [])).filter { url in
            guard let library else { return true }
            let expanded = (try? RemoteURL.expand(url, hostname: RemoteURL.hostname, machineID: RemoteURL.machineID)) ?? url
            return library.state(of: expanded) == .waiting
        }
        if !waiting.isEmpty { return "Waiting for pictures from " + waiting.joined(separator: ", ") }
        return "No images found in " + (paths.isEmpty ? "the bundled Assets/ folder" : paths.joined(separator: ", "))
    }

    /// These options as config-file entries, for `--print-config`.
    var configEntries: [ConfigEntry] {
        [.init(ConfigFile.sourcesKey, paths.isEmpty ? nil : .strings(paths), unset: "the bundled demo images"),
         .init("recursive", .bool(recursive)), .init("order", order.map { .string($0.rawValue) }, unset: "fair with autoplay, else name"),
         .init("prefer", prefer.map { .string($0) }, unset: "none"),
         .init("max-megapixels", .number(maxMegapixels)), .init("prefetch", .number(Double(prefetch))),
         .init("decode-timeout", .number(decodeTimeout)), .init("decode-memory", .number(Double(decodeMemory))),
         .init("video-decoder", .string(videoDecoder.rawValue)), .init("decoder-filter", .string(decoderFilter.rawValue)),
         .init("video-max", videoMax.map { .number($0) }, unset: "a clip holds the show to its end"),
         .init("audio", .bool(audio)), .init("motion", .string(motion.rawValue)),
         .init("thumbnail-cache", thumbnailCache.map { .string($0) }, unset: "the freedesktop folder"),
         .init("display-profile", displayProfile.map { .string($0) }, unset: "sRGB"),
         .init("broken", broken.map { .string($0.rawValue) }, unset: "skip with --kiosk, else show"),
         .init("taken", taken.map { .string($0) }, unset: "any day"), .init("on-this-day", .bool(onThisDay)),
         .init("skip", skip.map { .string($0) }, unset: "nothing"), .init("pair-portraits", .bool(pairPortraits)),
         .init("place-names", .string(placeNames ?? PlaceLookup.defaultTable))] + remote.configEntries
    }

    /// The order asked for, else the default: fair when the show plays by itself (`--autoplay`:
    /// a frame on its own shows every picture once before any repeats, issue 60), name when
    /// someone steps it. A command that shows sources settles it once its options are read.
    public mutating func settleOrder(autoplay: Bool) throws {
        if order == nil { order = autoplay ? .fair : .name }
        if prefer != nil, order != .fair {
            throw ValidationError("--prefer weighs --order fair's rounds (the default with --autoplay): give --order fair or --autoplay")
        }
    }

    /// In a group, `--order fair` and `random` are the group's seeded order (`ShowOrderSeed`):
    /// the group's name then; nil otherwise.
    var seededGroup: String? { order == .fair || order == .random ? ShowOrderSeed.group : nil }

    /// How a group names this show's items (`ShowIdentity`): below the folders given.
    var showIdentity: ShowIdentity { ShowIdentity(given: paths) }

    /// `--order fair`'s round, kept for this show (named by its paths and its Immich
    /// selection); nil in another order.
    var fairRound: FairRoundFile? {
        guard order == .fair, seededGroup == nil else { return nil }
        let immich = remote.immichSource.map { "\($0.sourceURL) \($0.selection)" } ?? ""
        let file = FairRoundFile.shared(key: (paths + [immich]).joined(separator: "\n"))
        file.prefer = prefer.flatMap { try? FairPreference(parsing: $0) }
        return file
    }

    /// `--taken` and `--on-this-day`; nil with neither.
    var takenFilter: TakenFilter? {
        guard taken != nil || onThisDay else { return nil }
        var filter = taken.flatMap { try? TakenFilter(parsingRange: $0) } ?? TakenFilter()
        filter.onThisDay = onThisDay
        return filter
    }

    /// The images to show, in order; the bundled demo when no paths are given.
    public func resolve() throws -> [ImageSource] { try resolveAll().sources }

    /// `resolve` after asking each web source once: what `carousel render` shows.
    func resolveWaitingForWeb() throws -> [ImageSource] {
        var found = try scan(waitForWeb: true, note: { Log.info($0) }).sources
        if let seededGroup { return ShowOrderSeed.arrange(found, group: seededGroup, identity: showIdentity) }
        if order == .random { found.shuffle() }
        if let fairRound { found = fairRound.arrange(found) }
        return found
    }

    /// `resolve`, also telling which folders to watch.
    /// - Parameters:
    ///   - tolerant: a path that is not there holds no images instead of being an error.
    ///   - note: hears each file skipped and why; logged by default.
    /// - Parameter pairs: the screen `--pair-portraits` pairs for (nil: no pairs).
    func resolveAll(tolerant: Bool = false, pairs: PortraitPairs.Screen? = nil, note: (String) -> Void = { Log.info($0) }) throws -> SourceScanner.Result {
        var found = try scan(tolerant: tolerant, pairs: pairs, note: note)
        if let seededGroup {
            found.sources = ShowOrderSeed.arrange(found.sources, group: seededGroup, identity: showIdentity)
            return found
        }
        if order == .random { found.sources.shuffle() }
        if let fairRound { found.sources = fairRound.arrange(found.sources) }
        return found
    }

    /// The sources' images in name or time order (never shuffled) and the folders to watch.
    /// - Parameter tolerant: a path that is gone holds no images instead of being an error.
    /// - Parameter waitForWeb: web sources are asked once before the scan (render), instead
    ///   of listing what is cached and coming in as they answer. Without it, a web source
    ///   with nothing cached is still given 2 s to answer: a kiosk started with its server
    ///   up shows its pictures rather than "Waiting for" and then its pictures.
    /// - Parameter pairs: the screen `--pair-portraits` pairs for (nil: no pairs).
    func scan(tolerant: Bool = false, waitForWeb: Bool = false, pairs: PortraitPairs.Screen? = nil,
              note: (String) -> Void) throws -> SourceScanner.Result {
        var given = paths
        // An Immich library is a web source of its own, listed through its API.
        if let immich = remote.immichSource { given.append(immich.sourceURL) }
        if given.isEmpty {
            guard let assets = BundledAssets.folder() else {
                throw Failure("no images given and the bundled Assets/ folder was not found; pass image files or folders")
            }
            given = [assets + "/manifest.toml"]
        }
        var scanner = SourceScanner()
        if let library = remoteLibrary {
            given = try given.map { path in
                guard RemoteURL.isRemote(path) else { return path }
                do { return try RemoteURL.expand(path, hostname: RemoteURL.hostname, machineID: RemoteURL.machineID) }
                catch { throw Failure("\(error)") }
            }
            library.waitUntilPolled(given.filter(RemoteURL.isRemote), within: waitForWeb ? 60 : 2, onlyUncached: !waitForWeb)
            scanner.remote = { library.items(of: $0) }
        }
        scanner.recursive = recursive
        scanner.taken = takenFilter
        scanner.skipsScreenshots = skip != nil
        scanner.order = order == .mtime ? .modificationTime : .name
        scanner.missingIsEmpty = tolerant
        var found: SourceScanner.Result
        do { found = try scanner.scanAll(given, note: note) } catch { throw Failure(error.description) }
        if let pairs { found.sources = PortraitPairing.pair(found.sources, screen: pairs) }
        return found
    }

    /// The screen `--pair-portraits` pairs for on a screen of `viewport`; nil without it.
    public func pairs(on viewport: Size) -> PortraitPairs.Screen? {
        pairPortraits ? PortraitPairs.Screen(viewport) : nil
    }

    /// The download library, when a source is a web URL.
    var remoteLibrary: RemoteLibrary? {
        paths.contains(where: RemoteURL.isRemote) || remote.immich != nil
            ? RemoteSources.library(remote, order: order == .mtime ? .modificationTime : .name) : nil
    }

    /// The thumbnail cache these options ask for: `--thumbnail-cache DIR`, none, or the
    /// freedesktop folder when `standardByDefault` (the window; render stays deterministic).
    public func thumbnails(standardByDefault: Bool) -> ThumbnailCache? {
        let directory: String?
        switch thumbnailCache {
        case "none": directory = nil
        case let given?: directory = given
        case nil: directory = standardByDefault ? ThumbnailCache.standardDirectory() : nil
        }
        return directory.map { ThumbnailCache(directory: $0, warn: { Log.warn($0) }) }
    }

    /// How the decoder helpers run, as these options ask. `CAROUSEL_DECODE_HELPER` names
    /// another helper program: the tests stand in helpers that crash or hang on purpose.
    public var decoderSettings: IsolatedDecoder.Settings {
        IsolatedDecoder.Settings(
            executable: ProcessInfo.processInfo.environment["CAROUSEL_DECODE_HELPER"] ?? IsolatedDecoder.ownExecutable,
            timeout: decodeTimeout, memoryLimitMB: decodeMemory, maxPixels: Int(maxMegapixels * 1_000_000),
            displayProfile: displayProfile.map { URL(fileURLWithPath: $0).standardizedFileURL.path },
            videoDecoders: videoDecoder,
            videoRegistry: remote.cacheFolder + "/gstreamer-registry.bin", filter: decoderFilter)
    }
}
