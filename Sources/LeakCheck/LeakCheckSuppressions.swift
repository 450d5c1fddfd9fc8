import Foundation

/// What LeakSanitizer (`swift test --sanitize=address`, the fuzz targets) must not report:
/// memory that libraries keep for the life of the process, none of it growing. Read by the
/// sanitizer's runtime at start; in a build without it, an unused function. Each line names
/// one library and says why; a leak of ours still fails the run.
@_cdecl("__lsan_default_suppressions")
public func leakCheckSuppressions() -> UnsafePointer<CChar> {
    UnsafeRawPointer(leakCheckSuppressionText).assumingMemoryBound(to: CChar.self)
}

nonisolated(unsafe) private let leakCheckSuppressionText: UnsafeMutablePointer<CChar> = {
    let lines = [
        // SDL's D-Bus connection (screen saver, input methods): libdbus keeps its shared
        // connection until the process ends.
        "leak:libdbus-1.so",
        // Allocations made by libraries SDL loads with dlopen and unloads at SDL_Quit (libX11
        // and its extensions): once unloaded, LeakSanitizer cannot name them. Our own code
        // is never unloaded, so nothing of ours hides behind this.
        "leak:<unknown module>",
        // Foundation's String(contentsOfFile:) on /proc files (size 0 to stat), read by the
        // soak's sampling: LeakSanitizer loses the buffer's owner, but RSS does not grow
        // (100,000 reads: +0.9 MB, as for a regular file; allocator noise).
        "leak:readBytesFromFile",
        // Foundation's Process and Pipe (the soak asks gdb for a hung program's stacks, the
        // tests start the program): their run-loop sources and file-handle monitors are
        // never released by swift-corelibs-foundation.
        "leak:Foundation7ProcessC",
        "leak:Foundation4PipeC",
        "leak:Foundation10FileHandleC",
        // swift-argument-parser's InputKey paths, made once per option and kept in a cache.
        "leak:ArgumentParser8InputKey",
        // Memory allocated inside SDL (hints, the event queue's pools): Debian's SDL is built
        // without frame pointers, so such a report never shows who called SDL and cannot be
        // told from SDL's lifetime memory. Textures are counted by the slot-pool tests and
        // the soak's RSS trend instead.
        "leak:libSDL2-2.0.so",
        // XCTest's records of the test run (swift test's runner, not the program).
        "leak:XCTest",
    ]
    return strdup(lines.joined(separator: "\n") + "\n")!
}()
