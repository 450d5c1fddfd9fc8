import CarouselCore
import CGStreamer
import Foundation

/// One clip decoded by GStreamer in this process (a helper's): from the clip's bytes in
/// memory (appsrc in random-access mode, so no file is opened by name) through `decodebin`,
/// which picks the demuxer and the decoder of the highest rank (a hardware one where the
/// machine has it), to an appsink giving the first video stream's frames as decoded, 8-bit
/// I420 or NV12, or 10- and 12-bit I420 (a phone's HDR clip; `videoconvert` passes these through
/// and converts anything else), with what their samples mean (`VideoSignal`); a poster is
/// turned into RGBA here, by `VideoToneMapper` as the frames are. With a `SoundTap`, the first sound stream goes to it too, turned into
/// `SoundTimeline`'s format (a branch made when decodebin finds one: a clip without sound
/// plays as before); without, sound is not decoded. Used by one thread (and GStreamer's).
final class GStreamerClip {

    /// What the clip is, known once it has prerolled.
    struct Info: Equatable {
        var width: Int
        var height: Int
        /// How the frames lie as decoded: I420 (of 16-bit samples when `signal.bitDepth` is
        /// over 8) or NV12.
        var layout: VideoFrame.Layout?
        /// What the samples mean.
        var signal: VideoSignal
        /// Whether the frames go to the screen through `VideoToneMapper` (more than 8 bits,
        /// HDR, a wide gamut, a matrix the renderer lacks) as 8-bit BT.709 I420.
        var mapsColour: Bool { signal.bitDepth > 8 || signal.needsMapping }
        /// The matrix the screen's renderer converts the frames with.
        var matrix: VideoMatrix {
            if mapsColour { return .bt709 }
            if signal.fullRange { return .full601 }
            return signal.matrix == .bt601 ? .bt601 : .bt709
        }
        /// Seconds; nil when the container does not say.
        var duration: Double?
        /// The decoder element playing it ("avdec_h264", "v4l2slh264dec"), "" if none was seen.
        var decoder: String
        /// Quarter turns clockwise to show it upright (a phone's portrait clip: 1).
        var quarterTurns: Int
    }

    private let name: String
    private let feed: ByteFeed
    private let pipeline: UnsafeMutablePointer<GstElement>
    private let sink: UnsafeMutablePointer<GstElement>
    private let watcher: PadWatcher
    private let errors: PipelineErrors.Watch
    private let sound: SoundTap?
    private var videoInfo = GstVideoInfo()
    private(set) var info: Info?
    private var playing = false

    /// Starts reading `bytes` (which must stay valid until this is gone). Throws when
    /// GStreamer or one of its elements is missing.
    convenience init(bytes: UnsafeRawBufferPointer, name: String) throws(ImageError) {
        try self.init(feed: ByteFeed(bytes), name: name, sound: nil)
    }

    /// Starts reading the open file `fd` (read where GStreamer asks, with pread: a clip of
    /// any length costs no address space), or only `range` of it (a Motion Photo's clip).
    /// `fd` must stay open until this is gone.
    /// `maxSide`: frames larger than a square of this side are scaled down, in the pipeline,
    /// to fit in it (the screen's box for the clip: a 4K clip on a 1080p screen is decoded at
    /// 4K and handed on at 1080p).
    convenience init(file fd: Int32, range: ByteRange? = nil, name: String, sound: SoundTap? = nil, maxSide: Int? = nil) throws(ImageError) {
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_size > 0 else {
            throw ImageError(path: name, reason: "is not a file that can be read")
        }
        let whole = ByteRange(start: 0, length: Int(info.st_size))
        let part = range ?? whole
        guard part.start >= 0, part.length > 0, part.end <= whole.end else {
            throw ImageError(path: name, reason: "has no clip where it says (bytes \(part.start)–\(part.end) of \(whole.length))")
        }
        try self.init(feed: ByteFeed(fd: fd, base: part.start, size: part.length), name: name, sound: sound, maxSide: maxSide)
    }

