import ArgumentParser
import CarouselMedia

/// `carousel video-helper`: not for people. The main process starts one to decode clips
/// with its socket as descriptor 3; see `VideoHelper`.
struct VideoHelperCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: VideoHelper.subcommand,
        abstract: "Decodes video clips for the main process in a sandbox (started by carousel itself).",
        shouldDisplay: false)

    @Option(help: "Address-space limit in MB beyond what GStreamer maps at start.")
    var memoryMb: Int = DecodeMemory.defaultLimitMB

    @Option(help: "auto: hardware decoders where the machine has them; software: never.")
    var decoders: VideoDecoders = .auto

    @Option(help: "The screen's ICC profile: animations' frames are converted to it.")
    var displayProfile: String?

    @Option(help: "Seconds a clip's poster, or its opening, may take (the main process's --decode-timeout).")
    var openTimeout: Double = 5

    func run() throws {
        VideoHelper.serve(memoryLimitMB: memoryMb, decoders: decoders, displayProfile: displayProfile,
                          openTimeout: openTimeout.isFinite ? min(max(openTimeout, 0.1), 3600) : 5)
    }
}

/// `--video-decoder` and the helper's `--decoders` take its cases by name.
extension VideoDecoders: ExpressibleByArgument {}

/// `--decoder-filter` takes its cases by name.
extension DecoderFilter: ExpressibleByArgument {}
