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

    /// Starts GStreamer (once); `decoders` decides whether hardware decoders may play.
    static func initialise(decoders: VideoDecoders = .auto) throws(ImageError) {
        let outcome = lock.withLock { () -> Result<Void, ImageError> in
            if let state { return state }
            // No fork of gst-plugin-scanner (a sandboxed helper cannot start a process) and no
            // network lookups of anything.
            setenv("GST_REGISTRY_FORK", "no", 0)
            var error: UnsafeMutablePointer<GError>? = nil
            guard gst_init_check(nil, nil, &error) != 0 else {
                let why = error.flatMap { $0.pointee.message.map { String(cString: $0) } } ?? "unknown reason"
                g_error_free(error)
                state = .failure(ImageError(path: "GStreamer", reason: "cannot start: \(why)"))
                return state!
            }
            let registry = gst_registry_get()
            for name in plugins {
                if let plugin = gst_registry_find_plugin(registry, name) {
                    if let loaded = gst_plugin_load(plugin) { gst_object_unref(UnsafeMutableRawPointer(loaded)) }
                    gst_object_unref(UnsafeMutableRawPointer(plugin))
                }
            }
            if decoders == .software { demoteHardwareDecoders(registry) }
            state = .success(())
            return state!
        }
        try outcome.get()
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