    private init(feed: ByteFeed, name: String, sound: SoundTap?, maxSide: Int? = nil) throws(ImageError) {
        try GStreamerSetup.initialise()
        self.name = name
        self.feed = feed
        self.sound = sound
        let size = feed.size
        watcher = PadWatcher()
        guard let pipeline = gst_pipeline_new(nil) else { throw ImageError(path: name, reason: "cannot make a GStreamer pipeline") }
        self.pipeline = pipeline
        let errors = PipelineErrors.watch(pipeline)
        self.errors = errors
        func make(_ factory: String) throws(ImageError) -> UnsafeMutablePointer<GstElement> {
            guard let e = gst_element_factory_make(factory, nil) else {
                gst_object_unref(pipeline)
                PipelineErrors.stop(errors)
                throw ImageError(path: name, reason: "cannot play clips: GStreamer's \(factory) is missing (kiosk/setup installs it)")
            }
            return e
        }
        let source = try make("appsrc")
        let decode = try make("decodebin")
        let convert = try make("videoconvert")
        // Only when there is a bound: videoscale passes frames within it through untouched.
        let scale = maxSide == nil ? nil : try make("videoscale")
        let sink = try make("appsink")
        self.sink = sink
        let bin = UnsafeMutableRawPointer(pipeline).assumingMemoryBound(to: GstBin.self)
        for element in [source, decode, convert] + [scale].compactMap({ $0 }) + [sink] { gst_bin_add(bin, element) }
        if let scale {
            _ = gst_element_link(convert, scale)
            _ = gst_element_link(scale, sink)
        } else {
            _ = gst_element_link(convert, sink)
        }

        kc_gst_set_enum_string(source, "stream-type", "random-access")
        kc_gst_set_int64(source, "size", gint64(size))
        kc_gst_set_enum_string(source, "format", "bytes")
        var callbacks = GstAppSrcCallbacks()
        callbacks.need_data = { src, length, user in
            guard let src, let user else { return }
            Unmanaged<ByteFeed>.fromOpaque(user).takeUnretainedValue().push(into: src, length: Int(length))
        }
        callbacks.seek_data = { _, offset, user in
            guard let user else { return 0 }
            return Unmanaged<ByteFeed>.fromOpaque(user).takeUnretainedValue().seek(to: Int(offset)) ? 1 : 0
        }
        gst_app_src_set_callbacks(UnsafeMutableRawPointer(source).assumingMemoryBound(to: GstAppSrc.self), &callbacks,
                                  Unmanaged.passUnretained(feed).toOpaque(), nil)
        _ = gst_element_link(source, decode)

        // Only the first video stream goes on, and the first sound stream if asked for; other
        // pads are left unlinked.
        watcher.target = gst_element_get_static_pad(convert, "sink")
        if let sound {
            watcher.sound = { pad in Self.linkSound(pad, in: pipeline, to: sound) }
        }
        let padAdded: @convention(c) (UnsafeMutablePointer<GstElement>?, UnsafeMutablePointer<GstPad>?, gpointer?) -> Void = { _, pad, user in
            guard let pad, let user else { return }
            Unmanaged<PadWatcher>.fromOpaque(user).takeUnretainedValue().added(pad)
        }
        g_signal_connect_data(decode, "pad-added", unsafeBitCast(padAdded, to: GCallback.self),
                              Unmanaged.passUnretained(watcher).toOpaque(), nil, GConnectFlags(rawValue: 0))
        if sound == nil {
            // Without sound, a sound stream is left as it comes from its demuxer: nothing
            // parses or decodes it (a damaged one cannot hold the pictures back, and a poster
            // costs no sound decoding).
            let keepGoing: @convention(c) (UnsafeMutablePointer<GstElement>?, UnsafeMutablePointer<GstPad>?, UnsafeMutablePointer<GstCaps>?, gpointer?) -> gboolean = { _, pad, caps, _ in
                guard let pad, let caps, let structure = gst_caps_get_structure(caps, 0),
                      let name = gst_structure_get_name(structure), String(cString: name).hasPrefix("audio/") else { return 1 }
                // A file typefound as sound (an .m4a-branded MP4) may still hold pictures.
                guard let parent = gst_pad_get_parent_element(pad) else { return 1 }
                defer { gst_object_unref(UnsafeMutableRawPointer(parent)) }
                guard let factory = gst_element_get_factory(parent) else { return 1 }
                return kc_gst_factory_name(factory).map { String(cString: $0) } == "typefind" ? 1 : 0
            }
            g_signal_connect_data(decode, "autoplug-continue", unsafeBitCast(keepGoing, to: GCallback.self), nil, nil,
                                  GConnectFlags(rawValue: 0))
        }
        let noMorePads: @convention(c) (UnsafeMutablePointer<GstElement>?, gpointer?) -> Void = { _, user in
            guard let user else { return }
            Unmanaged<PadWatcher>.fromOpaque(user).takeUnretainedValue().finished()
        }
        g_signal_connect_data(decode, "no-more-pads", unsafeBitCast(noMorePads, to: GCallback.self),
                              Unmanaged.passUnretained(watcher).toOpaque(), nil, GConnectFlags(rawValue: 0))
        let elementAdded: @convention(c) (UnsafeMutablePointer<GstBin>?, UnsafeMutablePointer<GstBin>?, UnsafeMutablePointer<GstElement>?, gpointer?) -> Void = { _, _, element, user in
            guard let element, let user else { return }
            Unmanaged<PadWatcher>.fromOpaque(user).takeUnretainedValue().elementAdded(element)
        }
        g_signal_connect_data(pipeline, "deep-element-added", unsafeBitCast(elementAdded, to: GCallback.self),
                              Unmanaged.passUnretained(watcher).toOpaque(), nil, GConnectFlags(rawValue: 0))

        let caps = gst_caps_from_string(Self.sinkCaps(maxSide: maxSide))
        kc_gst_set_caps(sink, "caps", caps)
        kc_gst_caps_unref(caps)
        // Paced by the program, not by GStreamer's clock: frames come as fast as they are
        // taken, a few ahead at most.
        kc_gst_set_bool(sink, "sync", 0)
        kc_gst_set_uint(sink, "max-buffers", 3)
        kc_gst_set_bool(sink, "drop", 0)
    }

