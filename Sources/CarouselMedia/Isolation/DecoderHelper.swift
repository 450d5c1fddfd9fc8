import CarouselCore
import CLinux
import Glibc
import CarouselClock

/// The decoder helper process (`carousel decode-helper`): the only place a format decoder
/// runs. It sandboxes itself, says it is ready, then answers one request at a time on
/// descriptor 3 until the main process closes the socket. It never opens a file: each
/// comes as a descriptor, and the fitted pixels go back as a sealed memfd.
public enum DecoderHelper {
    /// The hidden subcommand that starts one.
    public static let subcommand = "decode-helper"
    /// The descriptor its socket is given as.
    static let socketDescriptor: Int32 = 3
    /// Seconds without a request after which the helper hands its freed memory back: a
    /// strip being browsed keeps its buffers, one at rest costs only the program's own.
    static let idleTrim = 2.0

    /// Serves requests until the main process goes away; never returns.
    public static func serve(memoryLimitMB: Int, displayProfile: String? = nil) -> Never {
        let limit = memoryLimitMB << 20
        // Read while files can still be opened; the main process checked it at start. One
        // that has gone bad since leaves the pictures in sRGB.
        let display = displayProfile.flatMap { try? ImageFile.read($0) }.flatMap {
            ColourConverter.checkDisplayProfile($0) == nil ? $0 : nil
        }
        let colour = ColourConverter(display: display, keepsTransforms: true)
        let (unsandboxed, addressSpace) = HelperSandbox.enter(memoryBytes: limit)
        let socket = MessageSocket(descriptor: socketDescriptor)
        let budget = MemoryBudget(limit: limit, inUse: addressSpace)
        guard socket.send(.ready(sandboxed: unsandboxed == nil, note: unsandboxed ?? "")) else { exit(0) }
        var trimmed = true
        var wholes = WholePictureCache()
        while true {
            let deadlines = [trimmed ? nil : SystemClock.monotonic + idleTrim, wholes.expiry].compactMap { $0 }
            let received = socket.receive(until: deadlines.min())
            switch received {
            case .timedOut:
                // Idle: the memory freed goes back, and a whole picture no zoom asked of lately.
                if wholes.expire(now: SystemClock.monotonic) || !trimmed { _ = malloc_trim(0) }
                trimmed = true
                continue
            case .closed:
                exit(0)
            case .malformed:
                exit(2)  // the main process is ours: this cannot happen, so stop
            case .message(let message, let passed):
                trimmed = false
                let reply = answer(message, file: passed, budget: budget, colour: colour, wholes: &wholes)
                if let passed { close(passed) }
                switch reply {
                case .image(let image): send(image, on: socket)
                case .message(let m): socket.send(m)
                }
            }
        }
    }

    /// Hands `image` back: its pixels in a sealed memfd beside the message.
    static func send(_ image: PixelImage, on socket: MessageSocket) {
        guard let fd = SharedPixels.seal(image) else {
            socket.send(.failed(reason: "cannot be handed over (no shared memory: \(String(cString: strerror(errno))))"))
            return
        }
        let backdrop = image.backdrop.map {
            HelperMessage.BackdropShape(width: $0.width, height: $0.height, average: [$0.average.r, $0.average.g, $0.average.b])
        }
        socket.send(.image(width: image.width, height: image.height, isOpaque: image.isOpaque,
                           note: image.note ?? "", fullWidth: Int(image.fullSize?.width ?? 0),
                           fullHeight: Int(image.fullSize?.height ?? 0), backdrop: backdrop, motion: image.motion,
                           lengthMicros: image.clipLength.map { Int(($0 * 1e6).rounded()) }.map { min(max($0, 0), HelperMessage.maxLengthMicros) } ?? 0),
                   attaching: fd)
        close(fd)
    }

    /// What a helper answers a `probeOpen`: whether it could open `path` (or make a
    /// network socket, for `HelperMessage.socketProbe`).
    static func probe(_ path: String) -> HelperMessage {
        let fd = path == HelperMessage.socketProbe ? socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            : open(path, O_RDONLY | O_CLOEXEC)
        if fd >= 0 { close(fd); return .failed(reason: "opened") }
        return .failed(reason: "refused: \(String(cString: strerror(errno)))")
    }

    private enum Reply {
        case image(PixelImage)
        case message(HelperMessage)
    }

    private static func answer(_ message: HelperMessage, file: Int32?, budget: MemoryBudget, colour: ColourConverter,
                               wholes: inout WholePictureCache) -> Reply {
        switch message {
        case .decode(let job):
            guard let file else { return .message(.failed(reason: "was not passed to the decoder")) }
            let box = Size(width: Double(job.boxWidth), height: Double(job.boxHeight))
            var pixels: Int? = nil
            do throws(ImageError) {
                var decoder = FittingDecoder(maxPixels: job.maxPixels, dctScaling: job.dctScaling, colour: colour)
                decoder.budget = budget
                decoder.showsPartial = job.partial
                if job.embedded { return .image(try EmbeddedThumbnail.decode(file: file, name: job.name, fittingIn: box, with: decoder)) }
                if let part = job.partRect {
                    // A zoom's detail: the picture's own size bounds it (`maxPixels`), and
                    // the helper's memory limit any whole decode a format needs for it,
                    // which is kept for the next part the zoom asks of the same file.
                    let key = WholePictureCache.Key(file: file)
                    if let key, let whole = wholes.picture(for: key, now: SystemClock.monotonic) {
                        return .image(FittingDecoder.cut(part, of: whole, fittingIn: box))
                    }
                    wholes.clear()
                    let bytes = try ImageFile.read(file, name: job.name)
                    guard let whole = try decoder.wholeForParts(bytes, name: job.name) else {
                        return .image(try decoder.decode(bytes, name: job.name, part: part, fittingIn: box))
                    }
                    if let key { wholes.keep(whole, for: key, now: SystemClock.monotonic) }
                    return .image(FittingDecoder.cut(part, of: whole, fittingIn: box))
                }
                wholes.clear()
                pixels = try budget.check(file: file, box: box, dctScaling: job.dctScaling, maxPixels: job.maxPixels, name: job.name)
                var image = try decoder.decode(file: file, name: job.name, fittingIn: box)
                // The blurred backdrop (`--fill`), from the fitted picture: about a millisecond.
                if job.backdrop { image.backdrop = BlurredBackdrop.make(from: image) }
                // A Motion Photo's clip: found here, in the sandbox, from the hostile file (an
                // animation's frames were found by the decode).
                image.motion = MotionPhoto.locate(file: file).map(PictureMotion.clip) ?? image.motion
                return .image(image)
            } catch {
                return .message(.failed(reason: budget.explain(error.reason, pixels: pixels)))
            }
        case .probeOpen(let path):
            return .message(probe(path))
        case .ready, .image, .failed, .play, .clipOpened, .ringBuffer, .frame, .release, .late, .clipEnded, .seek, .seeked, .sound:
            return .message(.failed(reason: "is not a request"))
        }
    }
}
