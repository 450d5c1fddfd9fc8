import CarouselCore
import CDeviceBroker
import CLinux
import Glibc
import CarouselClock

/// The video helper process (`carousel video-helper`): where clips are decoded, by
/// GStreamer. It starts GStreamer and loads the plugins a clip may need, then sandboxes
/// itself as the picture helpers do (the same allow list and the few calls GStreamer's
/// threads add), with an address-space limit of `--memory-mb` beyond what GStreamer maps at
/// start, says it is ready and answers on descriptor 3: a `decode` is a clip's poster,
/// fitted like a picture. It never opens a file: each comes as a descriptor and is read
/// from memory.
public enum VideoHelper {
    public static let subcommand = "video-helper"

    /// What GStreamer calls beside what decoding pictures does, gathered with strace over
    /// every fixture clip: its buses and clock wake their waiters through a socket pair
    /// (AF_UNIX only: the kernel makes no other kind of pair, so this reaches nothing
    /// outside), and its threads read their scheduling and their parent. Files stay
    /// refused: what GStreamer still tries (the time zone, the CPU count, ORC's JIT file in
    /// /tmp) has a fallback it takes.
    static let alsoAllowed = ["socketpair", "getppid", "sched_getattr", "sched_getparam", "sched_getscheduler"]

    /// Serves requests until the main process goes away; never returns.
    /// `openTimeout`: seconds a poster, or a clip's opening, may take: the decode timeout the
    /// pool gives every picture (a fixed 5 s failed posters, and clips, on a machine that was
    /// slow to start GStreamer: the clip then played over its item shown as failed).
    /// `devices`: the device nodes handed through the sandbox (nil: `HardwareDevices.present()`;
    /// none with `--video-decoder software`).
    public static func serve(memoryLimitMB: Int, decoders: VideoDecoders, displayProfile: String? = nil, openTimeout: Double = 5,
                             devices: [String]? = nil) -> Never {
        // The device broker first, while the process is small (see `HelperSandbox.startBroker`).
        let handedDevices = handed(devices, decoders: decoders)
        _ = HelperSandbox.startBroker(for: handedDevices)
        // GLib stamps its messages with the local time: UTC, so that it never reads the zone file.
        setenv("TZ", "UTC0", 1)
        // The screen's profile, read while files can be: animations' frames are converted to
        // it as their stills are (one gone bad since start leaves them in sRGB).
        let display = displayProfile.flatMap { try? ImageFile.read($0) }.flatMap {
            ColourConverter.checkDisplayProfile($0) == nil ? $0 : nil
        }
        let colour = ColourConverter(display: display, keepsTransforms: true)
        let started: ImageError?
        do throws(ImageError) {
            try GStreamerSetup.initialise(decoders: decoders)
            started = nil
        } catch {
            started = error
        }
        let (unsandboxed, _) = HelperSandbox.enter(memoryBytes: memoryLimitMB << 20, beyondWhatIsMapped: true,
                                                   alsoAllowed: alsoAllowed, devices: handedDevices)
        let socket = MessageSocket(descriptor: DecoderHelper.socketDescriptor)
        guard socket.send(.ready(sandboxed: unsandboxed == nil, note: unsandboxed ?? "")) else { exit(0) }
        var trimmed = true
        while true {
            let received = socket.receive(until: trimmed ? nil : SystemClock.monotonic + DecoderHelper.idleTrim)
            if case .timedOut = received {
                // Idle: what the last clip's decoder freed goes back to the system (a poster
                // pool's helper held 86 MB of it at 1080p).
                _ = malloc_trim(0)
                trimmed = true
                continue
            }
            trimmed = false
            switch received {
            case .timedOut: continue
            case .closed: exit(0)
            case .malformed: exit(2)
            case .message(let message, let passed):
                defer { if let passed { close(passed) } }
                switch message {
                case .decode(let job):
                    guard let passed else { socket.send(.failed(reason: "was not passed to the decoder")); continue }
                    if let started { socket.send(.failed(reason: started.reason)); continue }
                    do throws(ImageError) {
                        DecoderHelper.send(try poster(of: passed, job: job, timeout: openTimeout), on: socket)
                    } catch {
                        socket.send(.failed(reason: error.reason))
                    }
                    // A poster's decoder is gone: its memory goes back now, not after the idle
                    // wait, for the clip's player (another helper) starts at once (a 4K HEVC
                    // clip's: 500 MB both, on a board of 1 GB).
                    _ = malloc_trim(0)
                    trimmed = true
                case .probeOpen(let path):
                    socket.send(DecoderHelper.probe(path))
                case .play(let name, let loop, let range, let from, let sound, let maxSide):
                    guard let passed else { socket.send(.failed(reason: "was not passed to the decoder")); continue }
                    if let started { socket.send(.failed(reason: started.reason)); continue }
                    ClipStreamer.play(file: passed, range: range, name: name, loop: loop, from: Double(from) / 1e6,
                                      sound: sound, maxSide: maxSide > 0 ? maxSide : nil, openTimeout: openTimeout, colour: colour,
                                      on: socket)
                case .release, .seek, .late:
                    continue  // for a clip that ended
                case .ready, .image, .failed, .clipOpened, .ringBuffer, .frame, .clipEnded, .seeked, .sound:
                    socket.send(.failed(reason: "is not a request"))
                }
            }
        }
    }