    /// What the appsink takes: planar 4:2:0 of 8, 10 or 12 bits, and with `maxSide` frames
    /// of even sides within that square, in square pixels (videoscale keeps the picture's
    /// shape: a 3840x2160 clip in a side of 1920 comes as 1920x1080).
    static func sinkCaps(maxSide: Int?) -> String {
        let formats = "video/x-raw,format={I420,NV12,I420_10LE,I420_12LE}"
        guard let maxSide else { return formats }
        let side = max(16, min(maxSide, 1 << 14)) & ~1
        return formats + ",width=[2,\(side)],height=[2,\(side)],pixel-aspect-ratio=1/1"
    }

    deinit {
        sound?.close()
        gst_element_set_state(pipeline, GST_STATE_NULL)
        watcher.releaseTarget()
        PipelineErrors.stop(errors)
        gst_object_unref(pipeline)
    }

    /// Links decodebin's sound pad `pad` to a branch of its own, made now (decodebin's
    /// thread): audioconvert (mixing any channels down to two) and audioresample to the
    /// sound's appsink, whose samples, end and flushes go to `tap`.
    private static func linkSound(_ pad: UnsafeMutablePointer<GstPad>, in pipeline: UnsafeMutablePointer<GstElement>,
                                  to tap: SoundTap) -> Bool {
        guard let convert = gst_element_factory_make("audioconvert", nil) else { return false }
        guard let resample = gst_element_factory_make("audioresample", nil) else { gst_object_unref(convert); return false }
        guard let sink = gst_element_factory_make("appsink", nil) else {
            gst_object_unref(convert); gst_object_unref(resample); return false
        }
        let caps = gst_caps_from_string("audio/x-raw,format=S16LE,layout=interleaved,rate=\(SoundTimeline.rate),channels=\(SoundTimeline.channels)")
        kc_gst_set_caps(sink, "caps", caps)
        kc_gst_caps_unref(caps)
        // Taken as fast as it comes; the tap holds it to its lead over the frames.
        kc_gst_set_bool(sink, "sync", 0)
        let user = Unmanaged.passUnretained(tap).toOpaque()
        var callbacks = GstAppSinkCallbacks()
        callbacks.new_sample = { sink, user in
            guard let sink, let user else { return GST_FLOW_OK }
            Unmanaged<SoundTap>.fromOpaque(user).takeUnretainedValue().take(from: sink)
            return GST_FLOW_OK
        }
        callbacks.eos = { _, user in
            guard let user else { return }
            Unmanaged<SoundTap>.fromOpaque(user).takeUnretainedValue().ended()
        }
        gst_app_sink_set_callbacks(UnsafeMutableRawPointer(sink).assumingMemoryBound(to: GstAppSink.self), &callbacks, user, nil)
        if let sinkPad = gst_element_get_static_pad(sink, "sink") {
            let probe: @convention(c) (UnsafeMutablePointer<GstPad>?, UnsafeMutablePointer<GstPadProbeInfo>?, gpointer?) -> GstPadProbeReturn = { _, info, user in
                guard let info, let user else { return GST_PAD_PROBE_OK }
                let kind = kc_gst_probe_event_type(info)
                if kind == GST_EVENT_FLUSH_START || kind == GST_EVENT_FLUSH_STOP {
                    Unmanaged<SoundTap>.fromOpaque(user).takeUnretainedValue().flush(started: kind == GST_EVENT_FLUSH_START)
                }
                return GST_PAD_PROBE_OK
            }
            _ = gst_pad_add_probe(sinkPad, GST_PAD_PROBE_TYPE_EVENT_FLUSH, probe, user, nil)
            gst_object_unref(UnsafeMutableRawPointer(sinkPad))
        }
        let bin = UnsafeMutableRawPointer(pipeline).assumingMemoryBound(to: GstBin.self)
        for element in [convert, resample, sink] { gst_bin_add(bin, element) }
        guard gst_element_link(convert, resample) != 0, gst_element_link(resample, sink) != 0 else { return false }
        for element in [sink, resample, convert] { _ = gst_element_sync_state_with_parent(element) }
        guard let target = gst_element_get_static_pad(convert, "sink") else { return false }
        defer { gst_object_unref(UnsafeMutableRawPointer(target)) }
        guard gst_pad_link(pad, target) == GST_PAD_LINK_OK else { return false }
        tap.attached()
        return true
    }

    /// Seconds an error decodebin dropped waits for the pipeline to preroll without it.
    static let droppedErrorGrace = 1.0

    /// Frames of more pixels than 1080p's are large: libav decodes them with slice
    /// (wavefront) threads only, and the appsink holds one at a time (a 4K HEVC 10-bit frame
    /// is 25 MB, and each of libav's frame threads holds frames of its own).
    static let largeFrame = 1920 * 1088

    /// The stream time of the clip's start (its first segment's), taken from every time
    /// given and added to every seek, so that the clip's times run from 0.
    private(set) var origin = 0.0

