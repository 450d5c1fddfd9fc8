import ArgumentParser
import CarouselMedia

/// `carousel decode-helper`: not for people. The main process starts one per decode worker
/// with its socket as descriptor 3; see `DecoderHelper`.
struct DecodeHelperCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: DecoderHelper.subcommand,
        abstract: "Decodes images for the main process in a sandbox (started by carousel itself).",
        shouldDisplay: false)

    @Option(help: "Address-space limit in MB.")
    var memoryMb: Int = DecodeMemory.defaultLimitMB

    @Option(help: "The screen's ICC profile, read before the sandbox closes.")
    var displayProfile: String?

    func run() throws {
        DecoderHelper.serve(memoryLimitMB: memoryMb, displayProfile: displayProfile)
    }
}
