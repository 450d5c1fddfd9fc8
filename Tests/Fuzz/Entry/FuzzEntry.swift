import FuzzTargets
import Foundation

// One binary for every fuzz target, chosen by CAROUSEL_FUZZ_TARGET. Built by Tests/Fuzz/run
// with -sanitize=fuzzer,address and -DFUZZING, main hands over to libFuzzer's driver,
// which calls the entry below; built plainly (swift build), it replays files:
// carousel-fuzz TARGET FILE...

/// The target named by CAROUSEL_FUZZ_TARGET.
let fuzzTarget: @Sendable ([UInt8]) -> Void = {
    let name = ProcessInfo.processInfo.environment["CAROUSEL_FUZZ_TARGET"] ?? ""
    guard let target = FuzzTargets.all[name] else {
        FileHandle.standardError.write(Data("CAROUSEL_FUZZ_TARGET must be one of: \(FuzzTargets.names.joined(separator: ", "))\n".utf8))
        exit(2)
    }
    return target
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    fuzzTarget(data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? [])
    return 0
}

#if FUZZING
@_silgen_name("LLVMFuzzerRunDriver")
func runFuzzerDriver(_ argc: UnsafeMutablePointer<CInt>,
                     _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
                     _ entry: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> CInt

@main
enum Fuzz {
    // SwiftPM gives an executable its own main, so libFuzzer's is not linked: its driver
    // is started from here instead.
    static func main() {
        var argc = CommandLine.argc
        var argv = CommandLine.unsafeArgv
        exit(runFuzzerDriver(&argc, &argv, fuzzOneInput))
    }
}
#else
@main
enum Replay {
    static func main() {
        let args = CommandLine.arguments.dropFirst()
        guard let name = args.first, let target = FuzzTargets.all[name] else {
            print("usage: carousel-fuzz TARGET FILE...   (targets: \(FuzzTargets.names.joined(separator: ", ")))")
            exit(2)
        }
        for path in args.dropFirst() {
            guard let data = FileManager.default.contents(atPath: path) else { print("\(path): cannot be read"); exit(1) }
            target([UInt8](data))
        }
    }
}
#endif