    /// Decodes up to the first frame (within `timeout` seconds) and says what the clip is.
    func open(timeout: Double) throws(ImageError) -> Info {
        if let info { return info }
        let change = gst_element_set_state(pipeline, GST_STATE_PAUSED)
        if change == GST_STATE_CHANGE_FAILURE { throw failure("cannot be played", waiting: 1) }
        if change == GST_STATE_CHANGE_ASYNC {
            // Prerolled, or an element's error, whichever comes first: a demuxer that fails in
            // its streaming thread leaves the state changing until the timeout. Asked in
            // slices, the bus read without waiting: a timed wait on the bus needs its socket
            // pair, which a sandbox may refuse (the sanitized one did, see HelperSandbox).
            // An error decodebin dropped (`PipelineErrors`) is given a second for the
            // pipeline to go on without its element (another decoder in its place), then is
            // the failure.
            var state = GST_STATE_NULL, pending = GST_STATE_NULL
            let slice = 0.05
            let slices = max(1, Int(timeout / slice))
            var result = GST_STATE_CHANGE_ASYNC
            var heardAt: Int?
            for index in 0..<slices {
                if let error = pendingError() { throw error }
                result = gst_element_get_state(pipeline, &state, &pending, GstClockTime(slice * 1e9))
                if result != GST_STATE_CHANGE_ASYNC { break }
                // Only sound (a damaged file may be taken for an MP3): nothing will preroll.
                if watcher.noVideo { throw failure("has no video stream") }
                if let heard = droppedError(slice: index, of: slice, heardAt: &heardAt) {
                    throw ImageError(path: name, reason: "cannot be played: \(heard)")
                }
            }
            if result == GST_STATE_CHANGE_FAILURE { throw failure("cannot be played", waiting: 1) }
            if result == GST_STATE_CHANGE_ASYNC { throw failure("gave no picture within \(Int(timeout)) s") }
        }
        guard watcher.linked else { throw failure("has no video stream") }
        let appsink = UnsafeMutableRawPointer(sink).assumingMemoryBound(to: GstAppSink.self)
        guard let sample = gst_app_sink_try_pull_preroll(appsink, 0) else { throw failure("gave no picture: it ended before its first frame") }
        defer { kc_gst_sample_unref(sample) }
        // Where the clip's clock starts: 0 for MP4, MOV, Matroska and AVI; a transport stream
        // (a camcorder's MTS) starts its first segment where its own clock was.
        if let segment = gst_sample_get_segment(sample), kc_gst_time_valid(segment.pointee.time) != 0 {
            origin = Double(segment.pointee.time) / 1e9
            sound?.origin = origin
        }
        guard let caps = gst_sample_get_caps(sample), gst_video_info_from_caps(&videoInfo, caps) != 0 else {
            throw failure("gave frames of an unknown kind")
        }
        // A stream on a clock of its own (MPEG's) has its length estimated from that clock, and
        // wrongly (a program stream's by its start): unknown, it is played to its end.
        var duration: gint64 = -1
        let known = origin == 0 && gst_element_query_duration(pipeline, GST_FORMAT_TIME, &duration) != 0 && duration > 0
        let format = kc_gst_video_info_format(&videoInfo)
        let layout: VideoFrame.Layout? = switch format {
        case GST_VIDEO_FORMAT_I420, GST_VIDEO_FORMAT_I420_10LE, GST_VIDEO_FORMAT_I420_12LE: .i420
        case GST_VIDEO_FORMAT_NV12: .nv12
        default: nil
        }
        let bits = format == GST_VIDEO_FORMAT_I420_10LE ? 10 : format == GST_VIDEO_FORMAT_I420_12LE ? 12 : 8
        let opened = Info(width: Int(kc_gst_video_info_width(&videoInfo)), height: Int(kc_gst_video_info_height(&videoInfo)),
                          layout: layout, signal: Self.signal(of: videoInfo.colorimetry, bits: bits, caps: caps),
                          duration: known ? Double(duration) / 1e9 : nil,
                          decoder: watcher.decoder, quarterTurns: quarterTurns())
        guard opened.width > 0, opened.height > 0 else { throw failure("has frames of no size") }
        if opened.width * opened.height > Self.largeFrame { kc_gst_set_uint(sink, "max-buffers", 1) }
        info = opened
        return opened
    }

