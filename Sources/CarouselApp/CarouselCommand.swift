import ArgumentParser
import CarouselSDL

/// The `carousel` command: the product's subcommands and the error handling every one
/// shares. The executable adds the bench's (`carousel bench`), which the product does not know.
public enum CarouselCommand {
    /// Said by `--version` and the control API's status.
    public static let version = "0.9.0"

    /// The root command's configuration: `run` (the default), `render`, the decoder helper,
    /// and `more`.
    public static func configuration(adding more: [any ParsableCommand.Type]) -> CommandConfiguration {
        CommandConfiguration(
            commandName: "carousel",
            abstract: "An image carousel for touchscreen kiosks, preview windows and headless rendering.",
            version: version,
            subcommands: [RunCommand.self, RenderCommand.self] + more + [DecodeHelperCommand.self, VideoHelperCommand.self],
            defaultSubcommand: RunCommand.self)
    }

    /// Runs the command line with `root`; errors become one line on stderr and a non-zero exit.
    public static func runMain(_ root: any ParsableCommand.Type) {
        FreedMemory.mapLargeBlocksOnTheirOwn()
        do {
            var command = try root.parseAsRoot()
            if let run = command as? RunCommand, run.config != nil {
                command = try RunCommand.parseMerged(Array(CommandLine.arguments.dropFirst()))
            }
            try command.run()
        } catch let f as Failure {
            Log.warn(f.description)
            root.exit(withError: ExitCode.failure)
        } catch let e as SDLError {
            Log.warn(e.description)
            root.exit(withError: ExitCode.failure)
        } catch {
            root.exit(withError: error)
        }
    }
}
