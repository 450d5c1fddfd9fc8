import ArgumentParser
import CarouselApp
import CLinux
import Foundation

/// `carousel soak-drive SEED [SOURCES] [run options]`: `carousel run`, driven by the seeded
/// input mix of `carousel bench --soak` and reporting to it on standard output. Started by
/// the soak only (hidden); it ends with the bench that started it.
public struct SoakDriveCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "soak-drive", abstract: "carousel run, driven by carousel bench --soak (started by it).",
        shouldDisplay: false)

    @Argument(help: "The seed of the input mix.")
    var seed: UInt64

    @Argument(parsing: .captureForPassthrough, help: "What `carousel run` takes.")
    var arguments: [String] = []

    public init() {}

    public func run() throws {
        _ = kc_parent_death_signal(SIGTERM)
        let seed = seed
        try RunCommand.parse(arguments).run { width, height, now in
            SoakDriver(seed: seed, width: width, height: height, now: now) { FileHandle.standardOutput.write(Data($0.utf8)) }
        }
    }
}