    /// What the samples mean, from the caps' colorimetry (which decoders fill from the
    /// stream's colour description, the container's where the stream has none) and HDR's
    /// light levels. Unknown matrices are BT.709's (HD), unknown primaries BT.709's.
    static func signal(of colorimetry: GstVideoColorimetry, bits: Int, caps: UnsafeMutablePointer<GstCaps>) -> VideoSignal {
        let matrix: VideoSignal.Matrix = switch colorimetry.matrix {
        case GST_VIDEO_COLOR_MATRIX_BT601, GST_VIDEO_COLOR_MATRIX_FCC, GST_VIDEO_COLOR_MATRIX_SMPTE240M: .bt601
        case GST_VIDEO_COLOR_MATRIX_BT2020: .bt2020
        default: .bt709
        }
        let transfer: VideoSignal.Transfer = switch colorimetry.transfer {
        case GST_VIDEO_TRANSFER_ARIB_STD_B67: .hlg
        case GST_VIDEO_TRANSFER_SMPTE2084: .pq
        default: .sdr
        }
        // The content's brightest (its light level) where it says, else its mastering display's.
        var peak: Double?
        var light = GstVideoContentLightLevel()
        var mastering = GstVideoMasteringDisplayInfo()
        if gst_video_content_light_level_from_caps(&light, caps) != 0, light.max_content_light_level > 0 {
            peak = Double(light.max_content_light_level)
        } else if gst_video_mastering_display_info_from_caps(&mastering, caps) != 0, mastering.max_display_mastering_luminance > 0 {
            peak = Double(mastering.max_display_mastering_luminance) / 10000
        }
        return VideoSignal(bitDepth: bits, matrix: matrix, fullRange: colorimetry.range == GST_VIDEO_COLOR_RANGE_0_255,
                           transfer: transfer, primaries: colorimetry.primaries == GST_VIDEO_COLOR_PRIMARIES_BT2020 ? .bt2020 : .bt709,
                           peakLuminance: peak)
    }

    /// The clip's orientation ("rotate-90"…) as quarter turns clockwise: from the tags that
    /// reached the appsink's pad before its first frame (stored there as sticky events the
    /// moment they arrive, whatever the sink did with them since; the bus's tag messages are
    /// posted later, and under ThreadSanitizer after the first frame was taken).
    private func quarterTurns() -> Int {
        guard let pad = gst_element_get_static_pad(sink, "sink") else { return 0 }
        defer { gst_object_unref(UnsafeMutableRawPointer(pad)) }
        for index in 0..<8 {
            guard let event = gst_pad_get_sticky_event(pad, GST_EVENT_TAG, guint(index)) else { break }
            defer { gst_event_unref(event) }
            var tags: UnsafeMutablePointer<GstTagList>? = nil
            gst_event_parse_tag(event, &tags)
            var value: UnsafeMutablePointer<gchar>? = nil
            guard let tags, gst_tag_list_get_string(tags, "image-orientation", &value) != 0, let value else { continue }
            defer { g_free(value) }
            switch String(cString: value) {
            case "rotate-90": return 1
            case "rotate-180": return 2
            case "rotate-270": return 3
            default: return 0
            }
        }
        return 0
    }

    /// Moves to `seconds` from the start: the next frame is the one showing then (decoded
    /// from the key frame before it).
    func seek(to seconds: Double) {
        // A damaged stream's clock may start anywhere, even past what a time can hold: such a
        // moment is not sought (the clip stays where it is).
        let nanoseconds = (max(0, seconds) + origin) * 1e9
        guard nanoseconds.isFinite, nanoseconds < 9e18 else { return }
        _ = gst_element_seek_simple(pipeline, GST_FORMAT_TIME,
                                    GstSeekFlags(rawValue: GST_SEEK_FLAG_FLUSH.rawValue | GST_SEEK_FLAG_ACCURATE.rawValue),
                                    gint64(nanoseconds))
        var state = GST_STATE_NULL, pending = GST_STATE_NULL
        _ = gst_element_get_state(pipeline, &state, &pending, GstClockTime(5e9))
    }

    /// The next frame, waiting at most `timeout` seconds for it; nil at the clip's end.
    /// A clip that gives nothing for `timeout` seconds has failed.
    func next(timeout: Double) throws(ImageError) -> Sample {
        _ = try open(timeout: timeout)
        if !playing {
            gst_element_set_state(pipeline, GST_STATE_PLAYING)
            playing = true
        }
        let appsink = UnsafeMutableRawPointer(sink).assumingMemoryBound(to: GstAppSink.self)
        // Waited for in slices, the bus read between: a stream that breaks mid-way posts its
        // error and gives nothing more, and that is said at once.
        let slice = 0.05
        for _ in 0..<max(1, Int(timeout / slice)) {
            if let sample = gst_app_sink_try_pull_sample(appsink, GstClockTime(slice * 1e9)) {
                return .frame(Frame(sample: sample, info: videoInfo, origin: origin))
            }
            if gst_app_sink_is_eos(appsink) != 0 { return .ended }
            if let error = pendingError("stopped giving frames") { throw error }
        }
        throw failure("stopped giving frames for \(Int(timeout)) s")
    }

    /// `frame` came `seconds` too late to be shown: the decoder is told (a QoS event, as a
    /// synchronised sink sends one), and leaves out what would come before the frame due now
    /// (libav skips decoding frames no other refers to; GStreamer drops the decoded ones
    /// before they are scaled). GstVideoDecoder skips up to the event's time plus twice its
    /// lateness and a frame (it expects a sink that keeps falling behind): half the lateness
    /// is said, so that it skips to the frame due now, not as far again past it.
    func late(_ frame: Frame, by seconds: Double) {
        guard kc_gst_time_valid(frame.runningTime) != 0, seconds > 0, seconds < 3600,
              let event = gst_event_new_qos(GST_QOS_TYPE_UNDERFLOW, 1.0, GstClockTimeDiff(seconds / 2 * 1e9), frame.runningTime) else { return }
        _ = gst_element_send_event(sink, event)
    }

