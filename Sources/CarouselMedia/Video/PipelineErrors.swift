import CGStreamer
import Foundation

/// Every error an element of a watched pipeline posts, seen as it is posted, before any bin
/// can drop it. decodebin drops the errors of an element it is still connecting (it may try
/// another in its place), and a demuxer that finds its file damaged in that moment is never
/// heard of again: the pipeline then waits for a picture that cannot come. A GStreamer
/// tracer hook (`element-post-message-pre`) sees those errors; `GStreamerClip.open` gives the
/// pipeline a moment to go on without the element, then fails with the error's own text.
enum PipelineErrors {
    /// The errors heard for one pipeline, oldest first.
    final class Watch: @unchecked Sendable {
        fileprivate let pipeline: UnsafeMutableRawPointer
        fileprivate var heard: [String] = []
        fileprivate init(_ pipeline: UnsafeMutableRawPointer) { self.pipeline = pipeline }

        /// The first error heard, if any.
        var first: String? { PipelineErrors.lock.withLock { heard.first } }
    }

    /// At most this many errors are kept per pipeline (a damaged stream may post one per
    /// packet).
    static let kept = 4

    private static let lock = NSLock()
    private nonisolated(unsafe) static var watches: [Watch] = []
    private nonisolated(unsafe) static var tracer: UnsafeMutablePointer<GstTracer>?

    /// Puts the hook in (once per process); called when GStreamer has started.
    static func install() {
        lock.withLock {
            guard tracer == nil else { return }
            tracer = kc_gst_make_tracer()
            let hook: @convention(c) (gpointer?, GstClockTime, UnsafeMutablePointer<GstElement>?, UnsafeMutablePointer<GstMessage>?) -> Void = { _, _, element, message in
                guard let element, let message, kc_gst_message_type(message) == GST_MESSAGE_ERROR else { return }
                PipelineErrors.heard(message, from: element)
            }
            gst_tracing_register_hook(tracer, "element-post-message-pre", unsafeBitCast(hook, to: GCallback.self))
        }
    }

    /// Starts hearing the errors of the elements in `pipeline` (however deep).
    static func watch(_ pipeline: UnsafeMutablePointer<GstElement>) -> Watch {
        let watch = Watch(UnsafeMutableRawPointer(pipeline))
        lock.withLock { watches.append(watch) }
        return watch
    }

    /// Stops hearing them (before the pipeline is gone).
    static func stop(_ watch: Watch) {
        lock.withLock { watches.removeAll { $0 === watch } }
    }

    /// Called in the posting element's thread, with none of GStreamer's locks taken here.
    private static func heard(_ message: UnsafeMutablePointer<GstMessage>, from element: UnsafeMutablePointer<GstElement>) {
        guard let top = kc_gst_top_parent(UnsafeMutableRawPointer(element).assumingMemoryBound(to: GstObject.self)) else { return }
        let pipeline = UnsafeMutableRawPointer(top)
        // Cheap before the text is made: most messages belong to no watched pipeline.
        guard lock.withLock({ watches.contains { $0.pipeline == pipeline && $0.heard.count < kept } }) else { return }
        let text = describe(message)
        lock.withLock {
            for watch in watches where watch.pipeline == pipeline && watch.heard.count < kept { watch.heard.append(text) }
        }
    }

    /// An error message's text, said as a person would need it: a stream that no decoder
    /// here takes (decodebin's "missing a plug-in", which a damaged stream's odd description
    /// gives as often as a missing decoder) names the stream.
    static func describe(_ message: UnsafeMutablePointer<GstMessage>) -> String {
        var error: UnsafeMutablePointer<GError>? = nil
        var debug: UnsafeMutablePointer<gchar>? = nil
        gst_message_parse_error(message, &error, &debug)
        defer { g_error_free(error); g_free(debug) }
        let text = error?.pointee.message.map { String(cString: $0) } ?? "an unknown error"
        let details = debug.map { String(cString: $0) } ?? ""
        if let error, error.pointee.domain == gst_core_error_quark(), error.pointee.code == gint(GST_CORE_ERROR_MISSING_PLUGIN.rawValue) {
            return missingDecoder(in: details).map { "no decoder here takes its stream (\($0)): damaged, or of a kind not played here" }
                ?? "no decoder here takes one of its streams: damaged, or of a kind not played here"
        }
        return text
    }

    /// The stream decodebin found no decoder for, from its debug text ("… Missing decoder:
    /// H.265 (Main 10 profile) (video/x-h265, …)"): its name, without the caps.
    static func missingDecoder(in details: String) -> String? {
        guard let range = details.range(of: "Missing decoder: ") else { return nil }
        var name = details[range.upperBound...].prefix(120)
        if let caps = name.range(of: " (video/") ?? name.range(of: " (audio/") { name = name[..<caps.lowerBound] }
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        return trimmed.isEmpty ? nil : trimmed
    }
}
