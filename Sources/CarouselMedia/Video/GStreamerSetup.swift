import CGStreamer
import Foundation

/// GStreamer, started once per process with what a sandboxed helper needs done before its
/// filter goes on: the registry read (never a child process to rebuild it), and every plugin
/// a clip may need loaded now, since a plugin is a file and files cannot be opened after.
enum GStreamerSetup {
    /// The plugins a clip may need: sources and sinks of our own, typefinding and decodebin,
    /// the containers (MP4/MOV, Matroska/WebM, AVI, MPEG transport and program streams),
    /// parsers, software decoders (libav for H.264, HEVC and MPEG-2 and 4, and for AAC,
    /// MP3, AC-3 and MP2 sound; libjpeg-turbo for Motion JPEG; libvpx, libaom, Opus and
    /// Vorbis for a WebM's), conversion of pictures and of sound, and the hardware decoders
    /// of a Raspberry Pi (V4L2) and of Intel and AMD (VA). Those missing are skipped.
    static let plugins = ["coreelements", "app", "typefindfunctions", "playback", "isomp4", "matroska", "avi",
                          "mpegtsdemux", "mpegpsdemux", "videoparsersbad", "audioparsers", "libav", "jpeg", "vpx", "aom",
                          "videoconvertscale", "video4linux2", "v4l2codecs", "va", "audioconvert", "audioresample", "opus",
                          "vorbis"]

    private nonisolated(unsafe) static var state: Result<Void, ImageError>?
    private static let lock = NSLock()

    /// Starts GStreamer (once); `decoders` decides whether hardware decoders may play;
    /// `alsoLoaded`: plugins a `DecoderCheck` needs beside a clip's.
    static func initialise(decoders: VideoDecoders = .auto, alsoLoaded: [String] = []) throws(ImageError) {
        let outcome = lock.withLock { () -> Result<Void, ImageError> in
            if let state { return state }
            // No fork of gst-plugin-scanner (a sandboxed helper cannot start a process) and no
            // network lookups of anything.
            setenv("GST_REGISTRY_FORK", "no", 0)
            // Only the plugins a clip may need are scanned: GStreamer's own scan opens every
            // plugin installed (247 here) to write its registry, 0.3 s on this machine and over
            // 60 s in the emulated kiosk beside a busy host, every helper of a first start
            // doing it again until one had written it. They are linked into a folder beside
            // the registry (the program's cache), which GStreamer scans instead: 23 files.
            if let scanned = scannedFolder() { setenv("GST_PLUGIN_SYSTEM_PATH_1_0", scanned, 1) }
            var error: UnsafeMutablePointer<GError>? = nil
            guard gst_init_check(nil, nil, &error) != 0 else {
                let why = error.flatMap { $0.pointee.message.map { String(cString: $0) } } ?? "unknown reason"
                g_error_free(error)
                state = .failure(ImageError(path: "GStreamer", reason: "cannot start: \(why)"))
                return state!
            }
            PipelineErrors.install()
            let registry = gst_registry_get()
            for name in plugins + alsoLoaded {
                if let plugin = gst_registry_find_plugin(registry, name) {
                    if let loaded = gst_plugin_load(plugin) { gst_object_unref(UnsafeMutableRawPointer(loaded)) }
                    gst_object_unref(UnsafeMutableRawPointer(plugin))
                }
            }
            switch decoders {
            case .auto: break
            case .software: demoteHardwareDecoders(registry)
            case .named(let name):
                guard let factory = gst_element_factory_find(name) else {
                    state = .failure(ImageError(path: "--video-decoder", reason: "cannot play: --video-decoder names \(name), which GStreamer does not have on this machine"))
                    return state!
                }
                // Above every other decoder, so that decodebin takes it wherever its caps fit.
                kc_gst_factory_set_rank(factory, UInt32(GST_RANK_PRIMARY.rawValue) + 1000)
                gst_object_unref(UnsafeMutableRawPointer(factory))
            }
            state = .success(())
            return state!
        }
        try outcome.get()
    }

    /// The folder of links to the plugins a clip may need, beside the registry the main
    /// process names (`GST_REGISTRY`, in its cache folder), made if need be; nil without a
    /// registry or where the plugins cannot be found (GStreamer then scans them all).
    private static func scannedFolder() -> String? {
        guard let registry = getenv("GST_REGISTRY").map({ String(cString: $0) }), let slash = registry.lastIndex(of: "/"),
              let installed = pluginFolder() else { return nil }
        let folder = String(registry[..<slash]) + "/gstreamer-plugins"
        if mkdir(folder, 0o700) != 0 && errno != EEXIST { return nil }
        for name in plugins {
            let file = "libgst" + name + ".so"
            guard access(installed + "/" + file, R_OK) == 0 else { continue }
            // Made once; another helper starting at the same time may have made it first.
            if symlink(installed + "/" + file, folder + "/" + file) != 0 && errno != EEXIST { return nil }
        }
        return folder
    }

    /// Where GStreamer's plugins are: `gstreamer-1.0/` beside the libgstreamer this process
    /// loaded (Debian's `/usr/lib/<triplet>/gstreamer-1.0`); nil when that cannot be told
    /// (GStreamer's own scan then finds them).
    private static func pluginFolder() -> String? {
        // The library's own file, as this process mapped it (read before the sandbox closes).
        guard let maps = procText("/proc/self/maps"),
              let line = maps.split(separator: "\n").first(where: { $0.hasSuffix("/libgstreamer-1.0.so.0") || $0.contains("/libgstreamer-1.0.so.0.") }),
              let start = line.firstIndex(of: "/") else { return nil }
        let library = String(line[start...])
        guard let slash = library.lastIndex(of: "/") else { return nil }
        let folder = String(library[..<slash]) + "/gstreamer-1.0"
        var info = stat()
        return stat(folder, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR ? folder : nil
    }

    /// A /proc file's text (its size says 0, so it is read to its end), at most 4 MB.
    private static func procText(_ path: String) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while bytes.count < 4 << 20 {
            let n = read(fd, &chunk, chunk.count)
            if n <= 0 { break }
            bytes += chunk[..<n]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Every hardware video decoder ranked below use, so that decodebin never picks one.
    private static func demoteHardwareDecoders(_ registry: UnsafeMutablePointer<GstRegistry>?) {
        var list = gst_registry_get_feature_list(registry, gst_element_factory_get_type())
        let head = list
        defer { gst_plugin_feature_list_free(head) }
        while let node = list {
            if let data = node.pointee.data {
                let factory = OpaquePointer(data)
                if let klass = gst_element_factory_get_metadata(factory, "klass") {
                    let k = String(cString: klass)
                    if k.contains("Decoder") && k.contains("Video") && k.contains("Hardware") {
                        kc_gst_factory_set_rank(factory, 0)
                    }
                }
            }
            list = node.pointee.next
        }
    }
}