    /// The next frame if one is decoded already, `.ended` at the end; nil when neither is
    /// there yet (never waits).
    func poll() -> Sample? {
        let appsink = UnsafeMutableRawPointer(sink).assumingMemoryBound(to: GstAppSink.self)
        if let sample = gst_app_sink_try_pull_sample(appsink, 0) { return .frame(Frame(sample: sample, info: videoInfo, origin: origin)) }
        return gst_app_sink_is_eos(appsink) != 0 ? .ended : nil
    }

    /// The poster: the frame at 10 % of the clip or 1 s in, whichever is earlier, as RGBA
    /// at the clip's own size, its colours as the screen shows its frames.
    func poster(timeout: Double) throws(ImageError) -> PixelImage {
        let info = try open(timeout: timeout)
        let at = min(1, (info.duration ?? 10) * 0.1)
        if at > 0.05 { seek(to: at) }
        // A clip that ends before that moment (its length wrongly told, its timestamps
        // damaged) is shown by its first frame, as it opened.
        var found = try preroll(timeout: timeout)
        if found == nil && at > 0.05 {
            seek(to: 0)
            found = try preroll(timeout: timeout)
        }
        guard let sample = found else { throw failure("gave no picture: it ended before its first frame") }
        guard let caps = gst_sample_get_caps(sample), gst_video_info_from_caps(&videoInfo, caps) != 0 else {
            kc_gst_sample_unref(sample)
            throw failure("gave no picture")
        }
        // (The frame holds the sample and lets it go.)
        let frame = Frame(sample: sample, info: videoInfo, origin: origin)
        let width = Int(kc_gst_video_info_width(&videoInfo)), height = Int(kc_gst_video_info_height(&videoInfo))
        guard width > 0, height > 0, let layout = info.layout, let planes = frame.planes(layout.planeCount),
              let pixels = VideoToneMapper(signal: info.signal).rgba(.init(planes: planes, nv12: layout == .nv12, width: width, height: height))
        else { throw failure("gave a frame that cannot be read") }
        let turn: [ExifOrientation] = [.up, .rotatedClockwise, .upsideDown, .rotatedCounterClockwise]
        var poster = PixelImage(width: width, height: height, pixels: pixels, isOpaque: true).oriented(turn[info.quarterTurns & 3])
        poster.clipLength = info.duration.flatMap { $0.isFinite && $0 > 0 ? $0 : nil }
        return poster
    }

    /// One decoded frame, held until it is copied out.
    enum Sample {
        case frame(Frame)
        case ended
    }

    /// A GStreamer sample and the planes of its frame; released on `release()`.
    final class Frame {
        private let sample: OpaquePointer
        private var mapped = GstVideoFrame()
        private(set) var isMapped = false
        let time: Double
        let duration: Double
        /// Its running time in the pipeline (what a QoS event names it by); invalid if none.
        let runningTime: GstClockTime

        fileprivate init(sample: OpaquePointer, info: GstVideoInfo, origin: Double) {
            self.sample = sample
            var info = info
            let buffer = gst_sample_get_buffer(sample)
            // The time in the clip as it plays: the container's own timestamps with its
            // edit list applied (a MOV's starts after its first B-frames' delay).
            var pts = buffer.map { kc_gst_buffer_pts($0) } ?? GstClockTime.max
            var running = GstClockTime.max
            if kc_gst_time_valid(pts) != 0, let segment = gst_sample_get_segment(sample) {
                running = gst_segment_to_running_time(segment, GST_FORMAT_TIME, pts)
                pts = gst_segment_to_stream_time(segment, GST_FORMAT_TIME, pts)
            }
            runningTime = running
            let length = buffer.map { kc_gst_buffer_duration($0) } ?? GstClockTime.max
            time = kc_gst_time_valid(pts) != 0 ? max(0, Double(pts) / 1e9 - origin) : 0
            let n = kc_gst_video_info_fps_n(&info), d = kc_gst_video_info_fps_d(&info)
            duration = kc_gst_time_valid(length) != 0 ? Double(length) / 1e9 : (n > 0 && d > 0 ? Double(d) / Double(n) : 1.0 / 30)
            if let buffer, kc_gst_video_frame_map(&mapped, &info, buffer) != 0 { isMapped = true }
        }

        deinit {
            if isMapped { gst_video_frame_unmap(&mapped) }
            kc_gst_sample_unref(sample)
        }

        /// The first `count` planes' first bytes and row pitches; nil when one is missing.
        func planes(_ count: Int) -> [(base: UnsafeRawPointer, pitch: Int)]? {
            var all: [(base: UnsafeRawPointer, pitch: Int)] = []
            for i in 0..<count {
                guard let p = plane(i) else { return nil }
                all.append((UnsafeRawPointer(p.base), p.pitch))
            }
            return all
        }

        /// Plane `i`'s first byte and its row pitch.
        func plane(_ i: Int) -> (base: UnsafeMutablePointer<UInt8>, pitch: Int)? {
            guard isMapped, let base = kc_gst_video_frame_plane(&mapped, guint(i)) else { return nil }
            return (base, Int(kc_gst_video_frame_stride(&mapped, guint(i))))
        }
    }

