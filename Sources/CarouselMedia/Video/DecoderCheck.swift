import CGStreamer
import CLinux
import Glibc

/// `carousel video-helper --check`: what an integrator, and the boot proof, run to see a
/// hardware decoder work from inside the video helper's sandbox, with the same filter and
/// the same seam (`HelperSandbox`'s device broker) a clip's decoding uses.
///
/// - `devices`: each device node handed through is opened through the broker and asked
///   what it is (VIDIOC_QUERYCAP); a terminal's request on it and a file outside the list
///   are refused. One line each on standard output.
/// - `fwht`: a test pattern (`videotestsrc`, SMPTE bars, `frames` of them, in the size and
///   format the encoder and the source agree on: vicodec refuses a size forced on it) encoded
///   by V4L2's FWHT encoder and decoded by its decoder (`v4l2fwhtenc ! v4l2fwhtdec`: the
///   kernel's virtual codec, vicodec, a stateful memory-to-memory device with the Pi 4's
///   H.264 decoder's API); the decoded frames are written to standard output as they
///   are, the elements and their device nodes to standard error, so that the same stream
///   decoded outside the sandbox (`gst-launch-1.0`) can be compared byte for byte.
public enum DecoderCheck: String, Sendable, CaseIterable {
    case devices, fwht

    /// The plugins a check needs beside a clip's (loaded before the sandbox).
    var plugins: [String] { self == .fwht ? ["videotestsrc"] : [] }

    /// Runs the check in this (sandboxed) process; the exit status.
    func run(devices: [String], frames: Int) -> Int32 {
        switch self {
        case .devices: return Self.reach(devices)
        case .fwht: return Self.roundTrip(frames: frames)
        }
    }

    private static func say(_ line: String, to fd: Int32 = 1) {
        let text = line + "\n"
        _ = text.withCString { write(fd, $0, strlen($0)) }
    }

    private static func reach(_ devices: [String]) -> Int32 {
        var status: Int32 = devices.isEmpty ? 1 : 0
        if devices.isEmpty { say("no device nodes to hand through") }
        for path in devices {
            let fd = open(path, O_RDWR | O_CLOEXEC)
            guard fd >= 0 else { say("\(path): open refused (\(String(cString: strerror(errno))))"); status = 1; continue }
            var card = [CChar](repeating: 0, count: 64)
            let asked = kc_v4l2_card(fd, &card, card.count)
            say("\(path): opened through the broker; VIDIOC_QUERYCAP: "
                + (asked == 0 ? "\"\(String(decoding: card.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))\"" : String(cString: strerror(-asked))))
            let terminal = kc_terminal_attributes(fd)
            say("\(path): TCGETS: " + (terminal == 0 ? "allowed" : String(cString: strerror(-terminal))))
            close(fd)
        }
        let outside = open("/etc/hostname", O_RDONLY | O_CLOEXEC)
        say("/etc/hostname: " + (outside >= 0 ? "opened" : "open refused (\(String(cString: strerror(errno))))"))
        if outside >= 0 { close(outside); status = 1 }
        return status
    }

    private static func roundTrip(frames: Int) -> Int32 {
        let description = "videotestsrc num-buffers=\(frames) pattern=smpte ! v4l2fwhtenc name=encoder"
            + " ! v4l2fwhtdec name=decoder ! appsink name=sink sync=false"
        var error: UnsafeMutablePointer<GError>? = nil
        guard let pipeline = gst_parse_launch(description, &error), error == nil else {
            say("the FWHT pipeline cannot be made: " + (error.flatMap { $0.pointee.message.map { String(cString: $0) } } ?? "?"), to: 2)
            return 1
        }
        defer {
            gst_element_set_state(pipeline, GST_STATE_NULL)
            kc_gst_unref(pipeline)
        }
        for name in ["encoder", "decoder"] {
            guard let element = kc_gst_bin_get_by_name(pipeline, name) else { continue }
            defer { kc_gst_unref(element) }
            let device = kc_gst_get_string(element, "device")
            defer { g_free(device) }
            let factory = gst_element_get_factory(element).flatMap { kc_gst_factory_name($0) }.map { String(cString: $0) } ?? "?"
            say("\(name): \(factory) on \(device.map { String(cString: $0) } ?? "?")", to: 2)
        }
        guard gst_element_set_state(pipeline, GST_STATE_PLAYING) != GST_STATE_CHANGE_FAILURE,
              let sinkElement = kc_gst_bin_get_by_name(pipeline, "sink") else {
            say("the FWHT pipeline does not start: " + firstError(of: pipeline), to: 2)
            return 1
        }
        defer { kc_gst_unref(sinkElement) }
        let sink = UnsafeMutableRawPointer(sinkElement).assumingMemoryBound(to: GstAppSink.self)
        var decoded = 0
        while let sample = gst_app_sink_try_pull_sample(sink, 10 * 1_000_000_000) {
            defer { kc_gst_sample_unref(sample) }
            guard let buffer = gst_sample_get_buffer(sample) else { continue }
            if decoded == 0, let caps = gst_sample_get_caps(sample), let text = gst_caps_to_string(caps) {
                say("frames: \(String(cString: text))", to: 2)
                g_free(text)
            }
            var map = GstMapInfo()
            guard gst_buffer_map(buffer, &map, GST_MAP_READ) != 0 else { continue }
            var offset = 0
            while offset < Int(map.size) {
                let n = write(1, map.data + offset, Int(map.size) - offset)
                if n <= 0 { break }
                offset += n
            }
            gst_buffer_unmap(buffer, &map)
            decoded += 1
        }
        if decoded < frames { say("the FWHT pipeline ended early: " + firstError(of: pipeline), to: 2) }
        say("decoded \(decoded) of \(frames) frames", to: 2)
        // vicodec's stateful decoder (Linux 6.1) changes resolution after the first frames
        // and ends its stream early ("frames left undrained after CMD_STOP", GStreamer says),
        // outside the sandbox as inside: a frame or two fewer than were encoded.
        return decoded > 0 ? 0 : 1
    }

    /// The first error the pipeline posted, with its element and debug text.
    private static func firstError(of pipeline: UnsafeMutablePointer<GstElement>) -> String {
        guard let bus = gst_element_get_bus(pipeline) else { return "no bus" }
        defer { kc_gst_unref(bus) }
        guard let message = gst_bus_pop_filtered(bus, GST_MESSAGE_ERROR) else { return "no error posted" }
        defer { kc_gst_message_unref(message) }
        var error: UnsafeMutablePointer<GError>? = nil
        var debug: UnsafeMutablePointer<gchar>? = nil
        gst_message_parse_error(message, &error, &debug)
        defer { g_error_free(error); g_free(debug) }
        let source = kc_gst_object_name_of_message(message).map { String(cString: $0) } ?? "?"
        return "\(source): " + (error.flatMap { $0.pointee.message.map { String(cString: $0) } } ?? "?")
            + (debug.map { " (\(String(cString: $0)))" } ?? "")
    }
}
