import CLinux
import Foundation
import Glibc
import Synchronization

/// An HDMI-CEC adapter of the kernel's CEC API (`/dev/cecN`: the Raspberry Pi's HDMI, USB
/// adapters with a kernel driver, the `vivid` test driver), the screen a playback device on
/// it (`--cec`). A thread of its own owns the device: it answers the bus (`CECFollower`),
/// sends what the run loop asks (the TV on or to standby), and hands the loop what it heard
/// (remote keys, the TV's standby) through `take()` after `notify`. A transmit waits for
/// the bus (tens of milliseconds, a second when nobody answers); the loop never does.
public final class CECAdapter: Sendable {
    public let path: String
    private let fd: Int32
    private let wakeDescriptor: Int32
    private let log: @Sendable (String) -> Void
    private let notify: @Sendable () -> Void
    /// The adapter leaves the logical address to the program (CEC_CAP_LOG_ADDRS).
    private let claims: Bool
    private let name: String

    private struct Shared {
        var follower = CECFollower()
        var requests: [Request] = []
        var heard: [CECFollower.Heard] = []
        var stopping = false
        /// The TV answered the question of its power (nil: not asked yet).
        var tvAnswers: Bool?
    }
    private enum Request { case wake(takeOver: Bool), standby, screen(on: Bool) }
    private let shared = Mutex(Shared())
    /// At most this many heard things wait for the loop (a bus flooding keys loses the rest).
    static let heardLimit = 64
    private let ended = DispatchSemaphore(value: 0)

