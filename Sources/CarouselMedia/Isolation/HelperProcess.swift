import CarouselCore
import CLinux
import Glibc
import CarouselClock

/// One decoder helper as the main process sees it: a child process and the socket to it.
/// Used by one thread at a time. Ended by `terminate` (or by the main process ending:
/// the helper asks the kernel to kill it then).
final class HelperProcess: @unchecked Sendable {
    /// How one request ended.
    enum Outcome {
        case image(PixelImage)
        case failed(reason: String)
        /// No answer before the deadline: the helper is hung and must be killed.
        case timedOut
        /// The helper died (crashed, was killed) or broke the protocol.
        case lost(String)
    }

    let pid: pid_t
    private let socket: MessageSocket
    /// Why the helper is not sandboxed; nil when it is.
    private(set) var unsandboxedBecause: String?
    private var reaped = false

    private init(pid: pid_t, socket: MessageSocket) {
        self.pid = pid
        self.socket = socket
    }

    deinit { terminate() }

    /// Starts `executable decode-helper --memory-mb N [--display-profile FILE]` with its
    /// socket as descriptor 3 and waits (at most `startTimeout` seconds) for it to say it
    /// is ready.
    static func start(executable: String, memoryLimitMB: Int, displayProfile: String? = nil,
                      startTimeout: Double = 10, filter: DecoderFilter = .required) throws(HelperFault) -> HelperProcess {
        try start(executable: executable, arguments: [DecoderHelper.subcommand, "--memory-mb", String(memoryLimitMB)]
                    + (displayProfile.map { ["--display-profile", $0] } ?? []), startTimeout: startTimeout, filter: filter)
    }

    /// Starts `executable` with `arguments` (a helper's subcommand and options) in the same
    /// way; `environment` adds to what it is given (NAME=VALUE). A helper that says its
    /// system-call filter could not be installed is stopped before it is given anything,
    /// unless `filter` is `.optional`. `abandoned` is asked every 0.1 s while it starts: once
    /// it says yes (the clip it was for was stopped), the helper is killed at once rather than
    /// left to finish starting. On a loaded machine a helper took longer to start than a show's
    /// step: each step's clip left one still starting for up to a minute, and four screens
    /// under ThreadSanitizer had over 100 helpers and a load of 95 within 45 s.
    static func start(executable: String, arguments: [String], environment: [String] = [],
                      startTimeout: Double = 10, filter: DecoderFilter = .required,
                      abandoned: () -> Bool = { false }) throws(HelperFault) -> HelperProcess {
        guard let (ours, theirs) = MessageSocket.pair() else {
            throw HelperFault("cannot make a socket for the decoder (\(String(cString: strerror(errno))))")
        }
        let args = [displayName(of: executable)] + arguments
        // The helper's socket is its descriptor 3; nothing else of ours reaches it, not
        // even a descriptor another thread opened without close-on-exec a moment ago (libdbus,
        // started by SDL_Init while helpers start, reads a pipe until every copy of its
        // write end is closed: a helper holding one kept the program from ever starting).
        // A decoder spinning on a damaged file can print a warning a microsecond (libpng
        // did: 400,000 lines in 2 s); what a helper says goes nowhere. The main process
        // reports each failure once. No environment but what the Swift runtime reads: a
        // crash ends the helper at once instead of starting the backtracer (which the
        // sandbox would refuse anyway). The helper's end stays open until the helper has
        // its copy, and no longer.
        let started = withExtendedLifetime(theirs) {
            ChildSpawn.start(executable, arguments: args, environment: ["SWIFT_BACKTRACE=enable=no"] + environment,
                             descriptors: [0: .null(writing: false), 1: .null(writing: true), 2: .null(writing: true),
                                           DecoderHelper.socketDescriptor: .copy(theirs.descriptor)],
                             closingFrom: DecoderHelper.socketDescriptor + 1)
        }
        let pid: pid_t
        switch started {
        case .success(let child): pid = child
        case .failure(let error): throw HelperFault("cannot start the decoder \(executable) (\(error))")
        }
        let helper = HelperProcess(pid: pid, socket: ours)
        let deadline = SystemClock.monotonic + startTimeout
        var received = MessageSocket.Received.timedOut
        while SystemClock.monotonic < deadline {
            if abandoned() {
                helper.terminate()
                throw HelperFault("the decoder was no longer wanted before it started", transient: true)
            }
            received = ours.receive(until: min(deadline, SystemClock.monotonic + 0.1))
            if case .timedOut = received { continue }
            break
        }
        switch received {
        case .message(.ready(let sandboxed, let note), let fd):
            if let fd { close(fd) }
            helper.unsandboxedBecause = sandboxed ? nil : note
            if !sandboxed && filter == .required {
                helper.terminate()
                throw HelperFault("decoders are not started without their system-call filter, which this machine cannot install "
                                  + "(\(note.isEmpty ? "no reason given" : note)); --decoder-filter optional lets them decode without it")
            }
            return helper
        case .timedOut:
            helper.terminate()
            throw HelperFault("the decoder did not start within \(Int(startTimeout)) s", transient: true)
        case .closed:
            let why = helper.reap()
            throw HelperFault("the decoder stopped at start (\(why))")
        case .message(_, let fd):
            if let fd { close(fd) }
            helper.terminate()
            throw HelperFault("the decoder said something unexpected at start")
        case .malformed(let what):
            helper.terminate()
            throw HelperFault("the decoder sent \(what) at start")
        }
    }

