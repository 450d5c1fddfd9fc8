import ArgumentParser
import CarouselMedia
import Foundation
import CarouselSources

/// How pictures from web servers (`http://` and `https://` sources, `davs://` and `dav://` WebDAV folders) are downloaded and kept.
public struct RemoteOptions: ParsableArguments, Sendable {
    @Option(help: ArgumentHelp("Where downloaded manifests and pictures are kept, to show them without the network. Default: $CACHE_DIRECTORY under systemd, else $XDG_CACHE_HOME/kiosk-carousel.", valueName: "DIR"))
    public var cacheDir: String?

    @Option(help: ArgumentHelp("Most disk space the downloaded pictures take; the least recently shown go first.", valueName: "MB"))
    public var cacheMb: Int = 1024

    @Option(help: ArgumentHelp("Seconds between checks of each web source for changes (one small request when nothing changed).", valueName: "SECONDS"))
    public var refresh: Double = 300

    @Option(help: ArgumentHelp("Largest picture downloaded; a server that sends more is cut off and the picture shown as failed.", valueName: "MB"))
    public var maxDownloadMb: Int = 64

    @Option(help: ArgumentHelp("Pictures downloaded at once.", valueName: "N"))
    public var downloads: Int = 2

    @Option(help: ArgumentHelp("Certificates (PEM) to trust for https besides the system's: a private certificate authority.", valueName: "FILE"))
    public var caFile: String?

    @Option(help: ArgumentHelp("The netrc file holding the logins for WebDAV sources (machine HOST login USER password PASSWORD; never logged). Default: ~/.netrc.", valueName: "FILE"))
    public var netrc: String?

    @Option(help: ArgumentHelp("An Immich server whose pictures to show (its web address); what to show is chosen with the --immich- options, a random 200 when none is given.", valueName: "URL"))
    public var immich: String?

    @Option(help: ArgumentHelp("The file holding the Immich API key (sent as x-api-key; never logged). Required with --immich.", valueName: "FILE"))
    public var immichKeyFile: String?

    @Option(help: ArgumentHelp("An Immich album to show, by name or id (repeatable).", valueName: "NAME|ID"))
    public var immichAlbum: [String] = []

    @Option(help: ArgumentHelp("A partner's timeline: the pictures of someone who shares their library with the key's account in Immich, by name, e-mail or id (repeatable).", valueName: "NAME|ID"))
    public var immichPartner: [String] = []

    @Option(help: ArgumentHelp("The pictures of a person Immich knows, by name or id (repeatable).", valueName: "NAME|ID"))
    public var immichPerson: [String] = []

    @Option(help: ArgumentHelp("The pictures with an Immich tag, by name, path (Family/Grandma) or id (repeatable).", valueName: "NAME|ID"))
    public var immichTag: [String] = []

    @Flag(help: "Immich's favourites.")
    public var immichFavorites = false

    @Flag(help: "Immich's memories for today: on this day in earlier years.")
    public var immichMemories = false

    @Option(help: ArgumentHelp("A random selection of N of the Immich library, drawn again at each --refresh.", valueName: "N"))
    public var immichRandom: Int?

    @Flag(help: "Download Immich's originals instead of its previews (their full colour profile and the zoom's detail; more bytes).")
    public var immichOriginals = false

    @Flag(help: "Leave out the pictures archived in Immich (an album, a person, a tag and the favourites show them by default, as Immich's album does).")
    public var immichSkipArchived = false

    public init() {}

