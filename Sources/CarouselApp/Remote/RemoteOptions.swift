import ArgumentParser
import CarouselMedia
import Foundation

/// How pictures from web servers (`http://` and `https://` sources) are downloaded and kept.
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

    public init() {}

    public func validate() throws {
        if let d = cacheDir, d.isEmpty { throw ValidationError("--cache-dir must name a folder") }
        if cacheMb < 16 || cacheMb > 1_048_576 { throw ValidationError("--cache-mb must be 16 to 1048576, not \(cacheMb)") }
        if !(refresh >= 5 && refresh <= 86_400) { throw ValidationError("--refresh must be 5 to 86400 seconds, not \(refresh)") }
        if maxDownloadMb < 1 || maxDownloadMb > 4096 {
            throw ValidationError("--max-download-mb must be 1 to 4096, not \(maxDownloadMb)")
        }
        if downloads < 1 || downloads > 8 { throw ValidationError("--downloads must be 1 to 8, not \(downloads)") }
        if let f = caFile, !FileManager.default.isReadableFile(atPath: f) {
            throw ValidationError("--ca-file \(f): no such readable file")
        }
    }

    var configEntries: [ConfigEntry] {
        [.init("cache-dir", cacheDir.map { .string($0) }, unset: "$XDG_CACHE_HOME/kiosk-carousel"),
         .init("cache-mb", .number(Double(cacheMb))), .init("refresh", .number(refresh)),
         .init("max-download-mb", .number(Double(maxDownloadMb))), .init("downloads", .number(Double(downloads))),
         .init("ca-file", caFile.map { .string($0) }, unset: "the system's certificates")]
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
        return s
    }
}