    /// The error GStreamer posted, if any, else `fallback`, as the reason this clip failed.
    /// `fallback`, with the text of the first error the pipeline posted (waiting up to
    /// `waiting` seconds for one: an error from a streaming thread arrives after the state
    /// change it failed).
    private func failure(_ fallback: String, waiting: Double = 0) -> ImageError {
        var waited = 0.0
        while true {
            if let error = pendingError(fallback) { return error }
            guard waited < waiting else { return ImageError(path: name, reason: fallback) }
            usleep(20_000)
            waited += 0.02
        }
    }

    /// The first error the pipeline posted, if any, as `fallback` with its text (the bus read
    /// without waiting).
    private func pendingError(_ fallback: String = "cannot be played") -> ImageError? {
        guard let bus = gst_element_get_bus(pipeline) else { return nil }
        defer { gst_object_unref(bus) }
        guard let message = gst_bus_pop_filtered(bus, GST_MESSAGE_ERROR) else { return nil }
        defer { kc_gst_message_unref(message) }
        // Sound that nothing takes ends its stream with "Internal data stream error"; that it
        // had no pictures is what matters.
        if watcher.noVideo { return ImageError(path: name, reason: "has no video stream") }
        return failure(fallback, from: message)
    }

    /// The frame the pipeline prerolled on (after a seek), waited for in slices with the
    /// bus and the dropped errors read between: a stream damaged where the seek lands fails
    /// with its error, at once. Nil when the pipeline settled with no frame: the clip ended
    /// first.
    private func preroll(timeout: Double) throws(ImageError) -> OpaquePointer? {
        let appsink = UnsafeMutableRawPointer(sink).assumingMemoryBound(to: GstAppSink.self)
        let slice = 0.05
        var heardAt: Int?
        for index in 0..<max(1, Int(timeout / slice)) {
            if let error = pendingError("gave no picture") { throw error }
            // Settled first, then asked: a frame that came meanwhile is still taken.
            var state = GST_STATE_NULL, pending = GST_STATE_NULL
            let settled = gst_element_get_state(pipeline, &state, &pending, 0) == GST_STATE_CHANGE_SUCCESS
            if let sample = gst_app_sink_try_pull_preroll(appsink, settled ? 0 : GstClockTime(slice * 1e9)) { return sample }
            if settled { return nil }
            if let heard = droppedError(slice: index, of: slice, heardAt: &heardAt) {
                throw ImageError(path: name, reason: "gave no picture: \(heard)")
            }
        }
        throw failure("gave no picture within \(Int(timeout)) s")
    }

    /// The error decodebin dropped (`PipelineErrors`), once it has waited `droppedErrorGrace`
    /// for the pipeline to go on without its element; nil before. `index` counts the wait's
    /// slices of `slice` seconds; `heardAt` keeps the slice it was first heard in.
    private func droppedError(slice index: Int, of slice: Double, heardAt: inout Int?) -> String? {
        guard let heard = errors.first else { return nil }
        let since = heardAt ?? index
        heardAt = since
        return Double(index - since) * slice >= Self.droppedErrorGrace ? heard : nil
    }

    /// `fallback` with the text of the error `message`.
    private func failure(_ fallback: String, from message: UnsafeMutablePointer<GstMessage>) -> ImageError {
        ImageError(path: name, reason: "\(fallback): \(PipelineErrors.describe(message))")
    }
}

/// appsrc's side of the clip's bytes, in memory or in a file: pushes what is asked for
/// from where it is asked.
private final class ByteFeed: @unchecked Sendable {
    private let memory: UnsafeRawBufferPointer?
    private let fd: Int32
    /// Where the clip's first byte lies in the file.
    private let base: Int
    let size: Int
    private var offset = 0

    /// Whether buffers carry their byte offsets: an MPEG stream's demuxer finds its packets
    /// by them, and only that one is given them (qtdemux, given them, now and then waited
    /// for ever after a seek).
    private var marksOffsets = false

    init(_ bytes: UnsafeRawBufferPointer) {
        memory = bytes
        fd = -1
        base = 0
        size = bytes.count
        marksOffsets = ClipContainer.isMPEGStream(Array(bytes.prefix(ClipContainer.sniffBytes)))
    }

