import CMosquitto
import Foundation
import NIOConcurrencyHelpers

/// Where the MQTT broker is and who the screen is to it (`--mqtt`, `--mqtt-id`, ...).
public struct MQTTSettings: Sendable {
    public var host: String
    public var port: Int
    public var tls: Bool
    public var caFile: String?
    public var user: String?
    public var password: String?
    /// Names the device and its topics: `kiosk-carousel/<id>/...`.
    public var id: String

    public init(host: String, port: Int, tls: Bool, id: String) {
        self.host = host
        self.port = port
        self.tls = tls
        self.id = id
    }

    /// `mqtt://HOST[:PORT]` or `mqtts://HOST[:PORT]`; nil for anything else.
    public static func parse(url: String) -> (host: String, port: Int, tls: Bool)? {
        let tls: Bool
        let rest: Substring
        if url.hasPrefix("mqtt://") { (tls, rest) = (false, url.dropFirst(7)) }
        else if url.hasPrefix("mqtts://") { (tls, rest) = (true, url.dropFirst(8)) }
        else { return nil }
        let hostPort = rest.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        var host = String(hostPort), port = tls ? 8883 : 1883
        if let colon = hostPort.lastIndex(of: ":"), !hostPort.hasSuffix("]") {
            guard let p = Int(hostPort[hostPort.index(after: colon)...]), (1...65535).contains(p) else { return nil }
            host = String(hostPort[..<colon])
            port = p
        }
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard !host.isEmpty, !host.contains("@") else { return nil }
        return (host, port, tls)
    }

    /// A topic level from a host name: letters, digits, `-` and `_` only.
    public static func topicSafe(_ s: String) -> String {
        let out = String(s.unicodeScalars.map { CharacterSet.alphanumerics.contains($0) && $0.isASCII || $0 == "-" || $0 == "_" ? Character($0) : "_" })
        return out.isEmpty ? "kiosk" : String(out.prefix(64))
    }
}

/// The control part over MQTT, with libmosquitto (the reference client of the reference
/// broker) on a thread of its own: state published retained under `kiosk-carousel/<id>/`,
/// availability `online` and `offline` as the last will, command topics for the same
/// commands as the HTTP API, Home Assistant's discovery, and a small screenshot on change.
/// The broker down, unreachable or going away never touches the show: libmosquitto
/// reconnects with backoff, one line is logged per change of state, and everything is
/// published again on reconnecting.
public final class MQTTLink: @unchecked Sendable {
    let settings: MQTTSettings
    let desk: ControlDesk
    let base: String
    private let mosq: OpaquePointer
    private let log: @Sendable (String) -> Void
    /// Publishing runs here, never on the run loop's thread.
    private let queue = DispatchQueue(label: "mqtt-publish")
    private struct State {
        var connected: Bool?
        /// Topic filters other parts listen on (`listen`), subscribed at every connection.
        var listeners: [(filter: String, prefix: String, heard: @Sendable (String, [UInt8]) -> Void, linkChanged: @Sendable (Bool) -> Void)] = []
        var published: [String: String] = [:]
        var lastShot = -Double.infinity
        var shotPlanned = false
        /// What the last discovery offered: announced again when the screen's abilities change.
        var announced: ShowState.Capabilities?
    }
    private let state = NIOLockedValueBox(State())
    /// Held while a message is handed to the handle; `destroyed` once `stop` lets it go.
    private let handle = NSLock()
    private var destroyed = false
    /// Seconds between pings while nothing else is said: the only wake-up of the MQTT
    /// thread at rest. A crash closes the connection and the broker says `offline` at once;
    /// a screen that loses power or network is said `offline` after 1.5 times this.
    static let keepalive: Int32 = 60
    /// Seconds between screenshots published at most, and their width.
    static let screenshotInterval = 5.0
    static let screenshotWidth = 480