    /// The device nodes a helper hands through its sandbox: none for software decoding, the
    /// ones named (character devices only) or the machine's.
    static func handed(_ devices: [String]?, decoders: VideoDecoders) -> [String] {
        guard decoders != .software else { return [] }
        return devices.map { $0.filter(HardwareDevices.isCharacterDevice) } ?? HardwareDevices.present()
    }

    /// `carousel video-helper --check`: starts as `serve` does (GStreamer, then the same
    /// sandbox with the same devices), says on standard error whether it is sandboxed and
    /// what was handed through, runs the check and exits with its status.
    public static func check(_ check: DecoderCheck, frames: Int, memoryLimitMB: Int, decoders: VideoDecoders,
                             devices: [String]?) -> Never {
        let handed = handed(devices, decoders: decoders)
        _ = HelperSandbox.startBroker(for: handed)
        setenv("TZ", "UTC0", 1)
        do throws(ImageError) {
            try GStreamerSetup.initialise(decoders: decoders, alsoLoaded: check.plugins)
        } catch {
            _ = "video helper: \(error.reason)\n".withCString { write(2, $0, strlen($0)) }
            exit(1)
        }
        let (unsandboxed, _) = HelperSandbox.enter(memoryBytes: memoryLimitMB << 20, beyondWhatIsMapped: true,
                                                   alsoAllowed: alsoAllowed, devices: handed)
        let broker = kc_broker_pid() > 0 ? "through the device broker (process \(kc_broker_pid()))" : "none"
        let line = "sandbox: " + (unsandboxed.map { "NOT installed: \($0)" } ?? "seccomp filter on every thread")
            + "; devices handed through: " + (handed.isEmpty ? "none" : handed.joined(separator: " ") + ", " + broker) + "\n"
        _ = line.withCString { write(2, $0, strlen($0)) }
        exit(check.run(devices: handed, frames: frames))
    }

    /// The poster of the clip in `file`, fitted to the job's box (or its part of it, for a zoom).
    static func poster(of file: Int32, job: HelperMessage.DecodeJob, timeout: Double = 5) throws(ImageError) -> PixelImage {
        let whole = try GStreamerClip(file: file, name: job.name).poster(timeout: timeout)
        guard whole.width * whole.height <= job.maxPixels else {
            throw ImageError(path: job.name, reason: "is \(whole.width)x\(whole.height), more than --max-megapixels allows")
        }
        let box = Size(width: Double(job.boxWidth), height: Double(job.boxHeight))
        var image: PixelImage
        if let part = job.partRect {
            image = FittingDecoder.cut(part, of: whole, fittingIn: box)
        } else {
            let fitted = AspectFit.size(of: whole.size, in: box)
            image = ImageScaler.resize(whole, width: max(1, Int(fitted.width)), height: max(1, Int(fitted.height)))
        }
        image.isOpaque = true
        image.fullSize = whole.size
        image.clipLength = whole.clipLength
        if job.backdrop { image.backdrop = BlurredBackdrop.make(from: image) }
        return image
    }
}
