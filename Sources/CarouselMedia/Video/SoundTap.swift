import CarouselCore
import CGStreamer
import Foundation
import CarouselClock

/// A clip's sound as a video helper's GStreamer pipeline decodes it: each sample reaching
/// the sound's appsink (already 48 kHz 16-bit stereo, `SoundTimeline`'s format) is handed
/// to `deliver` with its time on the frames' clock (`loopStart` + its place in the clip) and
/// the count of flushes the sink has seen (`epoch`: a seek or a loop's rewind each), so that
/// the main process can tell sound from before a seek from sound after it. The sound runs
/// at most `lead` seconds ahead of the last video frame sent: a paused clip holds its
/// decoders, and the main process's memory, to that. Called from GStreamer's threads and
/// the helper's; every field under one lock.
final class SoundTap: @unchecked Sendable {
    /// How far the sound may be decoded ahead of the frames sent, seconds: enough that the
    /// output never runs dry while the loop sleeps between frames, little enough to hold
    /// (384 KB).
    static let lead = 2.0

    private let condition = NSCondition()
    private let deliver: (_ time: Double, _ bytes: UnsafeRawBufferPointer, _ epoch: Int) -> Void
    private var epochValue = 0
    private var flushing = false
    private var endedValue = false
    private var closing = false
    private var loopStartValue = 0.0
    private var originValue = 0.0
    private var videoSentValue = 0.0
    private var videoEndedValue = false
    private var attachedValue = false
    /// When sound last came (or the video ended): what waiting for its end counts from.
    private var progressValue = SystemClock.date

    init(deliver: @escaping (_ time: Double, _ bytes: UnsafeRawBufferPointer, _ epoch: Int) -> Void) {
        self.deliver = deliver
    }

    /// Whether the clip has a sound stream and its branch was linked.
    var isAttached: Bool { condition.withLock { attachedValue } }
    func attached() { condition.withLock { attachedValue = true } }

    /// Flushes seen so far: the sound sent after a seek returned carries this epoch or a later one.
    var epoch: Int { condition.withLock { epochValue } }

    /// Where the clip's time 0 lies on the frames' clock in this loop.
    /// The stream time of the clip's start (see `GStreamerClip.origin`): set before it plays.
    var origin: Double {
        get { condition.withLock { originValue } }
        set { condition.withLock { originValue = newValue } }
    }

    var loopStart: Double {
        get { condition.withLock { loopStartValue } }
        set { condition.withLock { loopStartValue = newValue } }
    }

    /// The last video frame sent (the frames' clock), or that the video has ended (the sound
    /// then runs to its own end, held by nothing).
    func videoSent(upTo time: Double) {
        condition.withLock { videoSentValue = time; condition.broadcast() }
    }

    func videoEnded(_ ended: Bool) {
        condition.withLock { videoEndedValue = ended; progressValue = SystemClock.date; condition.broadcast() }
    }

    /// Waits until the sound has reached its end, or until no sound has come for `timeout`
    /// seconds (its branch stalled). A slow machine's sound that is still coming is waited
    /// for: on a busy one, the last 0.7 s of a clip's sound came more than 2 s after its last
    /// frame, and was cut.
    func waitForEnd(timeout: Double) {
        condition.withLock {
            while attachedValue && !endedValue && !closing {
                let end = progressValue.addingTimeInterval(timeout)
                if !condition.wait(until: end) && SystemClock.date >= progressValue.addingTimeInterval(timeout) { return }
            }
        }
    }

    /// The pipeline is going: nothing waits any more.
    func close() {
        condition.withLock { closing = true; condition.broadcast() }
    }

    /// The appsink has a sample (its streaming thread).
    func take(from sink: UnsafeMutablePointer<GstAppSink>) {
        guard let sample = gst_app_sink_pull_sample(sink) else { return }
        defer { kc_gst_sample_unref(sample) }
        guard let buffer = gst_sample_get_buffer(sample) else { return }
        var pts = kc_gst_buffer_pts(buffer)
        guard kc_gst_time_valid(pts) != 0 else { return }
        if let segment = gst_sample_get_segment(sample) { pts = gst_segment_to_stream_time(segment, GST_FORMAT_TIME, pts) }
        guard kc_gst_time_valid(pts) != 0 else { return }
        var map = GstMapInfo()
        guard gst_buffer_map(buffer, &map, GST_MAP_READ) != 0 else { return }
        defer { gst_buffer_unmap(buffer, &map) }
        let frames = Int(map.size) / SoundTimeline.bytesPerFrame
        guard frames > 0, let data = map.data else { return }
        let position = Double(pts) / 1e9
        let stamped = condition.withLock { () -> (time: Double, epoch: Int)? in
            let time = loopStartValue + position - originValue
            while !flushing && !closing && !videoEndedValue && time > videoSentValue + Self.lead {
                _ = condition.wait(until: SystemClock.deadline(after: 0.05))
            }
            return flushing || closing ? nil : (time, epochValue)
        }
        guard let stamped else { return }
        defer { condition.withLock { progressValue = SystemClock.date; condition.broadcast() } }
        // In chunks of at most a second, each stamped with its own time.
        var at = 0
        while at < frames {
            let n = min(SoundTimeline.maxChunkFrames, frames - at)
            deliver(stamped.time + Double(at) / Double(SoundTimeline.rate),
                    UnsafeRawBufferPointer(start: data + at * SoundTimeline.bytesPerFrame, count: n * SoundTimeline.bytesPerFrame),
                    stamped.epoch)
            at += n
        }
    }

    /// A flush began (a seek): the sample waiting goes; one ended: what comes next is the new place's.
    func flush(started: Bool) {
        condition.withLock {
            if started {
                flushing = true
            } else {
                flushing = false
                endedValue = false
                epochValue += 1
            }
            condition.broadcast()
        }
    }

    /// The sound reached its end.
    func ended() {
        condition.withLock { endedValue = true; condition.broadcast() }
    }
}