    init(fd: Int32, base: Int, size: Int) {
        memory = nil
        self.fd = fd
        self.base = base
        self.size = size
        var head = [UInt8](repeating: 0, count: min(size, ClipContainer.sniffBytes))
        let got = head.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, off_t(base)) }
        marksOffsets = got > 0 && ClipContainer.isMPEGStream(Array(head.prefix(got)))
    }


    func seek(to offset: Int) -> Bool {
        guard offset >= 0, offset <= size else { return false }
        self.offset = offset
        return true
    }

    func push(into source: UnsafeMutablePointer<GstAppSrc>, length: Int) {
        guard offset < size else {
            _ = gst_app_src_end_of_stream(source)
            return
        }
        let n = min(length > 0 && length < (1 << 24) ? length : 65536, size - offset)
        guard let buffer = gst_buffer_new_allocate(nil, gsize(n), nil) else { return }
        var map = GstMapInfo()
        guard gst_buffer_map(buffer, &map, GST_MAP_WRITE) != 0 else { gst_buffer_unref(buffer); return }
        var got = 0
        if let memory, let base = memory.baseAddress {
            map.data.update(from: base.advanced(by: offset).assumingMemoryBound(to: UInt8.self), count: n)
            got = n
        } else {
            while got < n {
                let r = pread(fd, map.data + got, n - got, off_t(base + offset + got))
                if r < 0 && errno == EINTR { continue }
                if r <= 0 { break }
                got += r
            }
        }
        gst_buffer_unmap(buffer, &map)
        guard got > 0 else {
            gst_buffer_unref(buffer)
            _ = gst_app_src_end_of_stream(source)
            return
        }
        if got < n { gst_buffer_set_size(buffer, gssize(got)) }
        // Where the bytes lie, as filesrc says it: MPEG-TS's demuxer finds its packets' sync by it.
        if marksOffsets {
            buffer.pointee.offset = guint64(offset)
            buffer.pointee.offset_end = guint64(offset + got)
        }
        offset += got
        _ = gst_app_src_push_buffer(source, buffer)
    }
}

/// decodebin's new pads and elements: links the first video pad to the converter, and the
/// first sound pad through `sound` when there is one, and notes the decoder chosen.
private final class PadWatcher: @unchecked Sendable {
    var target: UnsafeMutablePointer<GstPad>?
    var sound: ((UnsafeMutablePointer<GstPad>) -> Bool)?
    private let lock = NSLock()
    private var linkedPad = false
    private var soundLinked = false
    private var decoderName = ""

    private var allPads = false

    var linked: Bool { lock.withLock { linkedPad } }
    var decoder: String { lock.withLock { decoderName } }
    /// Whether decodebin said it has given every stream and none was a picture's.
    var noVideo: Bool { lock.withLock { allPads && !linkedPad } }

    /// decodebin's "no-more-pads": every stream it found has its pad.
    func finished() { lock.withLock { allPads = true } }

    func added(_ pad: UnsafeMutablePointer<GstPad>) {
        guard let target else { return }
        let caps = gst_pad_get_current_caps(pad) ?? gst_pad_query_caps(pad, nil)
        defer { kc_gst_caps_unref(caps) }
        guard let caps, let structure = gst_caps_get_structure(caps, 0), let name = gst_structure_get_name(structure) else { return }
        if String(cString: name).hasPrefix("audio/"), let sound {
            lock.withLock {
                guard !soundLinked else { return }
                soundLinked = sound(pad)
            }
            return
        }
        guard String(cString: name).hasPrefix("video/") else { return }
        lock.withLock {
            guard !linkedPad, gst_pad_is_linked(target) == 0 else { return }
            linkedPad = gst_pad_link(pad, target) == GST_PAD_LINK_OK
        }
    }

    func elementAdded(_ element: UnsafeMutablePointer<GstElement>) {
        guard let factory = gst_element_get_factory(element),
              let klass = gst_element_factory_get_metadata(factory, "klass"),
              ["Decoder/Video", "Decoder/Image"].contains(where: String(cString: klass).contains) else { return }
        let name = kc_gst_factory_name(factory)
        lock.withLock { if decoderName.isEmpty, let name { decoderName = String(cString: name) } }
        if let name, String(cString: name).hasPrefix("avdec_") { Self.boundThreads(of: element) }
    }

    /// A large frame (`GStreamerClip.largeFrame`) is decoded with slice threads only (three
    /// frame threads cost 60 MB more than one at 4K 10-bit, five on a Pi's four cores more
    /// still). Set from the stream's caps, which reach the decoder before it opens its codec.
    private static func boundThreads(of decoder: UnsafeMutablePointer<GstElement>) {
        guard let pad = gst_element_get_static_pad(decoder, "sink") else { return }
        defer { gst_object_unref(UnsafeMutableRawPointer(pad)) }
        let probe: @convention(c) (UnsafeMutablePointer<GstPad>?, UnsafeMutablePointer<GstPadProbeInfo>?, gpointer?) -> GstPadProbeReturn = { pad, info, _ in
            guard let pad, let info, kc_gst_probe_event_type(info) == GST_EVENT_CAPS,
                  let caps = kc_gst_probe_event_caps(info), let structure = gst_caps_get_structure(caps, 0) else { return GST_PAD_PROBE_OK }
            var width: gint = 0, height: gint = 0
            guard gst_structure_get_int(structure, "width", &width) != 0, gst_structure_get_int(structure, "height", &height) != 0,
                  Int(width) * Int(height) > GStreamerClip.largeFrame, let decoder = gst_pad_get_parent_element(pad) else { return GST_PAD_PROBE_OK }
            defer { gst_object_unref(UnsafeMutableRawPointer(decoder)) }
            kc_gst_set_flags_string(decoder, "thread-type", "slice")
            return GST_PAD_PROBE_REMOVE
        }
        _ = gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM, probe, nil, nil)
    }

    func releaseTarget() {
        if let target { gst_object_unref(target) }
        target = nil
    }
}
