@testable import CarouselMedia
import CGStreamer
import Testing

/// The errors of a pipeline's elements, heard as they are posted (before any bin may drop
/// them), each for its own pipeline only, and said as a person needs them.
@Suite struct PipelineErrorsTests {
    /// A pipeline holding a bin holding an element, and that element.
    static func nested() -> (pipeline: UnsafeMutablePointer<GstElement>, element: UnsafeMutablePointer<GstElement>) {
        let pipeline = gst_pipeline_new(nil)!
        let bin = gst_bin_new(nil)!
        let element = gst_element_factory_make("identity", nil)!
        gst_bin_add(UnsafeMutableRawPointer(bin).assumingMemoryBound(to: GstBin.self), element)
        gst_bin_add(UnsafeMutableRawPointer(pipeline).assumingMemoryBound(to: GstBin.self), bin)
        return (pipeline, element)
    }

    static func post(_ text: String, code: GstStreamError, debug: String?, from element: UnsafeMutablePointer<GstElement>,
                     domain: GQuark = gst_stream_error_quark()) {
        let error = g_error_new_literal(domain, gint(code.rawValue), text)
        let message = gst_message_new_error(UnsafeMutableRawPointer(element).assumingMemoryBound(to: GstObject.self), error, debug)
        g_error_free(error)
        _ = gst_element_post_message(element, message)
    }

    @Test func anErrorDeepInAPipelineIsHeardForThatPipelineOnly() throws {
        try GStreamerSetup.initialise()
        let (a, deep) = Self.nested()
        let (b, _) = Self.nested()
        defer { gst_object_unref(a); gst_object_unref(b) }
        let heardA = PipelineErrors.watch(a), heardB = PipelineErrors.watch(b)
        defer { PipelineErrors.stop(heardA); PipelineErrors.stop(heardB) }
        #expect(heardA.first == nil)
        Self.post("This file is corrupt and cannot be played.", code: GST_STREAM_ERROR_DEMUX, debug: nil, from: deep)
        #expect(heardA.first == "This file is corrupt and cannot be played.")
        #expect(heardB.first == nil, "an error of another pipeline")
    }

    @Test func aWatchStoppedHearsNothingMoreAndKeepsAFewAtMost() throws {
        try GStreamerSetup.initialise()
        let (a, deep) = Self.nested()
        defer { gst_object_unref(a) }
        let heard = PipelineErrors.watch(a)
        for n in 0..<20 { Self.post("error \(n)", code: GST_STREAM_ERROR_DECODE, debug: nil, from: deep) }
        #expect(heard.first == "error 0")
        PipelineErrors.stop(heard)
        let again = PipelineErrors.watch(a)
        defer { PipelineErrors.stop(again) }
        Self.post("later", code: GST_STREAM_ERROR_DECODE, debug: nil, from: deep)
        #expect(again.first == "later" && heard.first == "error 0")
    }

    /// decodebin's "missing a plug-in", which a damaged stream's odd description gives as
    /// often as a decoder really missing, names the stream and both causes.
    @Test func aStreamNoDecoderTakesIsNamed() throws {
        try GStreamerSetup.initialise()
        let (a, deep) = Self.nested()
        defer { gst_object_unref(a) }
        let heard = PipelineErrors.watch(a)
        defer { PipelineErrors.stop(heard) }
        let error = g_error_new_literal(gst_core_error_quark(), gint(GST_CORE_ERROR_MISSING_PLUGIN.rawValue),
                                        "Your GStreamer installation is missing a plug-in.")
        let message = gst_message_new_error(UnsafeMutableRawPointer(deep).assumingMemoryBound(to: GstObject.self), error,
                                            "../gst/playback/gstdecodebin2.c(4719): gst_decode_bin_expose (): /GstPipeline:pipeline0/GstDecodeBin:decodebin0:\nno suitable plugins found:\nMissing decoder: H.265 (Main 4:4:4 16 Intra profile) (video/x-h265, stream-format=(string)byte-stream)\n")
        g_error_free(error)
        _ = gst_element_post_message(deep, message)
        #expect(heard.first == "no decoder here takes its stream (H.265 (Main 4:4:4 16 Intra profile)): damaged, or of a kind not played here")
    }
}
