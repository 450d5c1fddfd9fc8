import ArgumentParser
import CarouselSDL

/// The `carousel` command: subcommands and the error handling every one shares.
public struct CarouselCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "carousel",
        abstract: "An image carousel for touchscreen kiosks, preview windows and headless rendering.",
        version: CarouselCommand.version,
        subcommands: [RunCommand.self, RenderCommand.self, BenchCommand.self, DecodeHelperCommand.self],
        defaultSubcommand: RunCommand.self)

    /// Said by `--version` and the control API's status.
    public static let version = "0.9.0"

    public init() {}

    /// Runs the command line; errors become one line on stderr and a non-zero exit.
    public static func runMain() {
        FreedMemory.mapLargeBlocksOnTheirOwn()
        do {
            var command = try parseAsRoot()
            if let run = command as? RunCommand, run.config != nil {
                command = try RunCommand.parseMerged(Array(CommandLine.arguments.dropFirst()))
            }
            try command.run()
        } catch let f as Failure {
            Log.warn(f.description)
            Self.exit(withError: ExitCode.failure)
        } catch let e as SDLError {
            Log.warn(e.description)
            Self.exit(withError: ExitCode.failure)
        } catch {
            Self.exit(withError: error)
        }
    }
}