    /// Opens the adapter at `path` and makes the screen a playback device named `name` on
    /// it; a one-line reason when it cannot (no such device, no permission, not CEC).
    public static func open(_ path: String, name: String, log: @escaping @Sendable (String) -> Void,
                            notify: @escaping @Sendable () -> Void) -> Result<CECAdapter, CECProblem> {
        let fd = Glibc.open(path, O_RDWR | O_CLOEXEC)
        guard fd >= 0 else {
            let e = errno
            let why = e == EACCES ? "permission denied (the kiosk user needs the video group)" : String(cString: strerror(e))
            return .failure(CECProblem("\(path): \(why)"))
        }
        var driver = [CChar](repeating: 0, count: 32)
        var caps: UInt32 = 0
        guard kc_cec_caps(fd, &driver, Int32(driver.count), &caps) == 0 else {
            close(fd)
            return .failure(CECProblem("\(path) is not an HDMI-CEC adapter"))
        }
        guard caps & UInt32(CEC_CAP_TRANSMIT) != 0 else {
            close(fd)
            return .failure(CECProblem("\(path) cannot transmit (the adapter is only a monitor)"))
        }
        guard kc_cec_follow(fd) == 0 else {
            let why = String(cString: strerror(errno))
            close(fd)
            return .failure(CECProblem("\(path): cannot follow the bus: \(why)"))
        }
        let wake = eventfd(0, Int32(EFD_CLOEXEC | EFD_NONBLOCK))
        guard wake >= 0 else {
            close(fd)
            return .failure(CECProblem("\(path): no eventfd"))
        }
        let driverName = String(decoding: driver.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let adapter = CECAdapter(path: path, fd: fd, wake: wake, claims: caps & UInt32(CEC_CAP_LOG_ADDRS) != 0, name: name,
                                 log: log, notify: notify)
        log("cec: \(path) (\(driverName)) opened as a playback device named \(name)")
        Thread { [adapter] in
            _ = kc_name_thread("hdmi-cec")
            adapter.run()
        }.start()
        return .success(adapter)
    }

    private init(path: String, fd: Int32, wake: Int32, claims: Bool, name: String,
                 log: @escaping @Sendable (String) -> Void, notify: @escaping @Sendable () -> Void) {
        self.path = path
        self.claims = claims
        self.name = name
        self.fd = fd
        self.wakeDescriptor = wake
        self.log = log
        self.notify = notify
    }

    /// The screen came on: the TV on and to this input (`takeOver` false: not from another
    /// device that has it).
    public func wake(takeOver: Bool) { ask(.wake(takeOver: takeOver)) }
    /// The screen went dark: the TV to standby while it shows this screen.
    public func standby() { ask(.standby) }

    /// What the bus said since the last call, oldest first. Any thread.
    public func take() -> [CECFollower.Heard] {
        shared.withLock { s in
            defer { s.heard.removeAll() }
            return s.heard
        }
    }

    /// For `/status`: the addresses, whether the TV answers and its power.
    public var state: (logical: UInt8?, physical: UInt16, tvAnswers: Bool?, tvPower: CECFollower.TVPower?, activeSource: Bool) {
        shared.withLock { s in
            (s.follower.logicalAddress, s.follower.physicalAddress, s.tvAnswers, s.follower.tvPower, s.follower.activeSource)
        }
    }

    /// Ends the thread and closes the device (within the transmit under way, a second at most).
    public func stop() {
        shared.withLock { $0.stopping = true }
        var one: UInt64 = 1
        _ = write(wakeDescriptor, &one, 8)
        _ = ended.wait(timeout: .now() + 3)
    }

    private func ask(_ request: Request) {
        shared.withLock { s in
            if case .wake = request { s.requests.append(.screen(on: true)) }
            if case .standby = request { s.requests.append(.screen(on: false)) }
            s.requests.append(request)
        }
        var one: UInt64 = 1
        _ = write(wakeDescriptor, &one, 8)
    }

    // MARK: The thread

    /// The logical address claimed and the physical address; false while not on a bus.
    private var configured: Bool {
        var mask: UInt32 = 0, first: UInt32 = 15
        var physical: UInt16 = 0xFFFF
        _ = kc_cec_physical_address(fd, &physical)
        let n = kc_cec_logical_addresses(fd, &mask, &first)
        let address: UInt8? = n > 0 && first < 15 ? UInt8(first) : nil
        shared.withLock { s in
            s.follower.physicalAddress = physical
            s.follower.logicalAddress = address
        }
        return address != nil && physical != 0xFFFF
    }

    private func run() {
        defer {
            close(fd)
            close(wakeDescriptor)
            ended.signal()
        }
        claim()
        var onBus = configured
        // The screen's latest wish for the TV made while off the bus (the claim is not done
        // at the first pass, or the TV is unplugged): carried out once on it.
        var waiting: Request?
        var saidWaiting = false
        func power(_ request: Request) {
            if case .screen(let on) = request {
                shared.withLock { $0.follower.screenOn = on }
                return
            }
            guard onBus else {
                waiting = request
                if !saidWaiting { log("cec: not on an HDMI bus yet (no physical address); the TV is told when it is") }
                saidWaiting = true
                return
            }
            switch request {
            case .screen:
                break
            case .wake(let takeOver):
                for m in shared.withLock({ $0.follower.wake(takeOver: takeOver) }) { _ = send(m, purpose: "wake the TV") }
            case .standby:
                for m in shared.withLock({ $0.follower.standby() }) where send(m, purpose: "put the TV in standby") {
                    shared.withLock { $0.follower.tvWentToStandby() }
                    log("cec: TV to standby")
                }
            }
        }
        if onBus { sayWhere(); askTV() }
        var buffer = [UInt8](repeating: 0, count: 16)
        while true {
            var fds = [pollfd(fd: fd, events: Int16(POLLIN | POLLPRI), revents: 0),
                       pollfd(fd: wakeDescriptor, events: Int16(POLLIN), revents: 0)]
            let n = poll(&fds, 2, -1)
            if n < 0 && errno == EINTR { continue }
            if n < 0 || fds[0].revents & Int16(POLLERR | POLLHUP | POLLNVAL) != 0 {
                log("cec: \(path) went away; the TV is no longer switched (DPMS only)")
                return
            }
            if fds[0].revents & Int16(POLLPRI) != 0 {
                // One event a wake-up: on a blocking descriptor a second would wait for
                // another event (poll says again when more are queued).
                var physical: UInt16 = 0xFFFF, mask: UInt32 = 0
                _ = kc_cec_event(fd, &physical, &mask)
                let was = onBus
                onBus = configured
                if onBus && !was {
                    saidWaiting = false
                    sayWhere()
                    askTV()
                    if let wish = waiting {
                        waiting = nil
                        power(wish)
                    }
                }
                if !onBus && was { log("cec: \(path) is off the HDMI bus (no physical address: the TV unplugged or off)") }
            }
            if fds[0].revents & Int16(POLLIN) != 0 {
                for _ in 0..<64 {
                    let got = kc_cec_receive(fd, &buffer)
                    guard got > 0, let message = CECMessage(bytes: Array(buffer[0..<Int(got)])) else { break }
                    answer(message)
                }
            }
            if fds[1].revents & Int16(POLLIN) != 0 {
                var count: UInt64 = 0
                _ = read(wakeDescriptor, &count, 8)
            }
            let (stopping, requests) = shared.withLock { s in
                defer { s.requests.removeAll() }
                return (s.stopping, s.requests)
            }
            if stopping { return }
            for request in requests { power(request) }
        }
    }

    /// Claims a playback address where the adapter leaves it to the program and none is
    /// claimed yet (an adapter configured before, by a run before this one, is taken as it
    /// is). It completes once a physical address is known (a state change then says so).
    private func claim() {
        var mask: UInt32 = 0, first: UInt32 = 15
        guard claims, kc_cec_logical_addresses(fd, &mask, &first) == 0 else { return }
        if name.withCString({ kc_cec_claim_playback(fd, $0) }) != 0 && errno != EBUSY {
            log("cec: \(path): cannot claim a playback address: \(String(cString: strerror(errno)))")
        }
    }

    private func sayWhere() {
        let (logical, physical) = shared.withLock { ($0.follower.logicalAddress, $0.follower.physicalAddress) }
        log("cec: playback device \(logical.map(String.init) ?? "?") at physical address \(CECMessage.dotted(physical))")
    }

    /// Asks the TV its power: whether a TV answers at all is said in one line.
    private func askTV() {
        guard let question = shared.withLock({ $0.follower.askTVPower() }) else { return }
        var reply = [UInt8](repeating: 0, count: 16)
        var length: Int32 = 0
        let status = question.bytes.withUnsafeBufferPointer {
            kc_cec_send(fd, $0.baseAddress, Int32($0.count), CECMessage.Opcode.reportPowerStatus.rawValue, 1000, &reply, &length)
        }
        if status >= 0, kc_cec_tx_ok(status) != 0, length > 0, let answer = CECMessage(bytes: Array(reply[0..<Int(length)])) {
            self.answer(answer)
            let power = shared.withLock { s in
                s.tvAnswers = true
                return s.follower.tvPower
            }
            log("cec: the TV answers (power \(power?.name ?? "not said")); it is put in standby and woken with the screen")
        } else {
            shared.withLock { $0.tvAnswers = false }
            let why = status < 0 ? String(cString: strerror(errno))
                : kc_cec_tx_nack(status) != 0 ? "nothing acknowledged the question" : "no answer within 1 s"
            log("cec: no TV answers on \(path) (\(why)); the panel is switched by DPMS as without --cec")
        }
    }

    /// The follower's answer to a message, and what it heard for the loop.
    private func answer(_ message: CECMessage) {
        let (replies, heard) = shared.withLock { $0.follower.receive(message) }
        for reply in replies { _ = send(reply, purpose: "answer \(message)") }
        guard !heard.isEmpty else { return }
        shared.withLock { s in
            s.heard.append(contentsOf: heard.prefix(max(0, Self.heardLimit - s.heard.count)))
        }
        notify()
    }

    /// Sends one message and waits for the bus: true when it was acknowledged; a refusal is
    /// said in one line.
    private func send(_ message: CECMessage, purpose: String) -> Bool {
        var reply = [UInt8](repeating: 0, count: 16)
        var length: Int32 = 0
        let status = message.bytes.withUnsafeBufferPointer {
            kc_cec_send(fd, $0.baseAddress, Int32($0.count), 0, 0, &reply, &length)
        }
        if status >= 0 && kc_cec_tx_ok(status) != 0 { return true }
        let why = status < 0 ? String(cString: strerror(errno)) : kc_cec_tx_nack(status) != 0 ? "not acknowledged" : "the bus failed"
        log("cec: \(message) (\(purpose)): \(why)")
        return false
    }
}

/// Why the adapter cannot be used, in one line.
public struct CECProblem: Error, Sendable, CustomStringConvertible {
    public let description: String
    init(_ d: String) { description = d }
}