    public init(settings: MQTTSettings, desk: ControlDesk, log: @escaping @Sendable (String) -> Void) throws(ControlRefusal) {
        self.settings = settings
        self.desk = desk
        self.log = log
        self.base = "kiosk-carousel/\(settings.id)"
        mosquitto_lib_init()
        guard let m = mosquitto_new("kiosk-carousel-\(settings.id)", true, nil) else {
            throw ControlRefusal(0, "--mqtt: libmosquitto could not make a client")
        }
        mosq = m
        mosquitto_user_data_set(m, Unmanaged.passUnretained(self).toOpaque())
        mosquitto_reconnect_delay_set(m, 1, 60, true)
        // Small messages leave at once: with Nagle's algorithm a group's clock answer waited
        // for the broker's ACK (a 20 ms error in its clock offset, measured on loopback).
        mosquitto_int_option(m, MOSQ_OPT_TCP_NODELAY, 1)
        let offline = Array("offline".utf8)
        mosquitto_will_set(m, base + "/availability", Int32(offline.count), offline, 1, true)
        if let user = settings.user { mosquitto_username_pw_set(m, user, settings.password) }
        if settings.tls {
            let rc = mosquitto_tls_set(m, settings.caFile ?? "/etc/ssl/certs/ca-certificates.crt", nil, nil, nil, nil)
            guard rc == MOSQ_ERR_SUCCESS.rawValue else {
                throw ControlRefusal(0, "--mqtt-ca-file \(settings.caFile ?? "(system)"): \(String(cString: mosquitto_strerror(rc)))")
            }
        }
        mosquitto_connect_callback_set(m) { _, user, rc in MQTTLink.from(user)?.connected(rc) }
        mosquitto_disconnect_callback_set(m) { _, user, rc in MQTTLink.from(user)?.disconnected(rc) }
        mosquitto_message_callback_set(m) { _, user, message in
            guard let link = MQTTLink.from(user), let message, let topic = message.pointee.topic else { return }
            let length = Int(max(0, min(message.pointee.payloadlen, Int32(MQTTCommand.payloadLimit + 1))))
            let payload = message.pointee.payload.map { [UInt8](UnsafeRawBufferPointer(start: $0, count: length)) } ?? []
            link.received(topic: String(cString: topic), payload: payload)
        }
    }

    private static func from(_ user: UnsafeMutableRawPointer?) -> MQTTLink? {
        user.map { Unmanaged<MQTTLink>.fromOpaque($0).takeUnretainedValue() }
    }

    /// Connects in the background (a broker down at start is tried again with backoff)
    /// and follows the desk's state from now on.
    public func start() {
        desk.watch { [weak self] s in
            guard let link = self else { return }
            link.queue.async { link.publishState(s, force: false) }
        }
        desk.feed.watchVideo { [weak self] in
            guard let link = self else { return }
            link.queue.async { link.publishState(link.desk.state, force: false) }
        }
        let rc = mosquitto_connect_async(mosq, settings.host, Int32(settings.port), Self.keepalive)
        if rc != MOSQ_ERR_SUCCESS.rawValue { note(connected: false, "cannot reach \(settings.host):\(settings.port) (\(Self.describe(rc))); trying again") }
        mosquitto_loop_start(mosq)
    }

    /// `offline`, then goodbye (at exit). No publish reaches the handle once it is going: a
    /// screenshot finished on the worker while the program exits found it destroyed (a
    /// SEGV in libmosquitto, seen under ThreadSanitizer).
    public func stop() {
        publish("availability", "offline")
        handle.withLock { destroyed = true }
        mosquitto_disconnect(mosq)
        mosquitto_loop_stop(mosq, false)
        mosquitto_destroy(mosq)
    }

    /// Another part's topics on this screen's connection (`--group`'s): `filter` (ending in
    /// `/#` or `/+`) is subscribed at every connection, after which `linkChanged(true)` runs
    /// (on the publishing queue: the place to publish again what the broker may have lost), and
    /// every message under it goes to `heard` on libmosquitto's thread, its payload cut at
    /// 4097 bytes; `linkChanged` hears the connection lost (false) too. Call before `start`.
    public func listen(to filter: String, heard: @escaping @Sendable (_ topic: String, _ payload: [UInt8]) -> Void,
                       linkChanged: @escaping @Sendable (_ connected: Bool) -> Void) {
        let prefix = String(filter.dropLast(filter.hasSuffix("/#") || filter.hasSuffix("/+") ? 1 : 0))
        state.withLockedValue { $0.listeners.append((filter, prefix, heard, linkChanged)) }
    }

