import Foundation

/// Finds the demo images shipped with the program, for runs given no sources.
enum BundledAssets {
    /// The first existing candidate: $CAROUSEL_ASSETS, the installed share folder next to
    /// the binary, the repository's Assets/ seen from a `swift build` binary, ./Assets.
    static func folder() -> String? {
        let exe = URL(fileURLWithPath: CommandLine.arguments.first ?? ".").resolvingSymlinksInPath()
            .deletingLastPathComponent()
        var candidates: [String] = []
        if let env = ProcessInfo.processInfo.environment["CAROUSEL_ASSETS"] { candidates.append(env) }
        candidates += [
            exe.appendingPathComponent("../share/kiosk-carousel/Assets").standardized.path,
            exe.appendingPathComponent("../../Assets").standardized.path,
            exe.appendingPathComponent("../../../Assets").standardized.path,
            FileManager.default.currentDirectoryPath + "/Assets",
        ]
        return candidates.first { path in
            var isDir: ObjCBool = false
            return FileManager.default.fileExists(atPath: path, isDirectory: &isDir) && isDir.boolValue
        }
    }
}