    /// Has the helper decode the open file `file` (not closed here) to fit `job`'s box,
    /// waiting until `deadline` (a `SystemClock.monotonic` reading).
    func decode(_ job: HelperMessage.DecodeJob, file: Int32, deadline: Double) -> Outcome {
        guard socket.send(.decode(job), attaching: file) else { return .lost(reap()) }
        return answer(until: deadline) { message, fd in
            switch message {
            case .image(let w, let h, let opaque, let note, let fw, let fh, let backdrop, let motion, let length):
                guard let fd else { return .lost("sent an image without pixels") }
                // The helper was asked for a fitted image: more than the box is a lie.
                guard w >= 1, h >= 1, w <= job.boxWidth, h <= job.boxHeight else {
                    close(fd)
                    return .lost("sent an image of \(w)x\(h) for a box of \(job.boxWidth)x\(job.boxHeight)")
                }
                do throws(HelperFault) {
                    // A backdrop only when asked for.
                    guard backdrop == nil || job.backdrop else {
                        close(fd)
                        return .lost("sent a backdrop nobody asked for")
                    }
                    var image = try SharedPixels.read(fd, width: w, height: h, isOpaque: opaque, backdrop: backdrop)
                    image.note = note.isEmpty ? nil : note
                    if fw > 0, fh > 0 { image.fullSize = Size(width: Double(fw), height: Double(fh)) }
                    image.motion = motion
                    if length > 0 { image.clipLength = Double(length) / 1e6 }
                    return .image(image)
                } catch {
                    return .lost(error.description)
                }
            case .failed(let reason):
                if let fd { close(fd) }
                return .failed(reason: reason)
            default:
                if let fd { close(fd) }
                return .lost("answered a decode with something else")
            }
        }
    }

    /// Asks the helper to open `path` (tests: proves the sandbox refuses it). Returns what
    /// the helper said: "opened" or "refused: …".
    func probeOpen(_ path: String, deadline: Double) -> Outcome {
        guard socket.send(.probeOpen(path: path)) else { return .lost(reap()) }
        return answer(until: deadline) { message, fd in
            if let fd { close(fd) }
            if case .failed(let reason) = message { return .failed(reason: reason) }
            return .lost("answered a probe with something else")
        }
    }

    private func answer(until deadline: Double, _ read: (HelperMessage, Int32?) -> Outcome) -> Outcome {
        switch socket.receive(until: deadline) {
        case .message(let message, let fd): return read(message, fd)
        case .timedOut: return .timedOut
        case .closed: return .lost(reap())
        case .malformed(let what): return .lost("sent \(what)")
        }
    }

    /// Sends a message to the helper (a video helper's `play` and `release`).
    @discardableResult
    func send(_ message: HelperMessage, attaching fd: Int32 = -1) -> Bool { socket.send(message, attaching: fd) }

    /// The helper's next message, waiting until `deadline` (nil: for ever).
    func receive(until deadline: Double?) -> MessageSocket.Received { socket.receive(until: deadline) }

    /// Kills the helper (if still there) and waits for it: no zombie is left.
    func terminate() { reap() }

    /// Ends the helper and waits for it; says how it ended ("SIGSEGV", "exit status 2").
    /// It is killed first: a helper that closed its socket but lives on (one a hostile file
    /// took over could) must not hold this thread in an endless wait. One already dying
    /// keeps the signal that killed it.
    @discardableResult
    func reap() -> String {
        guard !reaped else { return "already ended" }
        kill(pid, SIGKILL)
        var status: Int32 = 0
        var rc: pid_t
        repeat { rc = waitpid(pid, &status, 0) } while rc < 0 && errno == EINTR
        reaped = true
        guard rc == pid else { return "gone" }
        if kc_signaled(status) != 0 { return Self.signalName(kc_term_signal(status)) }
        return "exit status \(kc_exit_status(status))"
    }

    /// The name `ps` shows for a helper: the program's real path rather than /proc/self/exe
    /// (which is what is started: it stays this very program even if a newer one is
    /// installed over it while the kiosk runs, so old and new never talk to each other).
    private static func displayName(of executable: String) -> String {
        var buffer = [CChar](repeating: 0, count: 4096)
        let n = readlink(executable, &buffer, buffer.count - 1)
        guard n > 0 else { return executable }
        return String(decoding: buffer.prefix(n).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// "SIGSEGV" for 11.
    static func signalName(_ signal: Int32) -> String {
        kc_signal_abbrev(signal).map { "SIG" + String(cString: $0) } ?? "signal \(signal)"
    }
}