    /// `--presence-topic`: a sensor's state topic; each message that says someone is there or
    /// not becomes the `presence` command (one line per kind of payload not understood).
    public func listenForPresence(on topic: String, log: @escaping @Sendable (String) -> Void) {
        let said = NIOLockedValueBox(Set<String>())
        listen(to: topic, heard: { [weak self] t, payload in
            guard t == topic, let self else { return }
            guard let present = MQTTCommand.presence(payload) else {
                let line = String(decoding: payload.prefix(40), as: UTF8.self)
                if said.withLockedValue({ $0.count < 16 && $0.insert(line).inserted }) {
                    log("mqtt: \(topic): ignored, not a presence (ON or OFF): \(ControlRoute.clip(line))")
                }
                return
            }
            self.desk.inbox.post(.command(.presence(present))) { _ in }
        }, linkChanged: { _ in })
    }

    /// The screen's id (`--mqtt-id`).
    public var id: String { settings.id }

    /// Whether the broker holds the connection now.
    public var isConnected: Bool { state.withLockedValue { $0.connected == true } }

    /// Publishes `bytes` on `topic`, retained or not, from any thread (it never blocks).
    public func send(_ topic: String, _ bytes: [UInt8], retain: Bool) {
        publish(raw: topic, bytes, retain: retain)
    }

    // MARK: - libmosquitto's thread

    private func connected(_ rc: Int32) {
        guard rc == 0 else {
            note(connected: false, "the broker \(settings.host):\(settings.port) refused the connection (\(String(cString: mosquitto_connack_string(rc))))")
            return
        }
        note(connected: true, "connected to \(settings.host):\(settings.port) as \(base)")
        mosquitto_subscribe(mosq, nil, base + "/cmd/+", 1)
        mosquitto_subscribe(mosq, nil, "homeassistant/status", 1)
        for l in state.withLockedValue({ $0.listeners }) {
            mosquitto_subscribe(mosq, nil, l.filter, 1)
            queue.async { l.linkChanged(true) }
        }
        queue.async { self.announce() }
    }

    private func disconnected(_ rc: Int32) {
        if rc != 0 { note(connected: false, "lost the broker \(settings.host):\(settings.port) (\(Self.describe(rc))); reconnecting") }
        for l in state.withLockedValue({ $0.listeners }) { queue.async { l.linkChanged(false) } }
    }

    private func received(topic: String, payload: [UInt8]) {
        if let l = state.withLockedValue({ $0.listeners.first { topic.hasPrefix($0.prefix) } }) {
            l.heard(topic, payload)
            return
        }
        if topic == "homeassistant/status" {
            // Home Assistant restarted: it wants discovery and state again.
            if String(decoding: payload.prefix(16), as: UTF8.self) == "online" { queue.async { self.announce() } }
            return
        }
        guard topic.hasPrefix(base + "/cmd/") else { return }
        let name = String(topic.dropFirst(base.count + 5))
        switch MQTTCommand.parse(name: name, payload: payload) {
        case .failure(let r):
            log("mqtt: \(topic): ignored, \(r.reason)")
        case .success(let command):
            desk.inbox.post(.command(command)) { [log] answer in
                if case .refused(let r) = answer { log("mqtt: \(topic): not done, \(r.reason)") }
            }
        }
    }

    private func note(connected: Bool, _ line: String) {
        let changed = state.withLockedValue { s -> Bool in
            defer { s.connected = connected }
            return s.connected != connected
        }
        if changed { log("mqtt: " + line) }
    }

    private static func describe(_ rc: Int32) -> String {
        rc == MOSQ_ERR_ERRNO.rawValue ? String(cString: strerror(errno)) : String(cString: mosquitto_strerror(rc))
    }

    // MARK: - Publishing (on `queue`)

    /// Availability, discovery and the whole state: at connection and when Home Assistant
    /// comes back.
    private func announce() {
        publish("availability", "online")
        let s = desk.state
        state.withLockedValue { $0.announced = s.capabilities }
        for (topic, config) in HomeAssistantDiscovery(settings: settings, base: base, version: desk.version,
                                                      hasBacklight: s.brightness != nil,
                                                      capabilities: s.capabilities).configs {
            publish(raw: topic, config)
        }
        publishState(desk.state, force: true)
        planScreenshot()
    }

