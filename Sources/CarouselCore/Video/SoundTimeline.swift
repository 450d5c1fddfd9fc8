/// Where in a clip the sound being heard lies. Each chunk of a clip's sound handed to the
/// output is noted with its time in the clip (on the frames' clock, counting on across
/// loops) and where it starts in the output's stream of sample frames; the count of frames
/// the output has played then says what is heard, across gaps, seeks and loops. Pure: the
/// count played comes in as a value.
public struct SoundTimeline: Sendable, Equatable {
    /// The format every clip's sound is turned into before it leaves the helper: 48 kHz,
    /// two channels, 16-bit little-endian samples, interleaved.
    public static let rate = 48_000
    public static let channels = 2
    public static let bytesPerFrame = 4
    /// The longest chunk a helper may send, in sample frames (one second).
    public static let maxChunkFrames = rate

    struct Chunk: Sendable, Equatable {
        var start: Int
        var frames: Int
        var time: Double
    }

    private var chunks: [Chunk] = []
    /// Sample frames handed to the output since it was last cleared.
    public private(set) var queued = 0

    public init() {}

    /// Notes `frames` sample frames of sound from `time` in the clip, handed over after
    /// everything before.
    public mutating func append(time: Double, frames: Int) {
        guard frames > 0, time.isFinite else { return }
        chunks.append(Chunk(start: queued, frames: frames, time: time))
        queued += frames
    }

    /// The clip time of what is heard once `played` sample frames have been played; nil
    /// before the first chunk's first frame or once everything handed over has played (the
    /// output is starved: no sound says where the clip is).
    public func time(atPlayed played: Double) -> Double? {
        guard played >= 0, played < Double(queued),
              let chunk = chunks.last(where: { Double($0.start) <= played }) else { return nil }
        return chunk.time + (played - Double(chunk.start)) / Double(Self.rate)
    }

    /// Forgets the chunks played before `played` (all but the one it lies in).
    public mutating func forget(before played: Double) {
        guard let keep = chunks.lastIndex(where: { Double($0.start) <= played }), keep > 0 else { return }
        chunks.removeFirst(keep)
    }

    /// Nothing is queued any more (the output was cleared: a seek, the clip stopped).
    public mutating func clear() {
        chunks.removeAll()
        queued = 0
    }
}
