import CarouselCore
import CSDL2

/// The sound output: SDL's audio device (PipeWire, PulseAudio or ALSA, whichever SDL
/// finds), open only while a clip's sound plays (an open device's thread wakes every few
/// milliseconds even in silence: at rest the program must wake for nothing), fed from the
/// main thread with `SDL_QueueAudio` in `SoundTimeline`'s format. What is heard is told from
/// what the device has taken: the sample frames queued less those still queued, less half
/// the device's buffer (the one playing while the next is taken). The sound server's own
/// latency, which SDL 2 does not report, is not counted. Main thread only.
public final class SDLSound {
    private var device: SDL_AudioDeviceID = 0
    private var bufferFrames = 512
    private var timeline = SoundTimeline()
    private var subsystem = false

    public init() {}

    deinit {
        close()
        if subsystem { SDL_QuitSubSystem(SDL_INIT_AUDIO) }
    }

    public var isOpen: Bool { device != 0 }

    /// Opens the device (again empty if it was open); the reason when there is none.
    public func open() -> String? {
        if device != 0 {
            clear()
            SDL_PauseAudioDevice(device, 0)
            return nil
        }
        if !subsystem {
            guard SDL_InitSubSystem(SDL_INIT_AUDIO) == 0 else { return "SDL found no sound output (\(Self.error))" }
            subsystem = true
        }
        var want = SDL_AudioSpec()
        want.freq = Int32(SoundTimeline.rate)
        want.format = SDL_AudioFormat(AUDIO_S16LSB)
        want.channels = UInt8(SoundTimeline.channels)
        // 10.7 ms a buffer: what is heard is known to within half of it.
        want.samples = 512
        var have = SDL_AudioSpec()
        // SDL converts to what the device takes (allowed changes: none asked of us).
        let opened = SDL_OpenAudioDevice(nil, 0, &want, &have, 0)
        guard opened != 0 else { return "the sound output cannot be opened (\(Self.error))" }
        device = opened
        bufferFrames = max(1, Int(have.samples))
        timeline.clear()
        SDL_PauseAudioDevice(device, 0)
        return nil
    }

    /// Hands `samples` (from `time` in the clip) to the device, after what it has.
    public func queue(_ samples: [UInt8], at time: Double) {
        guard device != 0, !samples.isEmpty else { return }
        let ok = samples.withUnsafeBytes { SDL_QueueAudio(device, $0.baseAddress, UInt32($0.count)) == 0 }
        guard ok else { return }
        timeline.append(time: time, frames: samples.count / SoundTimeline.bytesPerFrame)
    }

    /// The clip time heard now; nil when nothing plays (closed, paused before anything
    /// played, or run dry).
    public var heard: Double? {
        guard device != 0 else { return nil }
        let waiting = Int(SDL_GetQueuedAudioSize(device)) / SoundTimeline.bytesPerFrame
        guard waiting > 0 else { return nil }
        let played = Double(timeline.queued - waiting) - Double(bufferFrames) / 2
        timeline.forget(before: played)
        return timeline.time(atPlayed: max(0, played))
    }

    /// Stops or goes on (a paused clip keeps what is queued).
    public func pause(_ paused: Bool) {
        if device != 0 { SDL_PauseAudioDevice(device, paused ? 1 : 0) }
    }

    /// Drops what is queued (a seek).
    public func clear() {
        guard device != 0 else { return }
        SDL_ClearQueuedAudio(device)
        timeline.clear()
    }

    /// Closes the device: the clip's sound is over.
    public func close() {
        guard device != 0 else { return }
        SDL_CloseAudioDevice(device)
        device = 0
        timeline.clear()
    }

    private static var error: String { SDL_GetError().map { String(cString: $0) } ?? "unknown reason" }
}