    private func publishState(_ s: ShowState, force: Bool) {
        // Abilities changed (the first state after connecting, a rescan's count): discovery again.
        if !force, state.withLockedValue({ $0.announced != nil && $0.announced != s.capabilities }) {
            announce()
            return
        }
        let counts = desk.feed.counts
        let failed = counts.failed.values.reduce(0, +)
        var attributes: [String: Any] = ["count": s.count, "view": s.view, "screen_reason": s.screenReason]
        if let i = s.index { attributes["index"] = i }
        if let v = s.source { attributes["source"] = v }
        if let v = s.paired { attributes["paired"] = v }
        if let g = s.group { attributes["group"] = g.name }
        if let v = s.caption { attributes["caption"] = v }
        var fields: [(String, String)] = [
            ("state/index", s.index.map(String.init) ?? ""), ("state/title", s.title ?? ""), ("state/view", s.view),
            ("state/playing", s.playing ? "ON" : "OFF"), ("state/screen", s.screenOn ? "ON" : "OFF"),
            ("state/failed", String(failed)), ("state/attributes", Self.json(attributes)),
            ("state/screen_attributes", Self.json(["panel": s.screenOn ? "on" : s.panelStaysLit ? "black, the panel stays lit" : "off"])),
        ] + (s.brightness.map { [("state/brightness", String(Int(($0 * 255).rounded())))] } ?? [])
        // The last clip's state and the frames its clips dropped.
        let video: [(String, String)] = [("state/video", counts.videoState ?? ""),
                                         ("state/video_frames_dropped", String(counts.videos.frames_dropped))]
        fields += video
        // `--group`: the clock's health (the Home Assistant problem sensor "Clock").
        if let g = s.group {
            var clock: [String: Any] = ["group": g.name]
            if let o = g.clockOffset { clock["offset_ms"] = (o * 10_000).rounded() / 10 }
            if let n = g.clockSynchronised { clock["ntp_synchronised"] = n }
            fields += [("state/clock_problem", g.clockProblem ? "ON" : "OFF"), ("state/clock", Self.json(clock))]
        }
        var changedPicture = false
        for (topic, value) in fields {
            let same = state.withLockedValue { st -> Bool in
                defer { st.published[topic] = value }
                return st.published[topic] == value
            }
            if same && !force { continue }
            publish(topic, value)
            if topic == "state/index" || topic == "state/view" || topic == "state/screen" { changedPicture = true }
        }
        if changedPicture && !force { planScreenshot() }
    }

    /// A screenshot for Home Assistant's image entity: after a change, at most one every
    /// `screenshotInterval` seconds, `screenshotWidth` pixels wide.
    private func planScreenshot() {
        let now = desk.clock()
        let wait = state.withLockedValue { s -> Double? in
            guard !s.shotPlanned else { return nil }
            s.shotPlanned = true
            return max(0, s.lastShot + Self.screenshotInterval - now)
        }
        guard let wait else { return }
        queue.asyncAfter(deadline: .now() + wait) { [self] in
            state.withLockedValue { $0.shotPlanned = false; $0.lastShot = desk.clock() }
            desk.inbox.post(.screenshot) { [self] answer in
                guard case .frame(let w, let h, let pixels, let bgra) = answer else { return }
                _ = desk.worker.run { [self] in
                    guard let png = desk.png(width: w, height: h, pixels: pixels, bgra: bgra, scaledTo: Self.screenshotWidth) else { return }
                    publish(raw: base + "/screenshot", png)
                }
            }
        }
    }

    private func publish(_ topic: String, _ value: String) { publish(raw: base + "/" + topic, Array(value.utf8)) }

    /// Queues a message for libmosquitto's thread (it never blocks), unless the handle is going.
    private func publish(raw topic: String, _ bytes: [UInt8], retain: Bool = true) {
        handle.withLock {
            guard !destroyed else { return }
            _ = bytes.withUnsafeBytes { mosquitto_publish(mosq, nil, topic, Int32($0.count), $0.baseAddress, 1, retain) }
        }
    }

    static func json(_ object: [String: Any]) -> String {
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }
}