    public func validate() throws {
        if let immich {
            guard RemoteURL.isRemote(immich), URL(string: immich)?.host != nil else {
                throw ValidationError("--immich must be the http:// or https:// address of an Immich server, not \(immich)")
            }
            guard let file = immichKeyFile else {
                if ConfigFile.checkingOneKey { return }
                throw ValidationError("--immich needs --immich-key-file FILE (the API key)")
            }
            guard let key = try? String(contentsOfFile: file, encoding: .utf8),
                  !key.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
                throw ValidationError("--immich-key-file \(file): no readable file holding a key")
            }
        } else if immichKeyFile != nil || !immichAlbum.isEmpty || !immichPartner.isEmpty || !immichPerson.isEmpty || !immichTag.isEmpty || immichFavorites || immichMemories
                    || immichRandom != nil || immichOriginals || immichSkipArchived, !ConfigFile.checkingOneKey {
            throw ValidationError("the --immich- options need --immich URL")
        }
        if let n = immichRandom, n < 1 || n > 10_000 { throw ValidationError("--immich-random must be 1 to 10000, not \(n)") }
        if let d = cacheDir, d.isEmpty { throw ValidationError("--cache-dir must name a folder") }
        if cacheMb < 16 || cacheMb > 1_048_576 { throw ValidationError("--cache-mb must be 16 to 1048576, not \(cacheMb)") }
        if !(refresh >= 5 && refresh <= 86_400) { throw ValidationError("--refresh must be 5 to 86400 seconds, not \(refresh)") }
        if maxDownloadMb < 1 || maxDownloadMb > 4096 {
            throw ValidationError("--max-download-mb must be 1 to 4096, not \(maxDownloadMb)")
        }
        if downloads < 1 || downloads > 8 { throw ValidationError("--downloads must be 1 to 8, not \(downloads)") }
        if let f = netrc, !FileManager.default.isReadableFile(atPath: f) {
            throw ValidationError("--netrc \(f): no such readable file")
        }
        if let f = caFile, !FileManager.default.isReadableFile(atPath: f) {
            throw ValidationError("--ca-file \(f): no such readable file")
        }
    }

    var configEntries: [ConfigEntry] {
        [.init("cache-dir", cacheDir.map { .string($0) }, unset: "$XDG_CACHE_HOME/kiosk-carousel"),
         .init("cache-mb", .number(Double(cacheMb))), .init("refresh", .number(refresh)),
         .init("max-download-mb", .number(Double(maxDownloadMb))), .init("downloads", .number(Double(downloads))),
         .init("ca-file", caFile.map { .string($0) }, unset: "the system's certificates"),
         .init("netrc", netrc.map { .string($0) }, unset: "~/.netrc"),
         .init("immich", immich.map { .string($0) }, unset: "none"),
         .init("immich-key-file", immichKeyFile.map { .string($0) }, unset: "none"),
         .init("immich-album", immichAlbum.isEmpty ? nil : .strings(immichAlbum), unset: "none"),
         .init("immich-partner", immichPartner.isEmpty ? nil : .strings(immichPartner), unset: "none"),
         .init("immich-person", immichPerson.isEmpty ? nil : .strings(immichPerson), unset: "none"),
         .init("immich-tag", immichTag.isEmpty ? nil : .strings(immichTag), unset: "none"),
         .init("immich-favorites", .bool(immichFavorites)), .init("immich-memories", .bool(immichMemories)),
         .init("immich-random", immichRandom.map { .number(Double($0)) }, unset: "200 when nothing else is chosen"),
         .init("immich-originals", .bool(immichOriginals)), .init("immich-skip-archived", .bool(immichSkipArchived))]
    }

    /// The Immich library asked for, its key read from its file; nil without `--immich`.
    public var immichSource: ImmichSource? {
        guard let immich, let file = immichKeyFile,
              let key = try? String(contentsOfFile: file, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines) else { return nil }
        var selection = ImmichSource.Selection()
        selection.albums = immichAlbum
        selection.partners = immichPartner
        selection.people = immichPerson
        selection.tags = immichTag
        selection.favourites = immichFavorites
        selection.memories = immichMemories
        selection.random = immichRandom
        selection.originals = immichOriginals
        selection.skipArchived = immichSkipArchived
        if selection.isEmpty { selection.random = 200 }
        return ImmichSource(server: immich, key: key, selection: selection)
    }

    /// The folder of the download cache: `--cache-dir`, systemd's `CacheDirectory=`, the XDG
    /// cache folder, or ~/.cache.
    var cacheFolder: String {
        let environment = ProcessInfo.processInfo.environment
        if let cacheDir { return cacheDir }
        if let systemd = environment["CACHE_DIRECTORY"]?.split(separator: ":").first, systemd.hasPrefix("/") {
            return String(systemd)
        }
        if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") { return xdg + "/kiosk-carousel" }
        return (environment["HOME"] ?? NSTemporaryDirectory()) + "/.cache/kiosk-carousel"
    }

    var librarySettings: RemoteLibrary.Settings {
        var s = RemoteLibrary.Settings(cacheFolder: cacheFolder + "/remote")
        s.cacheLimitBytes = Int64(cacheMb) << 20
        s.refresh = refresh
        s.maxDownloadBytes = Int64(maxDownloadMb) << 20
        s.caFile = caFile
        s.downloads = downloads
        s.immich = immichSource
        s.netrcFile = netrc
        return s
    }
}
