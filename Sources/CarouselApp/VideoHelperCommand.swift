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

    @Option(help: "Device nodes to hand through the sandbox, comma-separated (default: the machine's video, media and render nodes).")
    var devices: String?

    @Option(help: "Instead of serving: prove a hardware decoder's path inside the sandbox (devices: open and ask each device; fwht: the kernel's virtual codec, frames to standard output).")
    var check: DecoderCheck?

    @Option(help: "Frames the fwht check decodes.")
    var frames: Int = 10

    func run() throws {
        let named = devices.map { $0.split(separator: ",").map(String.init) }
        if let check {
            VideoHelper.check(check, frames: min(max(frames, 1), 1000), memoryLimitMB: memoryMb, decoders: decoders, devices: named)
        }
        VideoHelper.serve(memoryLimitMB: memoryMb, decoders: decoders, displayProfile: displayProfile,
                          openTimeout: openTimeout.isFinite ? min(max(openTimeout, 0.1), 3600) : 5, devices: named)
    }
}

/// `--video-decoder` and the helper's `--decoders` take its cases by name.
extension VideoDecoders: ExpressibleByArgument {}

/// `--check` takes its cases by name.
extension DecoderCheck: ExpressibleByArgument {}

/// `--decoder-filter` takes its cases by name.
extension DecoderFilter: ExpressibleByArgument {}
